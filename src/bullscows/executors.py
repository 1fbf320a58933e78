"""Where work runs: in this process, on its threads, in local processes, or on a Dask cluster.

Both the benchmark and the optimal search split their work into independent tasks (a
function and its arguments) and hand them to a ``concurrent.futures.Executor``; results do
not depend on which executor ran them. Tasks that spend their time in compiled code that
releases the GIL (the optimal search's) run on threads of this process (``Threads``), which
start at once; the others (the benchmark's strategies, much of them Python) on processes.

>>> with make_executor(None, 1, None) as pool:
...     sorted(run_tasks([(abs, (-2,)), (abs, (3,))], pool))
[(0, 2), (1, 3)]
"""

from __future__ import annotations

import heapq
import itertools
import os
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, as_completed
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import numpy.typing as npt

from bullscows.dask_tasks import DaskTasks, dask_client
from bullscows.errors import BullsCowsError
from bullscows.feedback import counted

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

T = TypeVar("T")


@contextmanager
def make_executor(
    given: Executor | None, jobs: int, scheduler: str | None, threads: bool = False
) -> Iterator[Executor | None]:
    """The executor to use: for ``jobs > 1``, that many ``Threads`` if ``threads`` (tasks that
    release the GIL), else processes. One made here is shut down on the way out, its tasks
    under way stopped (threads) or its processes terminated on an interruption (a given one
    is left alone)."""
    if jobs < 1:
        raise BullsCowsError(f"jobs {jobs}: give at least 1")
    if given is None and scheduler is None and jobs > max_jobs():
        limit = max_jobs()
        raise BullsCowsError(
            f"--jobs {jobs}: this machine allows at most {limit} (the cores this process may "
            f"use); give --jobs {limit} or fewer"
        )
    if sum((given is not None, jobs > 1, scheduler is not None)) > 1:
        raise BullsCowsError("give one of an executor, jobs > 1 or a Dask scheduler")
    if given is not None or (jobs == 1 and scheduler is None):
        yield given
        return
    if scheduler is None and threads:
        team = Threads(jobs)
        try:
            yield team
        except BaseException:
            team.shutdown(wait=False, cancel_futures=True)  # daemon threads, told to stop
            raise
        team.shutdown(cancel_futures=True)  # tasks started in vain stop, not run to the end
        return
    if scheduler is None:
        # Spawned, not forked: forking a process whose compiled kernels run threads is unsafe.
        # Imported here, not at the top: a command that makes no pool does not load them.
        from concurrent.futures import ProcessPoolExecutor
        from multiprocessing import get_context

        pool = ProcessPoolExecutor(jobs, mp_context=get_context("spawn"))
        try:
            start_deaf(pool, jobs)
        except OSError as error:  # the system refuses a process (a memory or process limit)
            stop_workers(pool)
            pool.shutdown(wait=False, cancel_futures=True)
            raise BullsCowsError(
                f"--jobs {jobs}: cannot start the processes ({error.strerror or error}); give fewer"
            ) from None
        try:
            yield pool
        except BaseException:
            stop_workers(pool)  # interrupted: their tasks' answers are no longer wanted
            raise
        finally:
            pool.shutdown(cancel_futures=True)
        return
    client = dask_client(scheduler)
    try:
        tasks = DaskTasks(client)
        try:
            yield tasks
        finally:
            tasks.shutdown(cancel_futures=True)  # each Dask future released while connected
    finally:
        client.close()


def start_deaf(pool: ProcessPoolExecutor, jobs: int) -> None:
    """Start the pool's ``jobs`` processes now, deaf to Ctrl-C (they inherit an ignored
    SIGINT): the terminal sends it to all of them, and only this process should answer it
    (it stops them), not each of them with a traceback."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        return  # signals are set by the main thread only; the processes start on demand
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        for _ in range(jobs):  # each submission starts one more process while none is idle
            pool.submit(int)
    finally:
        signal.signal(signal.SIGINT, before)


def max_jobs() -> int:
    """The most local workers ``make_executor`` starts: the cores this process may run on (a
    search or a bench gains nothing from more), and at least 2, so that a one-core machine
    still runs the parallel path.

    >>> max_jobs() >= 2
    True
    """
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cores = os.cpu_count() or 1
    return max(2, cores)


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate the pool's processes at once, rather than wait for their tasks to end (a
    task in compiled code does not see an interrupt until it returns)."""
    processes = getattr(pool, "_processes", None) or {}  # no public handle before 3.14
    for process in list(processes.values()):
        process.terminate()


class TaskStopped(Exception):
    """A task on ``Threads`` that gave up when told to stop (its future was cancelled)."""


#: The task running on this thread, when it is one of ``Threads``' (``stop_flag``).
_CURRENT = threading.local()
#: What counts the progress of the task running on a thread of ``Threads``, once it says.
_Counter = list[Callable[[], int] | None]


