"""Running a kernel over rows: on the calling thread when the work is small, else cut into
blocks that a parallel driver's threads take one at a time, so that a thread slowed down by
another process on its core holds up one block, not a fixed share of the work."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

#: Work (pairs) below which a kernel runs on the calling thread (about a millisecond's work):
#: waking the other threads costs more than it saves, far more when another process holds a
#: core, and the parallel drivers then need no loading at all.
SERIAL_PAIRS = 1 << 21
#: Blocks a parallel call is cut into, per thread (several, so that no thread waits long).
BLOCKS_PER_THREAD = 16


def cores() -> int:
    """The cores this process may run on, at most ``NUMBA_NUM_THREADS`` when it is set (the
    threads numba's parallel drivers start; read without loading numba)."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        usable = os.cpu_count() or 1
    limit = os.environ.get("NUMBA_NUM_THREADS", "")
    return max(1, min(usable, int(limit) if limit.isdigit() and int(limit) else usable))


#: The threads the kernels called on this thread run on, when fixed (``on_threads``).
_HERE = threading.local()


@contextmanager
def on_threads(threads: int) -> Iterator[None]:
    """Run every kernel called on this thread meanwhile on ``threads`` threads, whatever its
    work (``serial`` is one thread).

    >>> with on_threads(3):
    ...     threads_for(1, 1 << 40)
    3
    """
    before = getattr(_HERE, "threads", None)
    _HERE.threads = threads
    try:
        yield
    finally:
        _HERE.threads = before


def serial() -> AbstractContextManager[None]:
    """Run every kernel called on this thread meanwhile on this thread alone: tasks that run
    side by side on threads of one process (``search.worker``) keep the cores busy already,
    and numba's thread pools are not all safe to enter from two threads at once.

    >>> with serial():
    ...     threads_for(1 << 40, 1)
    1
    """
    return on_threads(1)


def threads_for(work: int, parallel_work: int) -> int:
    """Threads for ``work`` (in the kernel's units): as many as ``on_threads`` fixed on this
    thread, else one below ``parallel_work``, else every core this process may run on."""
    fixed: int | None = getattr(_HERE, "threads", None)
    if fixed is not None:
        return fixed
    return 1 if work < parallel_work else cores()


def run_kernel(
    kernel: Callable[..., None],
    driver: Callable[..., None],
    args: tuple[Any, ...],
    rows: int,
    pairs: int,
) -> None:
    """``kernel(*args, start, stop)`` over ``range(rows)``: in one call on this thread when the
    work is small, else through its ``driver``, whose threads take blocks of rows in turn."""
    threads = threads_for(pairs, SERIAL_PAIRS)
    if rows < 2 or threads < 2:
        kernel(*args, 0, rows)
    else:
        import numba

        from bullscows._kernels.bits import counter

        numba.set_num_threads(threads)
        driver(*args, min(rows, BLOCKS_PER_THREAD * threads), counter(), threads)
