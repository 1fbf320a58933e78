"""Shared helpers for the command-line tests.

Interactive games run in this process with their input and output through pipes (the
``spawn`` fixture, fast); one game per command, Ctrl-C and end of input run the real
``bullscows`` console script in a pseudo-terminal (``terminal``), so prompts, echo, signals and
exit codes are checked as a person sees them. The expected figures
(how many codes are still possible, which replies are right) are worked out here by brute
force, independently of the library's universe and knowledge code.
"""

from __future__ import annotations

import io
import itertools
import os
import re
import signal
import subprocess
import sys
import threading
import time
import tomllib
import traceback
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pexpect
import pytest

from bullscows import Code, Rules, score

BULLSCOWS = Path(sys.executable).parent / "bullscows"

#: Plain output: no colour, no cursor tricks, and lines long enough that rich never wraps them.
#: (With TERM=dumb rich ignores the terminal size unless both COLUMNS and LINES are set.)
ENV = {
    "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    "NO_COLOR": "1",
    "TERM": "dumb",
    "COLUMNS": "200",
    "LINES": "50",
    "PYTHONUNBUFFERED": "1",
}


def private_env() -> dict[str, str]:
    """``ENV`` with the test run's own cache and record of games (``tests/conftest.py``), so
    that a command run as a process keeps nothing in the user's folders."""
    private = ("BULLSCOWS_CACHE", "BULLSCOWS_DATABASE", "PYTHONPATH")
    return {**ENV, **{name: os.environ[name] for name in private if name in os.environ}}


def console_script() -> str:
    """The ``bullscows`` console script as an installer writes it from ``pyproject.toml``'s
    entry point (the installed one may predate it); run it with ``python -c``."""
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    scripts = tomllib.loads(pyproject.read_text())["project"]["scripts"]
    module, function = scripts["bullscows"].split(":")
    return f"import sys\nfrom {module} import {function}\nsys.exit({function}())\n"


@contextmanager
def job(
    command: list[str], env: dict[str, str], ignore_ctrl_c: bool = False,
    ignore_hangup: bool = False,
) -> Iterator[subprocess.Popen[str]]:  # fmt: skip
    """``command`` started as a shell starts a job: a process group of its own, Ctrl-C not
    ignored (or ignored, ``ignore_ctrl_c``, as in a job put in the background), SIGHUP not
    ignored (or ignored, ``ignore_hangup``, as ``nohup`` starts it), its output captured as
    text; the group is killed if it still runs at the end."""

    def start() -> None:
        (ignore_interrupt if ignore_ctrl_c else _default_interrupt)()
        signal.signal(signal.SIGHUP, signal.SIG_IGN if ignore_hangup else signal.SIG_DFL)

    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        start_new_session=True, preexec_fn=start,
    )  # fmt: skip
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


#: The longest wait for a prompt or a line of a command run here: minutes, as numba may
#: compile its kernels the first time a process uses them, and a loaded machine is slow.
TIMEOUT = 300
#: The longest wait for what a process should do (start its workers, answer a part, end
#: after a signal): minutes, for a machine loaded many times over.
LIMIT = 300.0


def ctrl_c(process: subprocess.Popen[str]) -> tuple[str, str]:
    """Ctrl-C sent to ``process``'s job as a terminal sends it (to every process of the
    group); its output once it ends."""
    os.killpg(process.pid, signal.SIGINT)
    return process.communicate(timeout=LIMIT)


# --- processes, read from /proc (Linux) -------------------------------------------------------

#: Whether the processes can be read from /proc (tests that need it skip elsewhere).
LINUX = Path("/proc/self/status").exists()


def parents() -> dict[int, int]:
    """Every process running, with the id of its parent."""
    found: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            found[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError):  # the process ended meanwhile
            continue
    return found


def descendants(pid: int, depth: int | None = None) -> list[int]:
    """The processes started by process ``pid``, their own included (``depth`` 1: its
    children only)."""
    tree = parents()
    found, frontier, level = [], [pid], 0
    while frontier and (depth is None or level < depth):
        frontier = [child for child, parent in tree.items() if parent in frontier]
        found += frontier
        level += 1
    return found


def command_line(pid: int) -> str:
    """The command line of process ``pid`` (its words joined by NULs; empty once it ended)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def workers(pid: int) -> list[int]:
    """The worker processes of the pool of process ``pid``."""
    return [child for child in descendants(pid, depth=1) if "spawn_main" in command_line(child)]


def reads_its_input(pid: int) -> bool:
    """Whether process ``pid`` sleeps in a system call on its standard input (its first
    argument, the file descriptor, is 0: ``/proc/PID/syscall``), as at a prompt; ``True``
    where it cannot be read (not Linux, or not allowed)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        call = Path(f"/proc/{pid}/syscall").read_text().split()
    except OSError:
        return True
    return state == "S" and len(call) > 1 and call[1] == "0x0"