def stop_flag() -> npt.NDArray[np.int64] | None:
    """The stop flag of the task running on this thread, if it runs on ``Threads``: a
    one-element array set to 1 when the task is to give up (then it should raise
    ``TaskStopped``); ``None`` elsewhere.

    >>> stop_flag() is None
    True
    >>> with Threads(1) as team:
    ...     team.submit(lambda: stop_flag().tolist()).result()
    [0]
    """
    return getattr(_CURRENT, "flag", None)


def current_team() -> Threads | None:
    """The ``Threads`` whose task runs on this thread, if any.

    >>> current_team() is None
    True
    >>> with Threads(1) as team:
    ...     team.submit(current_team).result() is team
    True
    """
    return getattr(_CURRENT, "team", None)


def count_progress(counter: Callable[[], int]) -> None:
    """Let the ``Threads`` running this thread's task read how much work the task has done so
    far (``Threads.counted``): ``counter`` is called from another thread while the task runs,
    so it should only read. Elsewhere nothing happens (on a Dask worker a task's work is told
    to the client by ``search.worker.Listener``).

    >>> import threading
    >>> started, finish = threading.Event(), threading.Event()
    >>> def task() -> None:
    ...     count_progress(lambda: 7)
    ...     started.set()
    ...     finish.wait()
    >>> with Threads(2) as team:
    ...     future = team.submit(task)
    ...     _ = started.wait()
    ...     counted = team.counted()
    ...     finish.set()
    ...     future.result()
    >>> counted, team.counted()
    (7, 0)
    """
    slot = getattr(_CURRENT, "counter", None)
    if slot is not None:
        slot[0] = counter


