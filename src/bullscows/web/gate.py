"""What the processes of one server share about its long computations: at most ``places`` run
at once, and each is paused (``SIGSTOP``) while any request is being answered and resumed
(``SIGCONT``) when none is, so that moves never share the cores with a computation. The time
a computation spends paused is not counted against its budget.

The processes (a server's workers, and any server on the same database on this machine)
share one small file mapped into memory: beside a SQLite file (``<database>-gate``), else in
the temporary folder, named after the database. It holds a seat per process (the requests it
is answering now) and a place per computation (its process id, how long it was paused).
Each seat and place is held by a POSIX lock of a byte of the file, which the kernel releases
when its process ends, however it ends. The last process to close its gate removes the file
(one killed leaves it, for the next server on the database to use and remove).

>>> gate = Gate(None, places=1)
>>> gate.enter(); gate.busy()
1
>>> gate.leave(); gate.busy()
0
"""

from __future__ import annotations

import contextlib
import contextvars
import fcntl
import hashlib
import mmap
import os
import signal
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path

from bullscows.web.storage import sqlite_path

#: Seats (processes) and places (computations at once) a gate's file has room for.
SEATS, PLACES = 256, 64
#: Where each value is in the file's array of 64-bit integers (the first is unused): the
#: requests each seat answers now and its process, each place's process, when it was paused
#: (ns, 0 if running) and how long it had been paused before (ns).
COUNTS = 1
SEAT_PIDS = COUNTS + SEATS
PIDS = SEAT_PIDS + SEATS
SINCE = PIDS + PLACES
PAUSED = SINCE + PLACES
SIZE = 8 * (PAUSED + PLACES)
#: The bytes locked: the gate itself (while a pause is decided), each seat, each place.
GATE_BYTE, SEAT_BYTE, PLACE_BYTE = 0, 1, 1 + SEATS
#: How often a request waiting for a place looks again (seconds).
LOOK_EVERY = 0.1
#: Whether the request this thread serves is counted by a gate (set by ``Gate.counted``).
COUNTED: contextvars.ContextVar[Gate | None] = contextvars.ContextVar("counted", default=None)


#: The CPU quota of the process's control group (cgroup v2), as containers set it.
CPU_MAX = Path("/sys/fs/cgroup/cpu.max")


