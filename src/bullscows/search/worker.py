"""The tasks of a search, answered wherever an executor sends them (a thread of the searching
process, another process of this machine or a Dask worker): each thread keeps one ``Search``
for the tasks it is given, so that its memo serves them all. The compiled search releases the
GIL, so the threads of one process search at once, each with a memo of its own (a memo is no
place for two threads); their kernels run serially (``drivers.serial``), and a task on
``executors.Threads`` gives up, raising ``TaskStopped``, when told to stop.

>>> from bullscows.executors import Threads
>>> mm = Rules.parse("mm")
>>> codes = universe(mm).secrets[::7]
>>> with Threads(2) as team:
...     found, sets = team.submit(solve_task, mm, "total", None, False, 1, (), codes, 9,
...                               INFEASIBLE).result()
>>> found[0], found[1] == Search(SearchOptions(mm)).solve(codes, 9, INFEASIBLE, ())[1]
(654, True)
"""

from __future__ import annotations

import threading
from typing import Any

from bullscows._kernels import drivers
from bullscows._kernels.tables import INFEASIBLE
from bullscows.executors import count_progress, stop_flag
from bullscows.rules import Rules
from bullscows.search.engine import Search
from bullscows.search.options import Objective, Run, SearchOptions
from bullscows.tree.model import Node
from bullscows.universe import IndexArray, universe

#: The search of each thread, kept for the tasks it is given (``solve_task``).
_HERE = threading.local()
_WORKER_LOCK = threading.Lock()
#: A small variant whose search calls every compiled kernel that a search's tasks call, with
#: the same types: searching it loads them from numba's cache (``prepare``).
KERNELS_VARIANT = "p3c6r"
_PREPARED: list[bool] = []


def prepare() -> None:
    """Make this process ready for tasks: the search's modules imported and its compiled
    kernels loaded (once), by a search of ``KERNELS_VARIANT`` of its own. Sent to each worker
    as a search starts, so that the workers start up while the searching process does too
    (``search.distribute.start_workers``), not once its first tasks are sent.

    >>> prepare()
    """
    with _WORKER_LOCK:
        if not _PREPARED:
            small = Rules.parse(KERNELS_VARIANT)
            search = Search(SearchOptions(small))
            search.solve(universe(small).secrets, search.state.unlimited, INFEASIBLE, ())
            _PREPARED.append(True)


def solve_task(
    rules: Rules,
    objective: Objective,
    max_depth: int | None,
    consistent_only: bool,
    weight: int,
    history: tuple[tuple[int, int], ...],
    codes: IndexArray,
    depth: int,
    limit: int,
) -> tuple[tuple[int, Node] | None, int]:
    """One task, solved where it is sent: the answer and the sets searched."""
    options = (rules, objective, max_depth, consistent_only, weight)
    kept: tuple[tuple[Any, ...], Search] | None = getattr(_HERE, "search", None)
    if kept is None or kept[0] != options:
        kept = _HERE.search = None  # one search at a time: let its memo go before the next
        search = Search(SearchOptions(*options), Run(stop=stop_flag()))
        _HERE.search = kept = (options, search)
    search = kept[1]
    before = search.nodes
    count_progress(lambda: search.nodes - before)  # on a thread of this process: read live
    with drivers.serial():
        found = search.solve(codes, depth, limit, history)
    return found, search.nodes - before