class Threads(Executor):
    """An executor of ``workers`` daemon threads of this process, for tasks that release the
    GIL. Unlike ``ThreadPoolExecutor``, a task under way can be stopped: cancelling its future
    sets the task's ``stop_flag`` (``cancel`` still answers ``False``: the task ends, with
    ``TaskStopped``, when it next looks at the flag), and so does ``shutdown`` with
    ``cancel_futures``. A thread come free takes the waiting task of the lowest priority
    (``submit_at``), the first sent among equals. Its threads never hold up the
    interpreter's exit.

    >>> with Threads(2) as team:
    ...     sorted(team.submit(abs, n).result() for n in (-2, 3))
    [2, 3]
    """

    def __init__(self, workers: int) -> None:
        self._max_workers = workers
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)  # a task, or an end, was queued
        # The tasks not started, a heap of (priority, sequence, future, call): the lowest
        # priority first, the first sent among equals; an end (``_END``) ends a thread.
        self._queue: list[tuple[int, int, Future[Any] | None, Callable[[], Any] | None]] = []
        self._sequence = itertools.count()
        # The tasks in the queue that a thread will run, with their priorities: neither
        # started nor cancelled (a cancelled one stays in the queue until a thread takes it,
        # and runs nothing).
        self._pending: dict[Future[Any], int] = {}
        self._closed = False
        # Each task under way: its stop flag, and what counts its progress (``count_progress``).
        self._running: dict[Future[Any], tuple[npt.NDArray[np.int64], _Counter]] = {}
        self._threads = [
            threading.Thread(target=self._work, name=f"bullscows-task-{i}", daemon=True)
            for i in range(workers)
        ]
        for started, thread in enumerate(self._threads):
            try:
                thread.start()
            except RuntimeError as error:  # "can't start new thread": a memory limit, say
                self._threads = self._threads[:started]
                self.shutdown(wait=False)  # those started end
                raise BullsCowsError(
                    f"--jobs {workers}: the system started only {counted(started, 'thread')} "
                    f"({error}: a memory or process limit?); give --jobs {max(1, started)}"
                ) from None

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """``fn(*args, **kwargs)`` queued at priority 0 (``submit_at``)."""
        return self.submit_at(0, fn, *args, **kwargs)

    def submit_at(
        self, priority: int, fn: Callable[..., T], /, *args: Any, **kwargs: Any
    ) -> Future[T]:
        """``fn(*args, **kwargs)`` queued at ``priority``: a thread come free takes the task
        waiting of the lowest priority, the first sent among equals.

        >>> import threading
        >>> began, order = threading.Event(), []
        >>> with Threads(1) as team:
        ...     held = team.submit(began.wait)
        ...     later = [team.submit_at(p, order.append, p) for p in (2, 1, 0, 1)]
        ...     _ = began.set(), [future.result() for future in later]
        >>> order
        [0, 1, 1, 2]
        """
        future: Future[T] = _StoppableFuture(self)
        with self._ready:
            if self._closed:
                raise RuntimeError("cannot schedule new tasks after shutdown")
            task = (priority, next(self._sequence), future, lambda: fn(*args, **kwargs))
            heapq.heappush(self._queue, task)
            self._pending[future] = priority
            self._ready.notify()
        return future

    def idle(self) -> int:
        """Threads with no task under way and none waiting for them (tasks cancelled
        before they started wait for none)."""
        with self._lock:
            return max(0, len(self._threads) - len(self._running) - len(self._pending))

    def busy(self) -> int:
        """Tasks under way (each on one thread; it may be waiting for other tasks)."""
        return len(self._running)

    def waiting(self, before: int | None = None) -> int:
        """Tasks not started yet, and not cancelled; with ``before``, those of a lower
        priority only (which a thread come free takes first)."""
        with self._lock:
            if before is None:
                return len(self._pending)
            return sum(priority < before for priority in self._pending.values())

    def native_ids(self) -> list[int]:
        """The operating system's ids of the threads (Linux: ``/proc/self/task/ID``)."""
        return [thread.native_id for thread in self._threads if thread.native_id is not None]

    def stop(self, future: Future[Any]) -> None:
        """Tell the task of ``future`` to stop, if it is under way."""
        with self._lock:
            running = self._running.get(future)
            if running is not None:
                running[0][0] = 1

    def counted(self) -> int:
        """The work done so far by the tasks under way, as those that count it tell
        (``count_progress``)."""
        with self._lock:
            counters = [counter[0] for _, counter in self._running.values()]
        return sum(count() for count in counters if count is not None)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Take no more tasks; with ``cancel_futures``, cancel those not started and stop those
        under way; with ``wait``, wait for the threads to end."""
        with self._ready:
            first, self._closed = not self._closed, True
            waiting: list[Future[Any]] = []
            if cancel_futures:
                for flag, _ in self._running.values():
                    flag[0] = 1
                waiting = [future for _, _, future, _ in self._queue if future is not None]
                self._queue = [task for task in self._queue if task[2] is None]  # the ends
            for _ in range(len(self._threads) if first else 0):
                heapq.heappush(self._queue, (_END, next(self._sequence), None, None))
            self._ready.notify_all()
        for future in waiting:
            future.cancel()
        if wait:
            for thread in self._threads:
                thread.join()

    def _work(self) -> None:
        flag = np.zeros(1, dtype=np.int64)
        counter: _Counter = [None]
        _CURRENT.flag, _CURRENT.counter, _CURRENT.team = flag, counter, self
        while True:
            with self._ready:
                while not self._queue:
                    self._ready.wait()
                _, _, future, call = heapq.heappop(self._queue)
                if future is None or call is None:
                    return  # an end: after every task queued before the shutdown
                self._pending.pop(future, None)
                if not future.set_running_or_notify_cancel():
                    continue
                flag[0], counter[0] = 0, None
                self._running[future] = (flag, counter)
            try:
                result = call()
            except BaseException as error:  # the future carries it to whoever waits
                self._done(future)
                future.set_exception(error)
            else:
                self._done(future)
                future.set_result(result)

    def _done(self, future: Future[Any]) -> None:
        with self._lock:
            del self._running[future]

    def _forget(self, future: Future[Any]) -> None:
        """``future`` was cancelled before it started: no thread waits for it."""
        with self._lock:
            self._pending.pop(future, None)


#: The priority of the ends queued by ``Threads.shutdown``: after every task.
_END = sys.maxsize


class _StoppableFuture(Future[T]):
    """A future of ``Threads``: cancelling it once its task is under way stops the task."""

    def __init__(self, team: Threads) -> None:
        super().__init__()
        self._team = team

    def cancel(self) -> bool:
        if self.withdraw():
            return True
        self._team.stop(self)
        return False

    def withdraw(self) -> bool:
        """Cancel the task if it has not started; one under way is left to run."""
        if super().cancel():
            self._team._forget(self)
            return True
        return False


def withdraw(future: Future[Any]) -> bool:
    """Cancel ``future``'s task if it has not started (``True``), and leave one under way to
    run, where ``Threads``' own ``cancel`` would stop it.

    >>> import threading
    >>> began, finish = threading.Event(), threading.Event()
    >>> def task() -> int:  # told to stop?
    ...     began.set()
    ...     finish.wait()
    ...     return int(stop_flag()[0])
    >>> with Threads(1) as team:
    ...     running, queued = team.submit(task), team.submit(task)
    ...     _ = began.wait()
    ...     withdrawn = withdraw(running), withdraw(queued), team.waiting()
    ...     finish.set()
    ...     told = running.result()
    >>> withdrawn, told
    ((False, True, 0), 0)
    """
    if isinstance(future, _StoppableFuture):
        return future.withdraw()
    return future.cancel()


def workers(executor: Executor) -> int:
    """How many tasks ``executor`` runs at once: its workers (process and thread pools), the
    threads of its workers (a Dask cluster), else this machine's cores.

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(3) as pool:
    ...     workers(pool)
    3
    """
    count = getattr(executor, "_max_workers", None)
    if isinstance(count, int):
        return max(1, count)
    client = getattr(executor, "_client", None)
    if client is not None:
        return max(1, int(sum(client.nthreads().values())))
    return os.cpu_count() or 1


def run_tasks(
    tasks: list[tuple[Callable[..., T], tuple[Any, ...]]], pool: Executor | None
) -> Iterator[tuple[int, T]]:
    """``(i, result of task i)`` as the tasks finish."""
    if pool is None:
        for i, (function, args) in enumerate(tasks):
            yield i, function(*args)
        return
    futures: dict[Future[T], int] = {pool.submit(f, *args): i for i, (f, args) in enumerate(tasks)}
    try:
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        for future in futures:
            future.cancel()
