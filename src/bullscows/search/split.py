"""A slow task's guesses shared among the workers of ``executors.Threads``: the task's own
thread tries its set's guesses one by one, in the search's order, each against the best tree
found so far (the incumbent, one shared int64 that ``_kernels.search_split`` reads between
parts); once it has run ``SPLIT_AFTER`` CPU seconds (none: after its first guess), idle
workers join in (``help``), each taking the next guess not yet taken, with a memo of its
own. The answer is the one thread's: the first guess of the lowest cost, whose tree its
thread reads back from its memo.

>>> from bullscows.rules import Rules
>>> from bullscows.search.options import SearchOptions
>>> from bullscows.universe import universe
>>> options = SearchOptions(Rules.parse("p4c6n"))
>>> codes = universe(options.rules).secrets[::3]
>>> alone = Search(options).solve(codes, 9, 10**6, ((0, 3),))
>>> found = Split(Search(options), codes, 9, 10**6, ((0, 3),)).solve()
>>> found[0] == alone[0], found[1] == alone[1]
(True, True)
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future

import numpy as np

from bullscows._kernels import search_calls
from bullscows._kernels.tables import FAIL, STOPPED, beat
from bullscows.executors import TaskStopped, Threads, withdraw
from bullscows.search.distribute import HELP
from bullscows.search.engine import Search
from bullscows.tree.model import Node
from bullscows.universe import IndexArray

#: Sets of fewer codes are solved in one compiled call, never shared.
SPLIT_MIN = 100
#: CPU seconds a task's thread works alone before idle workers are asked to join: none, so
#: they join once its first guess is tried (``benchmarks/occupancy.py``: more of the threads
#: compute, for a few more sets searched than at 0.05 s).
SPLIT_AFTER = 0.0
#: The clock ``SPLIT_AFTER`` is counted on: the task's thread's CPU seconds, so that a task
#: on a busy machine, or on more threads than cores, is shared after as much work as on a
#: core of its own (wall-clock seconds would share it after less).
clock = time.thread_time
#: Told (history, guess's rank, thread seconds) after each guess tried (``benchmarks/scaling.py``).
OBSERVERS: list[Callable[[tuple[tuple[int, int], ...], int, float], None]] = []
#: Told each split once solved, its guesses tried (``Split.tried``; ``benchmarks/occupancy.py``).
FINISHED: list[Callable[[Split], None]] = []
#: ``(search of the helper's thread, split)`` -> the helper's sets searched: what a helper task
#: runs (``search.worker.help_split``).
Helper = Callable[["Split"], int]


class Split:
    """One set's search, its guesses shared by the threads that join it (``solve``)."""

    def __init__(
        self,
        search: Search,
        codes: IndexArray,
        depth: int,
        limit: int,
        history: tuple[tuple[int, int], ...],
    ) -> None:
        self.search = search
        self.codes = codes if codes.flags.writeable else codes.copy()
        self.depth = depth
        self.limit = limit
        self.history = history
        self.child = search.state.child(depth)
        self.lock = threading.Lock()
        self.guesses = np.empty(0, dtype=np.int64)
        self.bounds = np.empty(0, dtype=np.int64)
        self.next = 0  # the rank of the next guess to take
        self.incumbent = np.array([limit, 1], dtype=np.int64)
        self.tree: Node | None = None
        self.helped = 0  # sets searched by the helpers
        self._taken: dict[int, tuple[int, bool]] = {}  # rank: incumbent, an earlier under way
        #: Each guess tried: ``(rank, incumbent when taken, an earlier guess still under way
        #: then, sets searched, cost * ranks + rank or -1: none below its window)``.
        self.tried: list[tuple[int, int, bool, int, int]] = []

    def solve(
        self, team: Threads | None = None, helper: Helper | None = None
    ) -> tuple[int, Node] | None:
        """``Search.solve`` of the set, the same answer; on ``team``, idle workers join in,
        each running ``helper`` (``search.worker.help_split``) on this split."""
        search, codes, depth = self.search, self.codes, self.depth
        if len(codes) < SPLIT_MIN or len(self.history) < search.levels:
            return search.solve(codes, depth, self.limit, self.history)
        state = search.state
        if state.ideal(len(codes), depth) >= self.limit:
            return None
        perfect = state.perfect(codes, depth)  # what the compiled search does first
        if perfect is not None:
            return perfect
        guesses = search.guesses(codes, self.history)
        state.ready(codes)  # past the whole matrix: the codes' rows (``search.scores``)
        order, bounds, exact = search_calls.guess_order(
            state.ctx, codes, guesses, self.child, self.limit
        )
        if exact >= 0:
            return int(bounds[exact]), state.tree_of(codes, int(guesses[exact]), depth)
        self._distinct(guesses[order], bounds[order])
        helpers: list[Future[int]] = []
        asked: list[Future[int]] = []  # the helpers not started yet
        began = clock()
        try:
            while self.work(search, lambda: False):
                late = clock() - began >= SPLIT_AFTER
                if team is not None and helper is not None and late:
                    asked = [future for future in asked if not (future.running() or future.done())]
                    for _ in range(self.wanted(team.idle(), len(asked))):
                        asked.append(team.submit_at(HELP, helper, self))
                        helpers.append(asked[-1])
        except BaseException:  # stopped, or failed: so are the helpers
            self.close(helpers, stop=True)
            raise
        self.close(helpers)
        for observe in FINISHED:
            observe(self)
        ranks = len(self.guesses)
        if self.incumbent[0] >= self.limit * ranks:
            return None
        assert self.tree is not None
        return int(self.incumbent[0] // ranks), self.tree

    def _distinct(self, guesses: IndexArray, bounds: IndexArray) -> None:
        """Keep the first guess of each split of the codes (the others split them alike)."""
        keep = self.search.state.distinct(self.codes, guesses)
        self.guesses, self.bounds = guesses[keep], bounds[keep]
        self.incumbent[:] = (self.limit * len(keep), len(keep))

    def wanted(self, idle: int, asked: int) -> int:
        """How many helpers to ask now, ``idle`` workers being idle and ``asked`` helpers
        asked but not started: no more than the guesses left beyond the one this thread
        takes next (a helper takes guesses until none is left).

        >>> split = Split.__new__(Split)
        >>> split.guesses, split.next = np.arange(10), 4
        >>> split.wanted(16, 0), split.wanted(16, 2), split.wanted(3, 0), split.wanted(16, 9)
        (5, 3, 3, 0)
        """
        return max(0, min(idle, len(self.guesses) - self.next - 1 - asked))

    def take(self) -> int | None:
        """The rank of the next guess to try, or ``None`` when none is left that could beat
        the incumbent (the guesses' bounds only grow, their limits only fall)."""
        with self.lock:
            rank = self.next
            if rank >= len(self.guesses) or self.bounds[rank] >= beat(self.incumbent, rank):
                self.next = len(self.guesses)
                return None
            self.next = rank + 1
            self._taken[rank] = (int(self.incumbent[0]), len(self._taken) > 0)
            return rank

    def work(self, search: Search, enough: Callable[[], bool]) -> bool:
        """Try one guess with ``search`` (this thread's, readied for the codes: ``ready``);
        ``False`` when none was left."""
        rank = self.take()
        if rank is None:
            return False
        guess = int(self.guesses[rank])
        began = time.thread_time()
        state = search.state
        sets = state.sets
        cost = search_calls.try_guess(
            state.ctx, state.memo, self.codes, self.depth, guess, int(self.bounds[rank]),
            self.incumbent, rank,
        )  # fmt: skip
        if cost == STOPPED:
            raise TaskStopped("told to stop")
        with self.lock:
            key = -1 if cost == FAIL else cost * len(self.guesses) + rank
            self.tried.append((rank, *self._taken.pop(rank), state.sets - sets, key))
        if cost != FAIL and cost * len(self.guesses) + rank < self.incumbent[0]:
            tree = search.state.tree_of(self.codes, guess, self.depth)
            with self.lock:
                key = cost * len(self.guesses) + rank
                if key < self.incumbent[0]:
                    self.incumbent[0], self.tree = key, tree
        for observe in OBSERVERS:
            observe(self.history, rank, time.thread_time() - began)
        return not enough()

    def close(self, helpers: list[Future[int]], stop: bool = False) -> None:
        """No more guesses to take; cancel the helpers not started, and wait for those under
        way (a guess they are trying may still beat the incumbent), or with ``stop`` tell
        them to stop (``Threads``' cancel of a task under way)."""
        with self.lock:
            self.next = len(self.guesses)
        for future in helpers:
            if not (future.cancel() if stop else withdraw(future)):
                with contextlib.suppress(TaskStopped):  # stopped with this task
                    self.helped += future.result()


def help_split(search: Search, split: Split, team: Threads | None) -> int:
    """Try ``split``'s guesses with this thread's ``search`` until none is left or a task
    that comes before a helper (``distribute.HELP``) waits for this worker; the sets
    searched."""
    before = search.nodes
    search.state.ready(split.codes)  # once: every guess is tried at the same codes
    while split.work(search, lambda: team is not None and team.waiting(HELP) > 0):
        pass
    return search.nodes - before
