"""Ctrl-C at any moment of a command, its first imports included: one line, status 130.

The command runs as its console script does (written from ``pyproject.toml``'s entry point, as
an installer writes it); a hook in the process sends it a real SIGINT the moment it begins to
import a given module, so each moment is hit on purpose rather than by timing.
"""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from .conftest import _default_interrupt, console_script, ctrl_c, job, private_env

#: Sends this process SIGINT as it begins to import the module named ``{name}``.
HOOK = """\
import signal, sys

class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == {name!r}:
            sys.meta_path.remove(self)
            signal.raise_signal(signal.SIGINT)
        return None

sys.meta_path.insert(0, Interrupt())
"""


def interrupted_at(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``bullscows args`` sent Ctrl-C as it begins to import ``module``."""
    source = HOOK.format(name=module) + console_script()
    return subprocess.run(
        [sys.executable, "-c", source, *args], capture_output=True, text=True,
        stdin=subprocess.DEVNULL, env=private_env(), preexec_fn=_default_interrupt,
        timeout=120, check=False,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("module", "args"),
    [
        ("bullscows.cli", ["score", "1234", "4130"]),  # the command's first import
        ("click", ["score", "1234", "4130"]),
        ("bullscows.cli.streams", ["--help"]),
        ("bullscows.cli.info", ["score", "1234", "4130"]),  # the command's own module
        ("numpy", ["play", "--seed", "1"]),
        ("bullscows.sessions", ["play", "--seed", "1"]),
    ],
)
def test_ctrl_c_while_importing_ends_with_one_line_and_130(module: str, args: list[str]) -> None:
    result = interrupted_at(module, *args)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stderr.strip() == "Interrupted.", result.stderr
    assert result.returncode == 130, result.stderr


#: Sends this process SIGINT from a weak reference's callback (where Python loses an
#: exception, as in an import lock's) as it begins to import the module named ``{name}``.
LOST = """\
import signal, sys, weakref

class Thing:
    pass

def ring(_):
    signal.raise_signal(signal.SIGINT)
    sum(range(1000))  # the handler runs here, in the callback

class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == {name!r}:
            sys.meta_path.remove(self)
            thing = Thing()
            kept = weakref.ref(thing, ring)
            del thing
        return None

sys.meta_path.insert(0, Interrupt())
"""


def test_ctrl_c_in_a_weak_reference_callback_is_not_lost() -> None:
    # Python shows an exception raised in such a callback ('Exception ignored in') and goes on:
    # the command went on to its end. It stops a moment later, as Ctrl-C anywhere else does.
    source = LOST.format(name="numpy") + console_script()
    result = subprocess.run(
        [sys.executable, "-c", source, "play", "--seed", "1"], capture_output=True,
        text=True, stdin=subprocess.DEVNULL, env=private_env(),
        preexec_fn=_default_interrupt, timeout=120, check=False,
    )  # fmt: skip
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stderr.strip() == "Interrupted.", result.stderr
    assert result.returncode == 130, result.stderr


def test_the_hook_interrupts_nothing_it_does_not_meet() -> None:
    # the premise of the test above: a module never imported lets the command run
    result = interrupted_at("no.such.module", "score", "1234", "4130")
    assert (result.returncode, result.stdout) == (0, "1 bull, 2 cows\n"), result.stderr


def test_a_command_stopped_in_this_process_leaves_ctrl_c_as_it_was(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A caller of the commands in its own process (a test, a notebook) keeps its Ctrl-C: only
    # the console command ends at once on a further one while its process ends
    # (bullscows.__main__).
    from bullscows.errors import interrupted

    before = signal.getsignal(signal.SIGINT)
    assert interrupted() == 130
    assert capsys.readouterr().err == "\nInterrupted.\n"
    assert signal.getsignal(signal.SIGINT) is before


#: Makes every universe built aside wait for ever (a wide variant's build, made endless), after
#: it says on stderr that it has begun, and whether its thread blocks SIGINT.
ENDLESS_BUILD = """\
import signal, sys, threading
import bullscows.universe

def endless(rules):
    blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    sys.stderr.write(f"building, SIGINT blocked: {blocked}\\n")
    sys.stderr.flush()
    threading.Event().wait()

bullscows.universe.Universe = endless
"""


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
def test_ctrl_c_during_a_universe_build_stops_at_once() -> None:
    # p6c12r's 2,985,984 codes are built aside; the build never ends, so the command ends
    # only because Ctrl-C reached the thread that waits for it. Linux gives a group's SIGINT
    # to the main thread anyway when no thread blocks it: the build's thread must block it,
    # or Ctrl-C could be taken there (other systems) and leave the caller waiting.
    source = ENDLESS_BUILD + console_script()
    args = ["candidates", "--rules", "p6c12r", "012345 1 3"]
    with job([sys.executable, "-c", source, *args], private_env()) as process:
        assert process.stderr is not None
        assert process.stderr.readline() == "building, SIGINT blocked: True\n"
        _, err = ctrl_c(process)
    assert err.strip() == "Interrupted.", err
    assert process.returncode == 130


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
def test_the_universe_builder_blocks_ctrl_c(monkeypatch: pytest.MonkeyPatch) -> None:
    # Ctrl-C goes to a thread that does not block it: taken by the builder (or a thread the
    # builder starts), it would leave the caller waiting for the build's end.
    import threading

    from bullscows import Rules, universe

    masks: dict[str, set[signal.Signals]] = {}

    def record() -> None:
        masks[threading.current_thread().name] = signal.pthread_sigmask(signal.SIG_BLOCK, [])

    def built(rules: Rules) -> str:
        record()
        helper = threading.Thread(target=record, name="helper")
        helper.start()
        helper.join()
        return "built"

    monkeypatch.setattr(universe, "Universe", built)
    before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    assert universe.built_aside(Rules.parse("bc")) == "built"
    assert signal.SIGINT in masks["bullscows-universe"]
    assert signal.SIGINT in masks["helper"]
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before  # the caller's is its own


def test_a_pools_manager_thread_failing_on_a_cancelled_future_shows_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # SIGTERM to a whole job: the pool's workers are gone, its manager thread marks the
    # futures failed, and one the stopped command cancelled raises InvalidStateError there
    import threading
    from concurrent.futures import InvalidStateError, process

    from bullscows.__main__ import _thread_failed

    manager = process._ExecutorManagerThread.__new__(process._ExecutorManagerThread)
    error = InvalidStateError("CANCELLED: <Future state=cancelled>")
    _thread_failed(threading.ExceptHookArgs((InvalidStateError, error, None, manager)))
    assert capsys.readouterr().err == ""
    other = threading.Thread(name="other")  # any other failure is shown as Python shows it
    _thread_failed(threading.ExceptHookArgs((ValueError, ValueError("x"), None, other)))
    assert "Exception in thread other" in capsys.readouterr().err
