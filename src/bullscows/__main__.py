"""The ``bullscows`` command's entry point (also ``python -m bullscows``).

Nothing but ``sys`` is imported before ``main`` begins (the package itself loads its names on
first use), so that Ctrl-C at any moment, while the command's modules are still loading
included, ends the command with one line and status 130, never a traceback. SIGTERM (``kill``,
how a job in the background is stopped) and SIGHUP (the terminal closed, its SSH link
lost) do the same as Ctrl-C; a Ctrl-C or SIGHUP the process was started to ignore (a
background job's, ``nohup``'s) stays ignored. One that comes while a finalizer or a
weak reference's callback runs (an import lock's, say), where Python would lose it, stops the
command a moment later.
"""

import sys

TYPE_CHECKING = False  # as typing's, which is not imported to start
if TYPE_CHECKING:
    import threading
    from types import FrameType

#: Seconds after which a stop that came during a finalizer is tried again (``_first``).
RETRY_SECONDS = 0.01
#: The exit status of a command stopped by Ctrl-C or SIGTERM (``errors.INTERRUPTED``).
STOPPED = 130
#: Whether the command runs (a stop Python lost is tried again only then: ``_unraisable``).
_running = [False]


def main() -> None:
    """Run the ``bullscows`` command; its modules are imported here, under the same guard.
    The first Ctrl-C or SIGTERM stops the command (``KeyboardInterrupt``: its workers stop,
    what it keeps is kept, it says so); a second one, while the command winds down or the
    process ends (pools and threads shut down, exit handlers run), ends it at once, with no
    traceback."""
    _stop_on_signals(first=True)
    _running[0] = True
    try:
        from bullscows.cli import main as command

        command()
    except KeyboardInterrupt:
        from bullscows.errors import interrupted

        sys.exit(interrupted())
    finally:
        _running[0] = False
        _stop_on_signals(first=False)


def _stop_on_signals(first: bool) -> None:
    """Let SIGTERM, and Ctrl-C and SIGHUP unless they are ignored, stop the command
    (``first``), or end the process at once."""
    import signal

    handler = _first if first else _again
    if first:
        import threading

        sys.unraisablehook = _unraisable
        threading.excepthook = _thread_failed
    signal.signal(signal.SIGTERM, handler)
    for name in ("SIGINT", "SIGHUP"):  # SIGHUP: the terminal closed (none on Windows)
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) is not signal.SIG_IGN:
            signal.signal(number, handler)
    if hasattr(signal, "SIGALRM") and signal.getsignal(signal.SIGALRM) in (_first, _again):
        signal.signal(signal.SIGALRM, handler)  # a stop put off by ``_first``, still to come


def _first(number: int, frame: "FrameType | None") -> None:
    """The first Ctrl-C or SIGTERM: stop the command as Ctrl-C does. Come while a finalizer
    runs (``__del__``, Dask's futures' say), where Python would lose the exception and show
    it with a traceback, it stops the command a moment later, once the finalizer is done."""
    import signal

    if _in_finalizer(frame) and hasattr(signal, "setitimer"):  # not on Windows
        _stop_on_signals(first=False)  # a second one, meanwhile, ends the process at once
        _retry()
        return
    _stop_on_signals(first=False)
    raise KeyboardInterrupt


def _retry() -> None:
    """Stop the command (``_first``) ``RETRY_SECONDS`` from now."""
    import signal

    signal.signal(signal.SIGALRM, _first)
    signal.setitimer(signal.ITIMER_REAL, RETRY_SECONDS)


def _unraisable(unraisable: "sys.UnraisableHookArgs") -> None:
    """A stop that Python lost where no exception can leave (a weak reference's callback, an
    import lock's among them, which ``_in_finalizer`` cannot name) is tried again a moment
    later (``_retry``); anything else is shown as Python shows it."""
    import signal

    lost = unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt)
    if lost and _running[0] and hasattr(signal, "setitimer"):
        _retry()
        return
    sys.__unraisablehook__(unraisable)


def _thread_failed(failed: "threading.ExceptHookArgs") -> None:
    """A process pool's manager thread that finds its workers gone (SIGTERM to the whole
    job) marks its futures failed; one the stopped command cancelled meanwhile raises
    ``InvalidStateError`` there (the standard library's race): nothing is lost, so nothing
    is shown. Anything else is shown as Python shows it."""
    import threading
    from concurrent.futures import InvalidStateError, process

    manager = isinstance(failed.thread, process._ExecutorManagerThread)
    if manager and failed.exc_type is not None and issubclass(failed.exc_type, InvalidStateError):
        return
    threading.__excepthook__(failed)


def _in_finalizer(frame: "FrameType | None") -> bool:
    """Whether ``frame`` runs in a finalizer (``__del__``), or is called from one."""
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


def _again(number: int, frame: object) -> None:
    """A Ctrl-C or SIGTERM after the command stopped or ended: end the process now."""
    import contextlib
    import os

    with contextlib.suppress(OSError):  # stderr closed or gone: the status says it
        os.write(2, b"\nStopped at once.\n")
    os._exit(STOPPED)


if __name__ == "__main__":
    main()
