"""Running a kernel over rows: on the calling thread when the work is small, else cut into
blocks that a parallel driver spreads over numba's threads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba

#: Work (pairs) below which a kernel runs on the calling thread: waking the other threads
#: costs more than it saves, and the parallel drivers then need no compiling at all.
SERIAL_PAIRS = 1 << 16
#: Blocks a parallel call is cut into, per thread (several, to balance uneven rows).
BLOCKS_PER_THREAD = 4


def run_kernel(
    kernel: Callable[..., None],
    driver: Callable[..., None],
    args: tuple[Any, ...],
    rows: int,
    pairs: int,
) -> None:
    """``kernel(*args, start, stop)`` over ``range(rows)``: in one call on this thread when the
    work is small, else through its ``driver``, which spreads blocks over numba's threads."""
    threads = numba.get_num_threads()
    if pairs < SERIAL_PAIRS or rows < 2 or threads < 2:
        kernel(*args, 0, rows)
    else:
        driver(*args, min(rows, BLOCKS_PER_THREAD * threads))
