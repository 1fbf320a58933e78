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
from bullscows.executors import count_progress, current_team, stop_flag
from bullscows.rules import Rules
from bullscows.search.checkpoint import Found, History
from bullscows.search.distribute import Local
from bullscows.search.engine import Search
from bullscows.search.options import Objective, Run, SearchOptions
from bullscows.search.split import Split, help_split
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
    kernels loaded (once), by a search of ``KERNELS_VARIANT`` of its own, and one of its sets
    with its guesses shared (``search.split``). Sent to each worker as a search starts, so
    that the workers start up while the searching process does too
    (``search.distribute.start_workers``), not once its first tasks are sent; run by the
    searching thread itself for ``executors.Threads`` (no thread of a team compiles).

    >>> prepare()
    """
    with _WORKER_LOCK:
        if not _PREPARED:
            small = Rules.parse(KERNELS_VARIANT)
            search = Search(SearchOptions(small))
            every, unlimited = universe(small).secrets, search.state.unlimited
            search.solve(every, unlimited, INFEASIBLE, ())
            Split(search, every, unlimited, INFEASIBLE, ((0, 1), (1, 1))).solve()
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
    """One task, solved where it is sent: the answer and the sets searched. On
    ``executors.Threads`` a slow task's guesses are shared with idle workers
    (``search.split``)."""
    options = (rules, objective, max_depth, consistent_only, weight)
    search = _thread_search(options)
    before = search.nodes
    count_progress(lambda: search.nodes - before)  # on a thread of this process: read live
    with drivers.serial():
        found, helped = _split_solve(search, options, history, codes, depth, limit)
    return found, search.nodes - before + helped


def _split_solve(
    search: Search,
    options: tuple[Any, ...],
    history: History,
    codes: IndexArray,
    depth: int,
    limit: int,
) -> tuple[Found, int]:
    """``codes`` solved by ``search`` with its guesses shared with this team's idle workers
    (``search.split``): the answer, and the sets its helpers searched."""
    split = Split(search, codes, depth, limit, history)
    found = split.solve(current_team(), lambda shared: help_task(options, shared))
    return found, split.helped


def help_task(options: tuple[Any, ...], split: Split) -> int:
    """A worker's help to ``split``, another task's (``search.split.help_split``): the
    sets it searched."""
    search = _thread_search(options)
    before = search.nodes
    count_progress(lambda: search.nodes - before)
    with drivers.serial():
        return help_split(search, split, current_team())


def _thread_search(options: tuple[Any, ...]) -> Search:
    """This thread's search of ``options`` (rules, objective, max depth, consistent only,
    weight), kept for the tasks it is given."""
    kept: tuple[tuple[Any, ...], Search] | None = getattr(_HERE, "search", None)
    if kept is None or kept[0] != options:
        kept = _HERE.search = None  # one search at a time: let its memo go before the next
        team = current_team()  # a spare part's rounds go to the workers of its team
        task = None if team is None else solve_task
        run = Run(executor=team, task=task, stop=stop_flag(), local=_shared(options))
        search = Search(SearchOptions(*options), run)
        _HERE.search = kept = (options, search)
    return kept[1]


def _shared(options: tuple[Any, ...]) -> Local:
    """How this thread's search of ``options`` solves the parts of a task one level above
    the tasks (a spare part, ``search.distribute``): each slow one with its guesses shared
    with idle workers, as a task's own set is (``search.split``), its helpers' sets counted
    as searched far."""

    def local(history: History, codes: IndexArray, depth: int, window: int) -> Found:
        search = _thread_search(options)  # the one asking: this thread's, of ``options``
        found, helped = _split_solve(search, options, history, codes, depth, window)
        search.tasks.done(helped)
        return found

    return local