def cores() -> int:
    """The cores this process may use: those it may run on, at most its control group's CPU
    quota (rounded up)."""
    found = len(os.sched_getaffinity(0))
    with contextlib.suppress(OSError, ValueError):
        quota, period = CPU_MAX.read_text().split()
        if quota != "max":
            found = min(found, max(1, -(-int(quota) // int(period))))
    return found


def default_places() -> int:
    """Computations at once by default: one fewer than the cores this process may use (at
    least one), so that one core is always left to the moves."""
    return max(1, cores() - 1)


def gate_path(database: str | None) -> Path | None:
    """The file a gate shares for ``database``: ``<file>-gate`` beside a SQLite file, else one
    in the temporary folder named after the URL; ``None`` for an in-memory database (the gate
    is then this process's own)."""
    if database is None:
        return None
    if database.startswith("sqlite"):
        found = sqlite_path(database)
        return None if found is None else found.with_name(found.name + "-gate")
    folder = Path(tempfile.gettempdir()) / f"bullscows-{os.getuid()}"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder / f"gate-{hashlib.sha256(database.encode()).hexdigest()[:24]}"


class Shared:
    """A gate's file as one process holds it: one descriptor (POSIX locks are the process's,
    and closing any descriptor of the file would drop them all), its values, and a lock for
    this process's threads."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        if path is None:
            self.fd, name = tempfile.mkstemp(prefix="bullscows-gate-")
            os.unlink(name)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        weakref.finalize(self, os.close, self.fd)  # once no gate of this process uses it
        if os.fstat(self.fd).st_size < SIZE:
            os.ftruncate(self.fd, SIZE)
        self.values = memoryview(mmap.mmap(self.fd, SIZE)).cast("q")
        self.mutex = threading.RLock()
        self.held: set[int] = set()  # the bytes this process holds

    def current(self) -> bool:
        """Whether this is the file at its path still (its last process may have removed it
        since this one opened it: see ``Gate.close``); call with the gate held."""
        if self.path is None:
            return True
        try:
            found = os.stat(self.path)
        except FileNotFoundError:
            return False
        opened = os.fstat(self.fd)
        return (found.st_dev, found.st_ino) == (opened.st_dev, opened.st_ino)

    def alone(self) -> bool:
        """Whether no process holds a seat, this one included; call with the gate held."""
        if self.held:
            return False
        try:
            fcntl.lockf(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB, SEATS, SEAT_BYTE)
        except OSError:
            return False
        fcntl.lockf(self.fd, fcntl.LOCK_UN, SEATS, SEAT_BYTE)
        return True

    def hold(self, byte: int) -> bool:
        """Lock ``byte`` for this process if it is free; whether it did."""
        with self.mutex:
            if byte in self.held:
                return False
            try:
                fcntl.lockf(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, byte)
            except OSError:
                return False
            self.held.add(byte)
            return True

    def free(self, byte: int) -> None:
        with self.mutex:
            self.held.discard(byte)
            fcntl.lockf(self.fd, fcntl.LOCK_UN, 1, byte)

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """The gate held: by this thread among this process's, and by this process."""
        with self.mutex:
            fcntl.lockf(self.fd, fcntl.LOCK_EX, 1, GATE_BYTE)
            try:
                yield
            finally:
                fcntl.lockf(self.fd, fcntl.LOCK_UN, 1, GATE_BYTE)


_opened: dict[Path, Shared] = {}
_opening = threading.Lock()


def _shared(path: Path | None) -> Shared:
    if path is None:
        return Shared(None)
    with _opening:
        if path not in _opened:
            _opened[path] = Shared(path)
        return _opened[path]


def _forget(shared: Shared) -> None:
    """``shared``'s file is removed: this process opens the next one anew (a gate still
    holding ``shared`` keeps its memory, shared with nobody, until it is dropped)."""
    with _opening:
        if shared.path is not None and _opened.get(shared.path) is shared:
            del _opened[shared.path]


class Gate:
    """The computations of one server, shared by its processes (see the module): their places,
    and their pauses while requests are answered."""

    def __init__(self, database: str | None, places: int | None = None) -> None:
        self.places = min(places or default_places(), PLACES)
        path = gate_path(database)
        while True:  # a seat in the file at the path, not in one its last process removed
            self._shared = _shared(path)
            with self._shared.locked():
                if self._shared.current():
                    self._seat = self._claim()
                    break
            _forget(self._shared)
        self.waiting = 0  # this process's requests waiting for a place
        self._closed = False

    def _claim(self) -> int:
        shared = self._shared
        for seat in range(SEATS):
            if shared.hold(SEAT_BYTE + seat):
                shared.values[COUNTS + seat] = 0
                shared.values[SEAT_PIDS + seat] = os.getpid()
                return seat
        raise OSError(f"more than {SEATS} processes share one server's computations")

    def close(self) -> None:
        """Give this gate's seat back (its process goes on; once only); the last seat given
        back removes the file."""
        shared = self._shared
        if self._closed:
            return
        self._closed = True
        shared.values[COUNTS + self._seat] = 0
        with shared.locked():
            shared.free(SEAT_BYTE + self._seat)
            path, last = shared.path, False
            if path is not None and shared.current() and shared.alone():
                path.unlink(missing_ok=True)
                last = True
        if last:
            _forget(shared)

    # --- requests ---------------------------------------------------------------------------

    def enter(self) -> None:
        """A request is being answered: running computations are paused."""
        self._change(1)

    def leave(self) -> None:
        """A request is answered: computations resume if no other request is being answered."""
        self._change(-1)

    def _change(self, by: int) -> None:
        shared, values = self._shared, self._shared.values
        with shared.mutex:
            values[COUNTS + self._seat] += by
            if not any(values[PIDS : PIDS + PLACES]):  # no computation running
                return
            with shared.locked():
                if by > 0:
                    self._pause()
                elif not self.busy():
                    self._resume()

    @contextlib.contextmanager
    def counted(self) -> Iterator[None]:
        """The block answers a request (``enter`` ... ``leave``)."""
        self.enter()
        token = COUNTED.set(self)
        try:
            yield
        finally:
            COUNTED.reset(token)
            self.leave()

    @contextlib.contextmanager
    def aside(self) -> Iterator[None]:
        """The block, a request waiting for a computation, not counted as being answered (it
        would pause its own computation); nothing changes outside a counted request."""
        if COUNTED.get() is not self:
            yield
            return
        self.leave()
        try:
            yield
        finally:
            self.enter()

    def busy(self) -> int:
        """Requests being answered now by the processes sharing this gate (a process that
        died without a word is not counted)."""
        values = self._shared.values
        total = sum(values[COUNTS : COUNTS + SEATS])
        if total == values[COUNTS + self._seat]:
            return total
        for seat in range(SEATS):  # are the others alive?
            count = values[COUNTS + seat]
            if count and seat != self._seat and not _alive(values[SEAT_PIDS + seat]):
                values[COUNTS + seat] = 0
                total -= count
        return total

    # --- computations -----------------------------------------------------------------------

    def take(self, seconds: float, gone: Callable[[], bool]) -> int | None:
        """A free place, waiting for one up to ``seconds`` (or until ``gone()``); ``None`` if
        none came free."""
        deadline = time.monotonic() + seconds
        with self._shared.mutex:
            self.waiting += 1
        try:
            while True:
                for place in range(self.places):
                    if self._shared.hold(PLACE_BYTE + place):
                        return place
                if time.monotonic() > deadline or gone():
                    return None
                time.sleep(LOOK_EVERY)
        finally:
            with self._shared.mutex:
                self.waiting -= 1

    def start(self, place: int, pid: int) -> None:
        """Process ``pid`` computes in ``place`` (held): paused at once if requests are being
        answered."""
        values = self._shared.values
        with self._shared.locked():
            values[PIDS + place], values[SINCE + place], values[PAUSED + place] = pid, 0, 0
            if self.busy():
                self._pause()

    def end(self, place: int) -> None:
        """The computation in ``place`` is over (its process about to be killed and reaped):
        nobody signals it any more."""
        values = self._shared.values
        with self._shared.locked():
            values[PIDS + place] = values[SINCE + place] = 0

    def free(self, place: int) -> None:
        """``place`` free again (its process reaped)."""
        self._shared.free(PLACE_BYTE + place)

    def computing(self) -> list[tuple[int, bool]]:
        """The computations running now, in every process of the server: each one's process
        id, and whether it is paused."""
        values = self._shared.values
        with self._shared.locked():
            return [(values[PIDS + place], bool(values[SINCE + place]))
                    for place in range(PLACES) if values[PIDS + place]]  # fmt: skip

    def paused(self, place: int) -> float:
        """Seconds the computation in ``place`` has been paused so far; one paused while no
        request is answered (a pause that raced with a request's end) is resumed."""
        values = self._shared.values
        with self._shared.locked():
            if values[SINCE + place] and not self.busy():
                self._resume()
            since = values[SINCE + place]
            return (values[PAUSED + place] + (time.monotonic_ns() - since if since else 0)) / 1e9

    def _pause(self) -> None:
        values, now = self._shared.values, time.monotonic_ns()
        for place in range(PLACES):
            if values[PIDS + place] and not values[SINCE + place]:
                _signal(values[PIDS + place], signal.SIGSTOP)
                values[SINCE + place] = now

    def _resume(self) -> None:
        values, now = self._shared.values, time.monotonic_ns()
        for place in range(PLACES):
            if values[PIDS + place] and values[SINCE + place]:
                _signal(values[PIDS + place], signal.SIGCONT)
                values[PAUSED + place] += now - values[SINCE + place]
                values[SINCE + place] = 0


def _signal(pid: int, sent: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, sent)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
