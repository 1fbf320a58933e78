"""A Dask cluster as an executor: its scheduler's address checked and reached
(``dask_client``), its tasks as ``concurrent.futures`` futures (``DaskTasks``), and the word
its workers send on their tasks' work (``TOPIC``, ``dask_task``). ``executors.make_executor``
makes one for ``--scheduler``; Dask itself is imported only when a cluster is used.

>>> scheduler_address("tcp://[::1]:8786")
('::1', 8786)
"""

from __future__ import annotations

import asyncio
import re
import socket
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

from bullscows.errors import BullsCowsError
from bullscows.readers import quote

T = TypeVar("T")
#: Seconds to wait for a Dask scheduler to answer.
SCHEDULER_TIMEOUT = 10.0
#: What a Dask scheduler's address looks like, said with each address refused.
ADDRESS_HELP = "give tcp://HOST:PORT of a running Dask scheduler, e.g. tcp://127.0.0.1:8786"
#: The schemes of Dask's addresses that reach another machine.
SCHEMES = ("tcp", "tls", "ws", "wss")
_ADDRESS = re.compile(r"(?:(?P<scheme>\w+)://)?(?P<host>\[[\w:.%]+\]|[\w.-]+)(?::(?P<port>\d*))?")


def scheduler_address(text: str) -> tuple[str, int] | None:
    """The host and port of the Dask scheduler address ``text``, ``[SCHEME://]HOST:PORT``
    (``None`` for ``inproc://...``, a scheduler in this process); else an error that quotes
    it and says what an address looks like.

    >>> scheduler_address("tcp://10.0.0.7:8786")
    ('10.0.0.7', 8786)
    >>> scheduler_address("tcp://host")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: scheduler 'tcp://host': no port; give tcp://HOST:PORT of ...
    """
    if text.startswith("inproc://"):
        return None
    found = _ADDRESS.fullmatch(text.strip())
    scheme = found and found["scheme"]
    if found is None:
        problem = "not an address"
    elif scheme is not None and scheme not in SCHEMES:
        problem = f"the scheme {quote(scheme)} is not one of {', '.join(SCHEMES)}"
    elif not found["port"]:
        problem = "no port"
    elif len(found["port"]) > 5 or not 1 <= int(found["port"]) <= 65535:
        problem = f"the port {quote(found['port'])} is not one of 1 to 65535"
    else:
        return found["host"].strip("[]"), int(found["port"])
    raise BullsCowsError(f"scheduler {quote(text)}: {problem}; {ADDRESS_HELP}")


def dask_client(address: str) -> Any:
    """A Dask client of the scheduler at ``address``, or an error that quotes the address
    and says why none was had: not an address, nothing listening, no answer in time (a
    scheduler is asked who it is first: Dask's client waits for ever on a silent one)."""
    reached = scheduler_address(address)
    if reached is not None:
        _listening(address, *reached)
    try:
        from dask.distributed import Client as connect
    except ImportError:
        raise BullsCowsError(
            f"scheduler {quote(address)}: Dask is not installed (pip install 'dask[distributed]')"
        ) from None
    if reached is not None:
        try:
            identity = asyncio.run(_identity(address.strip()))
        except (OSError, ValueError, TypeError) as error:
            raise _unreached(address, error) from None
        if identity != "Scheduler":
            raise BullsCowsError(
                f"scheduler {quote(address)}: what answers there is no Dask scheduler; "
                f"{ADDRESS_HELP}"
            )
    client: Any = connect  # distributed has no type hints
    try:
        return client(address.strip(), timeout=f"{SCHEDULER_TIMEOUT}s")
    except (OSError, ValueError, TypeError) as error:
        raise _unreached(address, error) from None


def _listening(address: str, host: str, port: int) -> None:
    """Refuse an address where nothing listens at once (Dask tries it again and again until
    it gives up), or one whose host has no address."""
    try:
        socket.create_connection((host, port), timeout=SCHEDULER_TIMEOUT).close()
    except socket.gaierror:
        raise BullsCowsError(
            f"scheduler {quote(address)}: no host is named {quote(host)}; {ADDRESS_HELP}"
        ) from None
    except TimeoutError:
        raise _unanswered(address) from None
    except OSError as error:
        raise BullsCowsError(
            f"scheduler {quote(address)}: nothing listens there ({error.strerror or error}); "
            f"{ADDRESS_HELP}"
        ) from None


async def _identity(address: str) -> object:
    """What the Dask server at ``address`` says it is (``'Scheduler'``), within
    ``SCHEDULER_TIMEOUT`` seconds, asked as a client asks (TLS as Dask's configuration says)."""
    from distributed.comm.core import connect
    from distributed.core import send_recv
    from distributed.security import Security

    async def ask() -> object:
        reach: Any = connect  # distributed has no type hints
        security: Any = Security
        secure = security().get_connection_args("client")
        comm = await reach(address, timeout=SCHEDULER_TIMEOUT, **secure)
        try:
            answer = await send_recv(comm, op="identity")
        finally:
            await comm.close()
        return answer.get("type") if isinstance(answer, dict) else None

    return await asyncio.wait_for(ask(), SCHEDULER_TIMEOUT)


