"""Standard streams as Unix tools treat them, set up once at the command's entry point.

Input is read as UTF-8 keeping bad bytes (to refuse them clearly), output never fails on
encoding, a closed stream or a full disk is a one-line error, a broken pipe ends quietly
(status 141), lines are read up to ``MAX_LINE`` characters, and a ``BullsCowsWarning`` is one
line; docs/reference/errors.md lists each case.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from bullscows.errors import BullsCowsError, BullsCowsWarning
from bullscows.readers import read_named, read_text

if TYPE_CHECKING:
    from rich.console import Console

#: The exit status after a broken pipe: what a shell reports for a process ended by SIGPIPE.
BROKEN_PIPE_STATUS = 141
#: The longest line of input read (a terminal's own line limit is 4,096).
MAX_LINE = 65_536
#: Terminal sizes outside this range are ignored.
SIZES = range(1, 10_001)
#: The width of lines written to a file or a pipe: wide enough that nothing is wrapped or cut.
WIDE = 10_000
#: Failures of a write to stdout (a full disk, a quota, an input/output error).
_WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}


class ClosedStream(io.TextIOBase):
    """Stands for a standard stream that was closed when the program started."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.what = name

    def _fail(self) -> NoReturn:
        raise OSError(errno.EBADF, f"{self.what} is closed")

    def write(self, text: str) -> int:
        self._fail()

    def read(self, size: int | None = -1) -> str:
        self._fail()

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self._fail()

    def fileno(self) -> int:
        self._fail()

    def isatty(self) -> bool:
        return False


def prepare() -> None:
    """Set up the standard streams and the terminal size (see the module docstring)."""
    for name in ("COLUMNS", "LINES"):
        value = os.environ.get(name)
        if value is not None and not (value.isdigit() and int(value) in SIZES):
            del os.environ[name]
    if sys.stdin is None:
        sys.stdin = ClosedStream("standard input")
    if sys.stdout is None:
        sys.stdout = ClosedStream("standard output")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (for the rest of the run)
    if warnings.showwarning is not _show_warning:
        _show_warning.default = warnings.showwarning  # type: ignore[attr-defined]
        warnings.showwarning = _show_warning
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="surrogateescape")
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


def _show_warning(
    message: Warning | str, category: type[Warning], *args: Any, **kwargs: Any
) -> None:
    """The program's own warnings as one line on stderr; others as Python shows them."""
    if issubclass(category, BullsCowsWarning):
        with contextlib.suppress(OSError, ValueError):
            print(f"Warning: {message}", file=sys.stderr)
    else:
        _show_warning.default(message, category, *args, **kwargs)  # type: ignore[attr-defined]


def console(stderr: bool = False) -> Console:
    """A rich console for stdout (or stderr) with no markup: on a terminal, as wide as it is;
    written to a file or a pipe, as wide as ``WIDE``, so that tables and prose are complete
    and unwrapped there, whatever ``COLUMNS`` says.

    >>> console().width  # doctest's stdout is no terminal
    10000
    """
    from rich.console import Console  # loaded by the commands that print with it only

    class Quiet(Console):
        """Ends on a broken pipe as every command does (rich's own ends with status 1)."""

        def on_broken_pipe(self) -> None:
            with contextlib.suppress(SystemExit):  # it points stdout at the null device
                super().on_broken_pipe()
            sys.exit(BROKEN_PIPE_STATUS)

    made = Quiet(stderr=stderr, highlight=False, markup=False, emoji=False)
    if not made.is_terminal:
        made.width = WIDE
    return made


def width(default: int, made: Console | None = None) -> int:
    """The terminal's width where stdout (or ``made``'s file) is one, else ``default`` (lines
    written to a file or a pipe keep the library's own width).

    >>> width(100)  # doctest's stdout is no terminal
    100
    """
    made = console() if made is None else made
    return made.width if made.is_terminal else default


def echo_wrapped(line: str, indent: int) -> None:
    """Print ``line``; at a terminal narrower than it, wrapped at spaces, the lines after the
    first indented by ``indent`` (a table's first column), not cut where the terminal ends.

    >>> echo_wrapped("name  a summary of the thing", 6)  # no terminal: whole
    name  a summary of the thing
    """
    import textwrap

    import click

    wrapped = textwrap.wrap(line, width(WIDE), subsequent_indent=" " * indent,
                            break_long_words=False, break_on_hyphens=False)  # fmt: skip
    click.echo("\n".join(wrapped))


def read_line() -> str | None:
    """One line of stdin without its end, or ``None`` at the end of input; a line longer than
    ``MAX_LINE`` is an error (it is no reply or code, and it may never end).

    >>> saved, sys.stdin = sys.stdin, io.StringIO("1 2\\n" + "9" * (MAX_LINE + 1))
    >>> read_line(), read_line()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: input line longer than 65,536 characters: ...
    >>> sys.stdin = saved
    """
    line = sys.stdin.readline(MAX_LINE + 1)
    if not line:
        return None
    if len(line) > MAX_LINE:
        raise BullsCowsError(
            f"input line longer than {MAX_LINE:,} characters: no code or reply is that long"
        )
    return line.removesuffix("\n").removesuffix("\r")


def flush() -> None:
    """Flush stdout now, so that a failed write is seen while it can still be reported."""
    if sys.stdout is not None and not isinstance(sys.stdout, ClosedStream):
        sys.stdout.flush()


def failed(error: OSError) -> int:
    """Report an error of the system (a write that failed, a stream that is closed); the exit
    status. A broken pipe is not reported: the reader has gone, as with ``| head -1``."""
    _discard_output()
    if error.errno == errno.EPIPE:
        return BROKEN_PIPE_STATUS
    reason = error.strerror or str(error)
    if error.filename is not None:
        reason = f"{error.filename}: {reason}"
    elif error.errno in _WRITE_ERRORS:
        reason = f"cannot write the output: {reason}"
    with contextlib.suppress(OSError, ValueError):  # stderr is gone too: the status says it
        print(f"Error: {reason}", file=sys.stderr, flush=True)
    return 1


def _discard_output() -> None:
    """Point stdout at the null device, so that nothing more is written to where writing
    failed (Python flushes stdout once more on exit)."""
    if sys.stdout is not sys.__stdout__ or sys.__stdout__ is None:
        return  # output captured (by a test): nothing is written to a file descriptor
    with contextlib.suppress(OSError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.__stdout__.fileno())
        os.close(null)


#: A history read whole (``candidates``, ``assist --from``) has at most this many lines.
MAX_LINES = 100_000


#: Said at a terminal before a history is read from the keyboard.
TYPE_HISTORY = "Type the history, one 'GUESS REPLY' a line (e.g. '0123 1 2'); Ctrl-D ends it."


def read_lines(source: Path | None) -> list[str]:
    """Every line of the file ``source`` (bounded by ``readers.read_file``), or of stdin when
    it is ``None`` or ``-`` (each line bounded by ``read_line``, at most ``MAX_LINES``). At a
    terminal, stderr first says what to type and how to end it (nothing else would)."""
    if source is not None and str(source) != "-":
        return read_named(source, "file")[0].splitlines()
    if sys.stdin.isatty():
        print(TYPE_HISTORY, file=sys.stderr, flush=True)
    lines: list[str] = []
    while (line := read_line()) is not None:
        if len(lines) == MAX_LINES:
            raise BullsCowsError(f"more than {MAX_LINES:,} lines of input: no history is so long")
        lines.append(read_text(line, f"input line {len(lines) + 1}"))
    return lines
