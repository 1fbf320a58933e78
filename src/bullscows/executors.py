"""Where work runs: in this process, in local processes, or on a Dask cluster.

Both the benchmark and the optimal search split their work into independent tasks (a
function and its arguments) and hand them to a ``concurrent.futures.Executor``; results do
not depend on which executor ran them.

>>> with make_executor(None, 1, None) as pool:
...     sorted(run_tasks([(abs, (-2,)), (abs, (3,))], pool))
[(0, 2), (1, 3)]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from multiprocessing import get_context
from typing import Any, TypeVar

from bullscows.errors import BullsCowsError
from bullscows.readers import quote

T = TypeVar("T")
#: How long to wait for a Dask scheduler to answer.
SCHEDULER_TIMEOUT = "10s"


@contextmanager
def make_executor(
    given: Executor | None, jobs: int, scheduler: str | None
) -> Iterator[Executor | None]:
    """The executor to use; one made here is shut down on the way out (a given one is not)."""
    if jobs < 1:
        raise BullsCowsError(f"jobs {jobs}: give at least 1")
    if sum((given is not None, jobs > 1, scheduler is not None)) > 1:
        raise BullsCowsError("give one of an executor, jobs > 1 or a Dask scheduler")
    if given is not None or (jobs == 1 and scheduler is None):
        yield given
        return
    if scheduler is None:
        # Spawned, not forked: forking a process whose compiled kernels run threads is unsafe.
        pool = ProcessPoolExecutor(jobs, mp_context=get_context("spawn"))
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
        yield client.get_executor()
    finally:
        client.close()


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate the pool's processes at once, rather than wait for their tasks to end (a
    task in compiled code does not see an interrupt until it returns)."""
    processes = getattr(pool, "_processes", None) or {}  # no public handle before 3.14
    for process in list(processes.values()):
        process.terminate()


def dask_client(address: str) -> Any:
    try:
        from dask.distributed import Client as connect
    except ImportError:
        raise BullsCowsError(
            f"scheduler {quote(address)}: Dask is not installed (pip install 'dask[distributed]')"
        ) from None
    try:
        client: Any = connect  # distributed has no type hints
        return client(address, timeout=SCHEDULER_TIMEOUT)
    except (OSError, ValueError, TypeError) as error:
        raise BullsCowsError(f"cannot reach the Dask scheduler {quote(address)}: {error}") from None


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
