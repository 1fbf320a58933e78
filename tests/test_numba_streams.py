"""A kernel compiled on another thread leaves the process's standard streams alone.

Commands compile their kernels on a background thread while a game starts
(``compiled.warm_up``). Numba builds error messages as it tries overloads, and where colorama
is installed it would highlight them by swapping ``sys.stdout`` for the whole process and
putting back the stream it found: a stream the command set meanwhile (a test runner's
capture, a redirection) would be lost, and output would go where it was no longer meant to.
"""

from __future__ import annotations

import io
import sys
import threading

import pytest

import bullscows._kernels  # noqa: F401 (before numba, as in every command)


class _Earlier(io.StringIO):
    """The stream current when numba begins its message; touching it lets the other thread
    replace ``sys.stdout`` at that very moment, as a command starting there would."""

    def __init__(self, touched: threading.Event, replaced: threading.Event) -> None:
        super().__init__()
        self.touched, self.replaced = touched, replaced

    def _meanwhile(self) -> None:
        if not self.touched.is_set():
            self.touched.set()
            self.replaced.wait(10)

    def isatty(self) -> bool:
        self._meanwhile()
        return False

    def fileno(self) -> int:
        self._meanwhile()
        return super().fileno()


def test_a_numba_error_on_another_thread_keeps_the_stream_a_command_set() -> None:
    pytest.importorskip("colorama")  # without it numba never swaps the streams: nothing to test
    from numba.core.errors import TypingError

    touched, replaced = threading.Event(), threading.Event()
    earlier, ours = _Earlier(touched, replaced), io.StringIO()
    saved = sys.stdout
    sys.stdout = earlier
    try:
        compiling = threading.Thread(target=TypingError, args=("no overload fits",))
        compiling.start()
        while compiling.is_alive() and not touched.wait(0.01):
            pass  # numba looks at the stream only where it would swap it
        sys.stdout = ours  # the command sets its stream, during or after the message
        replaced.set()
        compiling.join(10)
        print("the command's line")
        now = sys.stdout
    finally:
        sys.stdout = saved
    assert now is ours
    assert ours.getvalue() == "the command's line\n"
    assert earlier.getvalue() == ""