def ignores_interrupts(pid: int) -> bool:
    """Whether process ``pid`` ignores SIGINT (its SigIgn mask)."""
    status = Path(f"/proc/{pid}/status").read_text()
    mask = int(re.search(r"^SigIgn:\s*([0-9a-f]+)$", status, re.M).group(1), 16)  # type: ignore[union-attr]
    return bool(mask & (1 << (signal.SIGINT - 1)))


def python(
    *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """This Python run as a new process with ``args`` (``ENV`` unless ``env`` is given), its
    output captured as text."""
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        env=ENV if env is None else env,
        timeout=timeout,
        check=False,
    )


#: The prompt at which the computer shows a guess and waits for the reply.
MY_GUESS = re.compile(r"\[(\d+)\] My guess: (\S+)  reply: ")


def ignore_interrupt() -> None:
    """Start as a job a shell puts in the background: Ctrl-C ignored (inherited)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _default_interrupt() -> None:
    """Let Ctrl-C interrupt the child even when this suite was started with SIGINT ignored (a
    shell's background job without job control ignores it, and the child would inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Session:
    """A ``bullscows`` process in a pseudo-terminal (``columns`` wide), with everything it
    printed kept."""

    def __init__(self, args: Sequence[str], timeout: float = TIMEOUT, columns: int = 200) -> None:
        self.log = io.StringIO()
        self.child = pexpect.spawn(
            str(BULLSCOWS),
            list(args),
            env={**private_env(), "COLUMNS": str(columns)},
            encoding="utf-8",
            timeout=timeout,
            dimensions=(50, columns),
            preexec_fn=_default_interrupt,
        )
        self.child.logfile_read = self.log

    @property
    def transcript(self) -> str:
        return self.log.getvalue().replace("\r\n", "\n")

    def expect(self, pattern: str | re.Pattern[str], timeout: float | None = -1) -> re.Match[str]:
        """Wait for a regular expression; return its match."""
        try:
            self.child.expect(pattern, timeout=timeout)
        except (pexpect.TIMEOUT, pexpect.EOF) as error:
            raise AssertionError(
                f"{type(error).__name__} waiting for {pattern!r}; transcript:\n{self.transcript}"
            ) from None
        match = self.child.match
        assert isinstance(match, re.Match)
        return match

    def expect_text(self, text: str, timeout: float | None = -1) -> None:
        """Wait for a literal piece of text."""
        self.expect(re.escape(text), timeout)

    def expect_any(
        self, patterns: Sequence[str | re.Pattern[str]], timeout: float | None = -1
    ) -> tuple[int, re.Match[str]]:
        """Wait for the first of several regular expressions; return its number and match."""
        try:
            which = self.child.expect(list(patterns), timeout=timeout)
        except (pexpect.TIMEOUT, pexpect.EOF) as error:
            raise AssertionError(
                f"{type(error).__name__} waiting for any of {patterns!r}; "
                f"transcript:\n{self.transcript}"
            ) from None
        match = self.child.match
        assert isinstance(match, re.Match)
        return which, match

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def interrupt(self) -> None:
        """Ctrl-C, as a person types it at a prompt: once the process waits in the read of
        its input. Sent as soon as the prompt shows, on a loaded machine it could come between
        Python's last look at its signals and the read, and wait there for the next key."""
        deadline = time.monotonic() + self.child.timeout
        while not reads_its_input(self.child.pid):
            assert time.monotonic() < deadline, f"not reading its input:\n{self.transcript}"
            time.sleep(0.02)
        self.child.sendintr()

    def output_since_last_expect(self) -> str:
        before = self.child.before
        return before.replace("\r\n", "\n") if isinstance(before, str) else ""

    def finish(self) -> int:
        """Wait for the process to end; its exit status. Fails if it printed a traceback."""
        self._expect_end("the program")
        self.child.close()
        status = self.child.exitstatus
        assert status is not None, (
            f"killed by signal {self.child.signalstatus}; transcript:\n{self.transcript}"
        )
        return int(status)

    def _expect_end(self, what: str) -> None:
        """Wait for the end of the output; fail if it does not come or holds a traceback."""
        try:
            self.child.expect(pexpect.EOF)
        except pexpect.TIMEOUT:
            raise AssertionError(f"{what} did not end; transcript:\n{self.transcript}") from None
        assert "Traceback" not in self.transcript, self.transcript

    def kill(self) -> None:
        if self.child.isalive():
            self.child.close(force=True)

    def send_eof(self) -> None:
        """End the input, as Ctrl-D at the start of a line does."""
        self.child.sendeof()


class _Keyboard(io.TextIOWrapper):
    """A pipe the command takes for a person's keyboard (as a terminal would be)."""

    def isatty(self) -> bool:
        return True


class InProcess(Session):
    """The same command run in this process, on a thread, its input and output through pipes.

    The dialogue is the one a person has in a terminal, less the echo of what they type, and
    a game takes milliseconds instead of a process start (with its imports) each time. What
    needs a real terminal (Ctrl-C, the console's own handling of end of input) uses
    ``Session``.
    """

    lock = threading.Lock()  # one command at a time owns sys.stdin and sys.stdout

    def __init__(self, args: Sequence[str], timeout: float = TIMEOUT) -> None:
        from pexpect import fdpexpect

        self.log = io.StringIO()
        read_in, self._write_in = os.pipe()
        read_out, write_out = os.pipe()
        self.child = fdpexpect.fdspawn(read_out, encoding="utf-8", timeout=timeout)
        self.child.logfile_read = self.log
        self.status: int | None = None
        stdin = _Keyboard(open(read_in, "rb"), encoding="utf-8")  # noqa: SIM115 (closed by the thread)
        stdout = open(write_out, "w", encoding="utf-8", buffering=1)  # noqa: SIM115
        InProcess.lock.acquire()
        self.thread = threading.Thread(target=self._run, args=(list(args), stdin, stdout))
        self.thread.start()

    def _run(self, args: list[str], stdin: io.TextIOBase, stdout: io.TextIOBase) -> None:
        from bullscows.cli import main

        saved = sys.stdin, sys.stdout, sys.stderr, dict(os.environ)
        sys.stdin, sys.stdout, sys.stderr = stdin, stdout, stdout  # type: ignore[assignment]
        os.environ.update(ENV)
        try:
            main(args, prog_name="bullscows")
            self.status = 0
        except SystemExit as stop:
            self.status = stop.code if isinstance(stop.code, int) else 1
        except BaseException:  # shown in the transcript, as a process would show it
            traceback.print_exc(file=stdout)
            self.status = 1
        finally:
            sys.stdin, sys.stdout, sys.stderr = saved[:3]
            os.environ.clear()
            os.environ.update(saved[3])
            stdout.close()
            stdin.close()
            InProcess.lock.release()

    def send(self, line: str) -> None:
        os.write(self._write_in, (line + "\n").encode())

    def send_eof(self) -> None:
        if self._write_in >= 0:
            os.close(self._write_in)
            self._write_in = -1

    def finish(self) -> int:
        self._expect_end("the command")
        self.thread.join(TIMEOUT)
        assert self.status is not None, "the command did not end"
        self.child.close()
        return self.status

    def kill(self) -> None:
        self.send_eof()
        self.thread.join(TIMEOUT)


Spawn = Callable[..., Session]


def _spawner(kind: type[Session]) -> Iterator[Spawn]:
    sessions: list[Session] = []

    def start(*args: str, timeout: float = TIMEOUT) -> Session:
        session = kind(args, timeout)
        sessions.append(session)
        return session

    yield start
    for session in sessions:
        session.kill()


@pytest.fixture
def spawn() -> Iterator[Spawn]:
    """``spawn(*args, timeout=...)`` runs ``bullscows ARGS`` in this process (``InProcess``).

    Every command started is ended at the end of the test, so a hung game cannot outlive it.
    """
    yield from _spawner(InProcess)


@pytest.fixture
def terminal() -> Iterator[Spawn]:
    """``terminal(*args, timeout=...)`` starts the real ``bullscows`` console script in a
    pseudo-terminal (``Session``); every process started is killed at the end of the test."""
    yield from _spawner(Session)


# --- independent arithmetic -------------------------------------------------------------------


def bulls_cows(secret: str, guess: str) -> tuple[int, int]:
    """Bulls and cows by the textbook definition (repeats counted by multiset intersection)."""
    bulls = sum(s == g for s, g in zip(secret, guess, strict=True))
    shared = sum((Counter(secret) & Counter(guess)).values())
    return bulls, shared - bulls


def all_codes(rules: Rules) -> list[str]:
    """Every code of the variant, by brute force, in the variant's (alphabet) order."""
    columns = [rules.allowed_at(i) for i in range(rules.length)]
    codes = ("".join(symbols) for symbols in itertools.product(*columns))
    return [c for c in codes if rules.repeats or len(set(c)) == len(c)]


def still_possible(rules: Rules, history: Sequence[tuple[str, tuple[int, int]]]) -> list[str]:
    """The codes that give every reply of ``history`` (pairs of guess text and bulls/cows)."""
    return [
        code
        for code in all_codes(rules)
        if all(bulls_cows(code, guess) == reply for guess, reply in history)
    ]


def narrow(candidates: Sequence[str], guess: str, reply: tuple[int, int]) -> list[str]:
    """The candidates that give ``reply`` to ``guess``."""
    return [code for code in candidates if bulls_cows(code, guess) == reply]


def reply(secret: str, guess: str, rules: Rules) -> tuple[int, int]:
    """The reply the library gives (checked against the textbook definition)."""
    feedback = score(Code(secret, rules), Code(guess, rules))
    expected = bulls_cows(secret, guess)
    assert (feedback.bulls, feedback.cows) == expected, (secret, guess, feedback)
    return expected


def words(bulls: int, cows: int) -> str:
    """A reply as the default 'words' style prints it: '1 bull, 2 cows'."""
    return f"{bulls} bull{'s' if bulls != 1 else ''}, {cows} cow{'s' if cows != 1 else ''}"


def is_code(text: str, rules: Rules) -> bool:
    try:
        Code(text, rules)
    except ValueError:
        return False
    return True
