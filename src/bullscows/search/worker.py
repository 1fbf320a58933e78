"""The tasks of a search, answered wherever an executor sends them (a process of this machine
or a Dask worker): each process keeps one ``Search`` for the tasks it is given, so that its
memo serves them all."""

from __future__ import annotations

import threading
from typing import Any

from bullscows._kernels.search_kernels import INFEASIBLE
from bullscows.rules import Rules
from bullscows.search.engine import Objective, Search
from bullscows.tree.model import Node
from bullscows.universe import IndexArray, universe

#: The searches of this process, kept for the tasks it is given (``solve_task``); the lock
#: lets workers that are threads of one process (as some Dask clusters run) take turns.
_WORKER_SEARCHES: dict[tuple[Any, ...], Search] = {}
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
            search = Search(small, "total", None, False)
            search.solve(universe(small).secrets, search.unlimited, INFEASIBLE, ())
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
    with _WORKER_LOCK:
        search = _WORKER_SEARCHES.get(options)
        if search is None:
            search = Search(rules, objective, max_depth, consistent_only, weight=weight)
            _WORKER_SEARCHES.clear()  # one search at a time: its memo can be large
            _WORKER_SEARCHES[options] = search
        before = search.nodes
        found = search.solve(codes, depth, limit, history)
        return found, search.nodes - before
