"""A heuristic's whole tree, built by the compiled kernels of ``_kernels.trees``, on one
thread or several by the work's size; without loading numba when it can.

Installing the package compiles the builders of ``trees`` ahead of time into the extension module
``_trees_aot`` (``_kernels.ahead``; a build that fails leaves it out, and nothing else
changes). Trees are built by the module when it is there and current, else by numba's
compilation: on the calling thread when small, else on threads of this process that take
the parts below the first levels one at a time (both release the GIL).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import numpy as np
import numpy.typing as npt

from bullscows._kernels import drivers
from bullscows._kernels.ahead import TREES, load
from bullscows._kernels.ahead import contiguous as _c

#: Work (guesses times candidates at the root) from which a tree is built on several threads.
PARALLEL_WORK = 50_000_000
#: Parts open before the threads start, per thread (several, so that none waits long).
PARTS_PER_THREAD = 8
#: Seconds between two reports of a tree being built (``reporting``).
REPORT_EVERY = 0.25
Int64s = npt.NDArray[np.int64]
#: ``progress(placed, codes)``: ``placed`` of the tree's ``codes`` have their place in it.
Placed = Callable[[int, int], None]
#: What a tree built in this context reports to (``reporting``), if anything.
_PROGRESS: ContextVar[Placed | None] = ContextVar("tree_progress", default=None)


@contextmanager
def reporting(progress: Placed) -> Iterator[None]:
    """Have every tree built on this thread meanwhile tell ``progress`` every ``REPORT_EVERY``
    seconds how many codes are placed (while the kernels hold no lock that stops it: the
    modules compiled at installation and the threads' kernels never do), and once at the end.

    >>> from bullscows import Rules, get_strategy
    >>> from bullscows.outcomes import build_tree
    >>> seen = []
    >>> with reporting(lambda placed, codes: seen.append((placed, codes))):
    ...     _ = build_tree(Rules.parse("mm"), get_strategy("minimax"))
    >>> seen[-1]
    (1296, 1296)
    """
    token = _PROGRESS.set(progress)
    try:
        yield
    finally:
        _PROGRESS.reset(token)


@contextmanager
def _watched(counts: Int64s, codes: int) -> Iterator[None]:
    """Report the codes placed (those with a guess count) while the block builds a tree, if
    this thread is ``reporting``."""
    progress = _PROGRESS.get()
    if progress is None:
        yield
        return
    done = threading.Event()

    def watch() -> None:
        while not done.wait(REPORT_EVERY):
            progress(int(np.count_nonzero(counts)), codes)

    watcher = threading.Thread(target=watch, name="tree progress", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()
    progress(int(np.count_nonzero(counts)), codes)


def build(
    pos: npt.NDArray[np.uint64], sym: npt.NDArray[np.uint64], candidates: Int64s,
    params: Int64s, logs: Int64s, history: Int64s, symmetry: tuple[Int64s, ...],
    ahead: bool = True,
) -> tuple[Int64s, ...]:  # fmt: skip
    """The tree below ``candidates`` (sorted): each node's guess, parent row (-1 at the root)
    and the reply leading to it, in rows (parents before children; a row of guess -1 is
    unused), and the guesses each code needs (indexed by code). ``ahead=False``: by numba's
    compilation even when the ahead-of-time module would do."""
    order = np.array(candidates, dtype=np.int64)
    size = 2 * len(order)
    guesses = np.full(size, -1, dtype=np.int64)
    tree = (guesses, np.full(size, -1, dtype=np.int64), np.full(size, -1, dtype=np.int64),
            np.zeros(1, dtype=np.int64))  # fmt: skip
    counts = np.zeros(len(pos), dtype=np.int64)
    # The compiled module trusts its arguments' types (numba's dispatcher checks them): the
    # same kinds of arrays always, as when its signature was taken.
    ctx = (_c(pos, np.uint64), _c(sym, np.uint64), _c(params), _c(logs), _c(history),
           tuple(_c(a) for a in symmetry))  # fmt: skip
    module: Any = load(TREES)[0] if ahead else None
    if module is None:
        from bullscows._kernels import trees as module
    threads = drivers.threads_for(len(pos) * len(order), PARALLEL_WORK)
    with _watched(counts, len(order)):
        if threads > 1:
            _on_threads(module, order, ctx, tree, counts, threads)
        else:
            module.build_serial(order, ctx, tree, counts)
    return guesses, tree[1], tree[2], counts


def _on_threads(
    kernels: Any, order: Int64s, ctx: tuple[Any, ...], tree: tuple[Int64s, ...], counts: Int64s,
    threads: int,
) -> None:  # fmt: skip
    """The tree as ``build_serial`` builds it: the first levels on this thread until several
    parts a thread are open, then the parts by ``threads`` threads (the kernels release the
    GIL), each taking the next part left, largest first, until none is."""
    tasks = kernels.open_parts(order, ctx, tree, counts, PARTS_PER_THREAD * threads)
    sizes = tasks[:, 1] - tasks[:, 0]
    tasks = np.ascontiguousarray(tasks[np.argsort(-sizes, kind="mergesort")])
    # A part of m codes makes at most 2m - 1 nodes: each part's rows follow the last.
    regions = tree[3][0] + np.concatenate(([0], np.cumsum(2 * (tasks[:, 1] - tasks[:, 0]) - 1)))
    taken = np.zeros(1, dtype=np.int64)
    arguments = (order, tasks, regions.astype(np.int64), taken, ctx, tree, counts)
    team = [threading.Thread(target=kernels.build_parts, args=arguments) for _ in range(threads)]
    for thread in team:
        thread.start()
    for thread in team:
        thread.join()
