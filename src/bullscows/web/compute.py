"""Computations a request starts (analysis, hints, trees, bench, checks of uploads) under a
budget: cheap ones run on the request's thread as any request does, stopped (``OutOfTime``
raised in the thread) if they outlast it all the same; the others run each in a process of
its own, at most ``Limits.pool`` at once, killed when its time is spent or its client leaves.
Moves keep flowing meanwhile: the event loop never waits for them.

A computation that runs out of time is answered ``TooLarge`` (422) with the command that runs
it on the person's own machine; one that finds every place taken for as long as its budget
is answered ``Busy`` (503).

>>> pool = Pool(size=1, seconds=60)
>>> pool.call(None, 10**12, divmod, 7, 2, command="python -c 'print(divmod(7, 2))'")
(3, 1)
>>> pool.counts
{'running': 0, 'started': 1, 'stopped': 0}
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import multiprocessing.forkserver
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from typing import Any, Protocol, TypeVar

import anyio.from_thread

from bullscows.errors import BullsCowsError
from bullscows.web.gate import Gate

T = TypeVar("T")
#: Work (pairs of codes scored, about) done on a request's thread; more goes to a process.
INLINE_WORK = 30_000_000
#: The work counted for an optimal strategy's search, whatever its size: always in a process.
SEARCH_WORK = 10**15
#: How much lower a computation's process runs than the server's (``os.nice``).
NICE = 19
#: How often a computation's client is asked whether it is still there (seconds).
CHECK_EVERY = 0.1
#: A computation paused for moves is stopped all the same once this many times its budget
#: has passed since it started.
PATIENCE = 3
#: Requests of one server process that may wait for a place; more are answered 503 at once.
WAITING = 8
#: What the processes load once, before any computation forks from them.
PRELOAD = ["bullscows.web.common", "bullscows.web.explorer", "bullscows.web.benching",
           "bullscows.analysis", "bullscows.web.warmed"]  # fmt: skip


class TooLarge(BullsCowsError):
    """A computation beyond what the server gives one request (422)."""


class Busy(BullsCowsError):
    """Every place for computations stayed taken (503)."""


class Gone(BullsCowsError):
    """The client left before its computation ended (nobody reads the answer)."""


class OutOfTime(BaseException):
    """Raised by ``Watchdog`` in a thread whose computation outlived its time (a
    ``BaseException``, so that no ``except Exception`` on the way swallows it)."""


class Watchdog:
    """One thread that stops computations running on requests' own threads: when one outlives
    its deadline, ``OutOfTime`` is raised in its thread (at its next Python instruction: a
    compiled kernel under way ends first, and a kernel's call here is bounded by
    ``INLINE_WORK``).

    >>> with WATCHDOG.limit(0.05):
    ...     while True:
    ...         time.sleep(0.01)
    Traceback (most recent call last):
    ...
    bullscows.web.compute.OutOfTime
    """

    def __init__(self) -> None:
        self._due: dict[int, float] = {}  # thread id: deadline
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._wakes_at = 0.0  # woken earlier only for an earlier deadline (a thread switch)

    @contextlib.contextmanager
    def limit(self, seconds: float) -> Iterator[None]:
        """The block, stopped by ``OutOfTime`` once it has run ``seconds``."""
        ident = threading.get_ident()
        with self._wake:
            self._due[ident] = due = time.monotonic() + seconds
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, daemon=True,
                                                name="bullscows-watchdog")  # fmt: skip
                self._thread.start()
            elif due < self._wakes_at:
                self._wake.notify()
        try:
            yield
        finally:
            with self._wake:
                if self._due.pop(ident, None) is None:  # raised at the very end: withdrawn
                    _raise_in(ident, None)

    def _watch(self) -> None:
        with self._wake:
            while True:
                now = time.monotonic()
                for ident, due in list(self._due.items()):
                    if due <= now:
                        del self._due[ident]
                        _raise_in(ident, OutOfTime)
                self._wakes_at = min(self._due.values(), default=now + 1.0)
                self._wake.wait(max(self._wakes_at - now, 0.001))


def _raise_in(ident: int, error: type[BaseException] | None) -> None:
    """Raise ``error`` in thread ``ident`` at its next instruction (``None``: withdraw it)."""
    exception = None if error is None else ctypes.py_object(error)  # None: NULL
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), exception)


WATCHDOG = Watchdog()


class Client(Protocol):
    async def is_disconnected(self) -> bool: ...


class Pool:
    """At most ``size`` computations at once in processes of their own, for all the processes
    of the server on ``database`` (``gate.Gate``: one fewer than the cores by default), each
    given ``seconds`` of running time; those of at most ``inline_work`` run on the caller's
    thread. Called from a request's thread (never the event loop), which waits while the
    process works."""

    def __init__(self, size: int | None = None, seconds: float = 10.0,
                 inline_work: float = INLINE_WORK, database: str | None = None
                 ) -> None:  # fmt: skip
        self.seconds, self.inline_work = seconds, inline_work
        self._size, self._database = size, database
        self._gate: Gate | None = None
        self._making = threading.Lock()  # held while the gate is made
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(PRELOAD)
        #: Computations running in a process now, started so far, and stopped (out of time,
        #: client gone).
        self.counts = {"running": 0, "started": 0, "stopped": 0}

    @property
    def gate(self) -> Gate:
        """The places and pauses shared with the server's other processes (made on first
        use)."""
        with self._making:
            if self._gate is None:
                self._gate = Gate(self._database, self._size)
            return self._gate

    def warm(self) -> None:
        """Start the process that computations fork from (unless it runs), so the first waits
        for nothing. Called on the main thread (the server's start), it starts ignoring
        Ctrl-C: a Ctrl-C meant for the server, sent to every process of its job, would else
        interrupt its loading of the library with a traceback (loaded, it ignores Ctrl-C
        anyway; its computations are killed by the pool)."""
        if threading.current_thread() is not threading.main_thread():
            multiprocessing.forkserver.ensure_running()
            return
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # inherited; a mask is not
        try:
            multiprocessing.forkserver.ensure_running()
        finally:
            signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)

    def inline(self, work: int) -> bool:
        """Whether a computation of ``work`` runs on the request's own thread."""
        return work <= self.inline_work

    @contextlib.contextmanager
    def timed(self, command: str, seconds: float | None = None) -> Iterator[None]:
        """The block (a computation on the request's own thread) within ``seconds`` (``None``:
        the pool's), else ``TooLarge`` with ``command``, what the person may run instead."""
        seconds = self.seconds if seconds is None else seconds
        if seconds == float("inf"):
            yield
            return
        try:
            with WATCHDOG.limit(seconds):
                yield
        except OutOfTime:
            self._count(stopped=1)
            raise self._too_large(command, seconds) from None

    def call(self, client: Client | None, work: int, function: Callable[..., T], *args: Any,
             command: str, seconds: float | None = None) -> T:  # fmt: skip
        """``function(*args)``: here if ``work`` is at most ``INLINE_WORK``, else in a process
        of its own once a place is free, within ``seconds`` of running time either way
        (``None``: the pool's); ``command`` is what the person may run instead."""
        seconds = self.seconds if seconds is None else seconds
        if self.inline(work):
            with self.timed(command, seconds):
                return function(*args)
        gate = self.gate
        busy = Busy(f"the server is busy with {gate.places} other long computation"
                    f"{'s' * (gate.places > 1)}; try again in a minute, or run it yourself: "
                    f"{command}")  # fmt: skip
        if gate.waiting >= WAITING:
            raise busy
        with gate.aside():  # the request waits: computations need not pause for it
            place = gate.take(self.seconds, lambda: client is not None and _gone(client))
            if place is None:
                if client is not None and _gone(client):
                    raise Gone("the client left; its computation was never started")
                raise busy
            try:
                return self._in_process(client, place, function, args, command, seconds)
            finally:
                gate.free(place)

    def _in_process(self, client: Client | None, place: int, function: Callable[..., T],
                    args: tuple[Any, ...], command: str, seconds: float) -> T:  # fmt: skip
        answer, sender = self._context.Pipe(duplex=False)
        ready, go = self._context.Pipe(duplex=False)
        process = self._context.Process(target=_child, args=(sender, ready, function, args),
                                        daemon=True)  # fmt: skip
        process.start()
        sender.close()
        ready.close()
        gate, start = self.gate, time.monotonic()
        gate.start(place, process.pid or 0)  # paused now if requests are being answered,
        with contextlib.suppress(OSError):  # then let go: it never runs before
            go.send_bytes(b"go")
        go.close()
        self._count(running=1, started=1)
        try:
            while not answer.poll(CHECK_EVERY):
                elapsed = time.monotonic() - start
                if elapsed - gate.paused(place) > seconds or elapsed > PATIENCE * seconds:
                    raise self._too_large(command, seconds)
                if client is not None and _gone(client):
                    raise Gone("the client left; its computation was stopped")
            failed, value = _receive(answer)
        except BaseException:
            self._count(stopped=1)
            raise
        finally:
            gate.end(place)  # signalled no more: then killed and reaped
            if process.is_alive():
                process.kill()
            process.join(30)
            answer.close()
            self._count(running=-1)
        if failed:
            raise value
        result: T = value
        return result

    def _too_large(self, command: str, seconds: float) -> TooLarge:
        return TooLarge(f"too large for the server: it gives one request {seconds:g} s; "
                        f"run it yourself with: {command}")  # fmt: skip

    def _count(self, **changes: int) -> None:
        with _counting:
            for key, change in changes.items():
                self.counts[key] += change


_counting = threading.Lock()
#: A pool that runs everything on the caller's thread (calls from outside a server).
INLINE = Pool(size=1, seconds=float("inf"), inline_work=float("inf"))


def _gone(client: Client) -> bool:
    """Whether the client of the request this thread serves has left."""
    try:
        return bool(anyio.from_thread.run(client.is_disconnected))
    except RuntimeError:  # not a thread of the event loop's pool: nobody to ask
        return False


def _receive(answer: Connection) -> tuple[bool, Any]:
    try:
        found: tuple[bool, Any] = answer.recv()
    except EOFError:  # the process died without a word (killed, out of memory)
        return True, BullsCowsError("the computation's process died; try again later")
    return found


def _child(sender: Connection, ready: Connection, function: Callable[..., Any],
           args: tuple[Any, ...]) -> None:  # fmt: skip
    """In the computation's process, at the lowest priority so that moves come first (Linux's
    idle class: a core only when nothing else wants it; else ``NICE``), once the gate knows
    it (``ready``): the result, or the person's error, sent back."""
    os.nice(NICE)
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    try:
        ready.recv_bytes()
    except EOFError:  # nobody waits for it
        return
    try:
        result: tuple[bool, Any] = (False, function(*args))
    except BullsCowsError as error:
        result = (True, error)
    sender.send(result)
    sender.close()
