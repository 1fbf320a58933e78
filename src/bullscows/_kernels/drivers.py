"""Running a kernel over rows: on the calling thread when the work is small, else cut into
blocks that a parallel driver's threads take one at a time, so that a thread slowed down by
another process on its core holds up one block, not a fixed share of the work."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

#: Work (pairs) below which a kernel runs on the calling thread (about a millisecond's work):
#: waking the other threads costs more than it saves, far more when another process holds a
#: core, and the parallel drivers then need no loading at all.
SERIAL_PAIRS = 1 << 21
#: Blocks a parallel call is cut into, per thread (several, so that no thread waits long).
BLOCKS_PER_THREAD = 16


def cores() -> int:
    """The cores this process may run on, at most numba's threads."""
    import numba

    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        usable = os.cpu_count() or 1
    return max(1, min(usable, numba.get_num_threads()))


#: Whether the kernels called on this thread run on it alone (``serial``).
_HERE = threading.local()


@contextmanager
def serial() -> Iterator[None]:
    """Run every kernel called on this thread meanwhile on this thread alone: tasks that run
    side by side on threads of one process (``search.worker``) keep the cores busy already,
    and numba's thread pools are not all safe to enter from two threads at once.

    >>> with serial():
    ...     threads_for(1 << 40, 1)
    1
    """
    before = getattr(_HERE, "serial", False)
    _HERE.serial = True
    try:
        yield
    finally:
        _HERE.serial = before


def threads_for(work: int, parallel_work: int) -> int:
    """Threads for ``work`` (in the kernel's units): one below ``parallel_work`` or on a
    thread in ``serial``, else every core this process may run on."""
    if work < parallel_work or getattr(_HERE, "serial", False):
        return 1
    return cores()


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
