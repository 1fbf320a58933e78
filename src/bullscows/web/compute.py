"""Computations a request starts (analysis, hints, trees, bench, checks of uploads) under a
budget: cheap ones run on the request's thread as any request does; the others run each in a
process of its own, at most ``Limits.pool`` at once, killed when its time is spent or its
client leaves. Moves keep flowing meanwhile: the event loop never waits for them.

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

import multiprocessing
import multiprocessing.forkserver
import os
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, Protocol, TypeVar

import anyio.from_thread

from bullscows.errors import BullsCowsError

T = TypeVar("T")
#: Work (pairs of codes scored, about) done on a request's thread; more goes to a process.
INLINE_WORK = 30_000_000
#: The work counted for an optimal strategy's search, whatever its size: always in a process.
SEARCH_WORK = 10**15
#: How much lower a computation's process runs than the server's (``os.nice``).
NICE = 19
#: How often a computation's client is asked whether it is still there (seconds).
CHECK_EVERY = 0.1
#: What the processes load once, before any computation forks from them.
PRELOAD = ["bullscows.web.common", "bullscows.web.explorer", "bullscows.web.benching",
           "bullscows.analysis"]  # fmt: skip


class TooLarge(BullsCowsError):
    """A computation beyond what the server gives one request (422)."""


class Busy(BullsCowsError):
    """Every place for computations stayed taken (503)."""


class Gone(BullsCowsError):
    """The client left before its computation ended (nobody reads the answer)."""


class Client(Protocol):
    async def is_disconnected(self) -> bool: ...


class Pool:
    """At most ``size`` computations at once, each given ``seconds``; those of at most
    ``inline_work`` run on the caller's thread. Called from a request's thread (never the
    event loop), which waits while the process works."""

    def __init__(self, size: int = 2, seconds: float = 10.0, inline_work: float = INLINE_WORK
                 ) -> None:  # fmt: skip
        self.size, self.seconds, self.inline_work = size, seconds, inline_work
        self._places = threading.BoundedSemaphore(size)
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(PRELOAD)
        #: Computations running in a process now, started so far, and stopped (out of time,
        #: client gone).
        self.counts = {"running": 0, "started": 0, "stopped": 0}

    def warm(self) -> None:
        """Start the process that computations fork from, so the first waits for nothing."""
        multiprocessing.forkserver.ensure_running()

    def inline(self, work: int) -> bool:
        """Whether a computation of ``work`` runs on the request's own thread."""
        return work <= self.inline_work

    def call(self, client: Client | None, work: int, function: Callable[..., T], *args: Any,
             command: str) -> T:  # fmt: skip
        """``function(*args)``: here if ``work`` is at most ``INLINE_WORK``, else in a process
        of its own within the budget; ``command`` is what the person may run instead."""
        if self.inline(work):
            return function(*args)
        deadline = time.monotonic() + self.seconds
        if not self._places.acquire(timeout=self.seconds):
            raise Busy(
                f"the server is busy with {self.size} other long computations; try again in a "
                f"minute, or run it yourself: {command}"
            )
        try:
            return self._in_process(client, deadline, function, args, command)
        finally:
            self._places.release()

    def _in_process(self, client: Client | None, deadline: float, function: Callable[..., T],
                    args: tuple[Any, ...], command: str) -> T:  # fmt: skip
        answer, sender = self._context.Pipe(duplex=False)
        process = self._context.Process(target=_child, args=(sender, function, args),
                                        daemon=True)  # fmt: skip
        process.start()
        sender.close()
        self._count(running=1, started=1)
        try:
            while not answer.poll(CHECK_EVERY):
                if time.monotonic() > deadline:
                    raise TooLarge(
                        f"too large for the server: it gives one request {self.seconds:g} s; "
                        f"run it yourself with: {command}"
                    )
                if client is not None and _gone(client):
                    raise Gone("the client left; its computation was stopped")
            failed, value = _receive(answer)
        except BaseException:
            self._count(stopped=1)
            raise
        finally:
            if process.is_alive():
                process.kill()
            process.join(30)
            answer.close()
            self._count(running=-1)
        if failed:
            raise value
        result: T = value
        return result

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


def _child(sender: Connection, function: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """In the computation's process, at the lowest priority so that moves come first: the
    result, or the person's error, sent back."""
    os.nice(NICE)
    try:
        result: tuple[bool, Any] = (False, function(*args))
    except BullsCowsError as error:
        result = (True, error)
    sender.send(result)
    sender.close()
