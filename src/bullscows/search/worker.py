"""The tasks of a search, answered wherever an executor sends them (a thread of the searching
process, another process of this machine or a Dask worker): each thread keeps one ``Search``
for the tasks it is given, so that its memo serves them all. The compiled search releases the
GIL, so the threads of one process search at once, each with a memo of its own (a memo is no
place for two threads) and, beside it, the table of sets that the threads of a team share
(``search.state.shared_table``); their kernels run serially (``drivers.serial``), and a task on
``executors.Threads`` or a Dask worker gives up, raising ``TaskStopped``, when told to stop
(on a Dask worker, by its ``Listener``, once its future is cancelled).

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
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import numpy.typing as npt

from bullscows._kernels import drivers
from bullscows._kernels.tables import INFEASIBLE
from bullscows.dask_tasks import TELL_EVERY, TOPIC, dask_task
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
#: Seconds between two looks of a Dask worker's ``Listener`` at the tasks it runs.
LISTEN_TICK = 0.02


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
    counter = lambda: search.nodes - before  # noqa: E731 (read live, from another thread)
    count_progress(counter)  # on a thread of this process
    with heard(search.state.stop, counter), drivers.serial():
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


@contextmanager
def heard(flag: npt.NDArray[np.int64], counter: Callable[[], int]) -> Iterator[None]:
    """On a Dask worker, the task under way has ``flag`` set (its search then raises
    ``TaskStopped``) once the worker hears that its answer is no longer wanted: its future
    was cancelled, as ``executors.Threads`` does for a task on a thread of the searching
    process; and the client is told its work so far (``counter()``) every
    ``dask_tasks.TELL_EVERY`` seconds. Elsewhere nothing happens."""
    found = None if current_team() is not None else _dask_task()
    if found is None:
        yield
        return
    listener, key = found
    flag[0] = 0
    listener.add(key, flag, counter)
    try:
        yield
    finally:
        listener.remove(key)


def _dask_task() -> tuple[Listener, Any] | None:
    """This Dask worker's listener and the key of the task this thread runs, if it runs
    one (Dask, if not imported, runs none)."""
    found = dask_task()
    if found is None:
        return None
    worker, key = found
    with _LISTENING:
        listener = _LISTENERS.get(worker)
        if listener is None:
            listener = _LISTENERS[worker] = Listener(worker)
    return listener, key


class Listener:
    """A daemon thread of a Dask worker that sets the stop flag of each task it is given
    once the worker's state says that the task was cancelled (its key released while it
    runs: the client no longer wants it), and tells the client (on ``dask_tasks.TOPIC``)
    each task's work so far every ``dask_tasks.TELL_EVERY`` seconds. It reads the worker's
    own state, asking the scheduler nothing, and sleeps while no task is given."""

    def __init__(self, worker: Any) -> None:
        self.worker = weakref.ref(worker)
        self.flags: dict[Any, tuple[npt.NDArray[np.int64], Callable[[], int]]] = {}
        self.given = threading.Condition()
        threading.Thread(target=self._listen, name="bullscows-listener", daemon=True).start()

    def add(self, key: Any, flag: npt.NDArray[np.int64], counter: Callable[[], int]) -> None:
        with self.given:
            self.flags[key] = (flag, counter)
            self.given.notify()

    def remove(self, key: Any) -> None:
        with self.given:
            self.flags.pop(key, None)

    def _listen(self) -> None:
        told = time.monotonic()
        while True:
            with self.given:
                self.given.wait_for(lambda: bool(self.flags))
                worker = self.worker()
                if worker is None:  # the worker closed
                    return
                for key, (flag, _) in self.flags.items():
                    task = worker.state.tasks.get(key)
                    if task is None or task.state == "cancelled":
                        flag[0] = 1
                if time.monotonic() - told >= TELL_EVERY:
                    told = time.monotonic()
                    work = {str(key): int(counter()) for key, (_, counter) in self.flags.items()}
                    worker.log_event(TOPIC, {"work": work})
                del worker
            time.sleep(LISTEN_TICK)


#: Each Dask worker's listener (a worker running in this process; usually one).
_LISTENERS: weakref.WeakKeyDictionary[Any, Listener] = weakref.WeakKeyDictionary()
_LISTENING = threading.Lock()