def _unanswered(address: str) -> BullsCowsError:
    return BullsCowsError(
        f"scheduler {quote(address)}: no Dask scheduler answered there within "
        f"{SCHEDULER_TIMEOUT:g} s; {ADDRESS_HELP}"
    )


def _unreached(address: str, error: Exception) -> BullsCowsError:
    """The error to raise when asking the scheduler at ``address`` failed with ``error``."""
    if isinstance(error, TimeoutError) or "Timed out" in str(error):
        return _unanswered(address)
    return BullsCowsError(f"cannot reach the Dask scheduler {quote(address)}: {error}")


class DaskTasks(Executor):
    """A Dask client's tasks as ``concurrent.futures`` futures, as ``client.get_executor()``
    gives them, but quiet: cancelling a future cancels its Dask task (a worker stops it,
    ``search.worker.Listener``) without the error that distributed's own executor logs, with
    its traceback, when a task is cancelled as it ends. ``counted`` reads the work done so
    far by the tasks under way, as their workers tell it (``search.worker.Listener``, every
    ``TELL_EVERY`` seconds). Each Dask future is released as its future ends (``shutdown``:
    those left are cancelled), not left to its finalizer, which would run after the client
    closed, or swallow a Ctrl-C come while it runs."""

    def __init__(self, client: Any) -> None:
        self._client = client  # what ``workers`` asks
        self._lock = threading.Lock()
        self._running: dict[Future[Any], Any] = {}  # each task under way: its Dask future
        self._told: dict[str, int] = {}  # each task's work, as its worker last told it
        client.subscribe_topic(TOPIC, self._hear)  # heard on Dask's thread

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        task = self._client.submit(fn, *args, **kwargs)
        future: Future[T] = Future()
        with self._lock:
            self._running[future] = task
        future.add_done_callback(self._ended)
        task.add_done_callback(lambda ended: self._settle(ended, future))  # on Dask's thread
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """With ``cancel_futures``, cancel the tasks not ended (their Dask tasks too); then
        hear the workers no more, so that the scheduler sends nothing to a client closing (it
        logs each such word as critical). The client is its owner's to close."""
        if cancel_futures:
            with self._lock:
                left = list(self._running)
            for future in left:
                future.cancel()
        self._client.unsubscribe_topic(TOPIC)

    def counted(self) -> int:
        """The work done so far by the tasks under way, as their workers last told it."""
        with self._lock:
            return sum(self._told.get(key, 0) for key in self._keys())

    def _keys(self) -> list[str]:
        """The Dask keys of the tasks under way (one for each, some the same); under the lock."""
        return [str(task.key) for task in self._running.values()]

    def _hear(self, event: tuple[float, Any]) -> None:
        """A worker's word on the work of its tasks under way (``search.worker.Listener``)."""
        told = event[1].get("work", {}) if isinstance(event[1], dict) else {}
        with self._lock:
            running = set(self._keys())
            for key, work in told.items():
                if key in running and isinstance(work, int) and work > self._told.get(key, -1):
                    self._told[key] = work

    def _ended(self, future: Future[Any]) -> None:
        """``future`` ended or was cancelled: its Dask task is cancelled (if so) and released."""
        with self._lock:
            task = self._running.pop(future, None)
            if task is not None and str(task.key) not in self._keys():
                self._told.pop(str(task.key), None)
        if task is not None:
            if future.cancelled():
                task.cancel()
            task.release()

    @staticmethod
    def _settle(task: Any, future: Future[Any]) -> None:
        """Pass a Dask task's outcome to its future (unless that was cancelled)."""
        if not future.set_running_or_notify_cancel():
            return
        try:
            future.set_result(task.result())
        except BaseException as error:  # the task's error, or its cancellation
            future.set_exception(error)


#: The Dask topic on which workers tell the work of their tasks under way
#: (``search.worker.Listener``).
TOPIC = "bullscows-work"
#: Seconds between two words of a Dask worker on the work of its tasks under way.
TELL_EVERY = 0.2


def dask_task() -> tuple[Any, Any] | None:
    """The Dask worker whose task this thread runs, and the task's key; ``None`` if it runs
    none (Dask, if not imported, runs none here)."""
    if "distributed" not in sys.modules:
        return None
    from distributed import get_worker

    try:
        worker = get_worker()
        return worker, worker.get_current_task()
    except (ValueError, KeyError):  # not in a task of a worker
        return None
