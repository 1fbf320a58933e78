"""What the compiled search of one optimal-tree search reads and writes: the score matrix,
level capacities, context (``search_calls.context``), memo and counters; and the trees of
the sets it settled, read back from its memo.

>>> from bullscows.rules import Rules
>>> from bullscows.search.options import SearchOptions
>>> state = SearchState(SearchOptions(Rules.parse("p3c4n")))
>>> state.unlimited, state.shallowest(24), state.ideal(3, 9)
(25, 3, 5)
>>> cost = state.solve(state.everything, 9, 10**6, state.everything)
>>> cost, state.rebuild(state.everything, 9).guess, int(state.stats[0]) > 0
(72, 0, True)
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from bullscows._kernels import search_calls
from bullscows._kernels.tables import (
    CTX_SHARED,
    CTX_STOP,
    INFEASIBLE,
    STOPPED,
    TRAFFIC,
    TRAFFIC_AGAIN,
    level_caps,
)
from bullscows.executors import TaskStopped, Threads
from bullscows.feedback import reply_count, valid_replies
from bullscows.search.options import SearchOptions
from bullscows.search.scores import score_table
from bullscows.search.tree import tree_cost
from bullscows.tree.model import Node
from bullscows.universe import IndexArray, universe

#: An empty shared table: a context with none (``SearchState.ahead_ctx``).
_NO_TABLE = np.zeros(0, dtype=np.int64)

#: Whether the threads of a search share a table (``shared_table``); benchmarks and tests
#: turn it off to compare.
SHARE = True
#: The fewest codes a set has for the table to hold it (0: every set). A threshold saves
#: reads but searches small sets again; whether it pays on many cores is not yet measured
#: (docs/scaling.md).
SHARE_FROM = 0
#: Each team's shared table, and the search options it is for.
_TABLES: weakref.WeakKeyDictionary[Threads, tuple[SearchOptions, npt.NDArray[np.int64]]]
_TABLES = weakref.WeakKeyDictionary()
_TABLES_LOCK = threading.Lock()


def shared_table(options: SearchOptions, team: Threads) -> npt.NDArray[np.int64] | None:
    """The table that the threads of ``team`` searching for ``options`` share
    (``search_calls.shared_table``), made by the first to ask; ``None`` when ``SHARE`` is
    off. What it holds is true of every search of ``options`` (the sets' exact costs and
    floors, keyed by their codes and depth), as each thread's memo, kept between the
    searches of the same options on its team, is; a search of other options on the team
    replaces it.

    >>> from bullscows.rules import Rules
    >>> from bullscows._kernels.tables import FLIGHT
    >>> mm = SearchOptions(Rules.parse("mm"))
    >>> with Threads(2) as team:
    ...     table = shared_table(mm, team)
    ...     table is shared_table(mm, team), (len(table) - FLIGHT) // 8  # slots, sets in flight
    (True, 262144)
    """
    if not SHARE:
        return None
    with _TABLES_LOCK:
        kept = _TABLES.get(team)
        if kept is None or kept[0] != options:
            kept = (options, search_calls.shared_table(len(universe(options.rules))))
            _TABLES[team] = kept
        return kept[1]


class SearchState:
    """The compiled search's state for the search ``options`` (``stop``: its stop flag, set
    by another thread to stop it; a new one if ``None``; ``shared``: the table the threads
    of the search share, ``shared_table``, or none)."""

    def __init__(
        self, options: SearchOptions, stop: npt.NDArray[np.int64] | None = None,
        shared: npt.NDArray[np.int64] | None = None,
    ) -> None:  # fmt: skip
        rules = options.rules
        u = universe(rules)
        self.options = options
        self.capped = options.capped
        self.penalty = options.penalty(len(u))
        self.scores = score_table(rules)  # the whole matrix, or rows when needed
        self.win = rules.length * (rules.length + 1)
        # Level capacities up to the first that holds every code, and one more.
        self.caps = level_caps(reply_count(rules), covering=len(u))
        self.unlimited = len(u) + 1  # no tree is deeper than it has codes (each guess helps)
        self.everything = u.all()
        valid = np.array([r for r in valid_replies(rules) if r != self.win], dtype=np.uint8)
        # Sets branched on, sets looked ahead at, sets known from the shared table.
        self.stats = search_calls.counters(3)
        # The reads and writes of the shared table (``tables.TRAFFIC_*``).
        self.traffic = search_calls.counters(TRAFFIC)
        #: The parts read back from the shared table and searched again (``_again``), the
        #: sets that cost, and how many of those were branched on again under the memo's
        #: own floor (``TRAFFIC_AGAIN``).
        self.again = [0, 0, 0]
        # What every call of the compiled search reads (see search_dfs).
        scores, rows = self.scores.arrays()
        self.ctx = search_calls.context(
            scores, self.caps, valid, self.win, search_calls.code_keys(len(u)),
            self.stats, self.capped, options.consistent_only, self.everything,
            rules.reply_slots, options.weight, self.penalty,
            np.zeros(1, dtype=np.int64) if stop is None else stop, rows, shared, SHARE_FROM,
            self.traffic,
        )  # fmt: skip
        self.slots = rules.reply_slots
        self.memo = search_calls.Memo()
        self._apart: search_calls.Memo | None = None  # ``apart``
        #: How a long compiled call of ``rebuild`` runs: its owner's watch (``Search``
        #: gives its own: progress, limits, Ctrl-C); by default, plainly.
        self.watched: Callable[[Callable[[], int]], int] = unwatched

    def share(self, table: npt.NDArray[np.int64] | None) -> None:
        """Share ``table`` (``shared_table``) with the other searches given it; ``None``: no
        table."""
        table = np.zeros(0, dtype=np.int64) if table is None else table
        search_calls.check_shared(table)
        self.ctx = (*self.ctx[:CTX_SHARED], table, *self.ctx[CTX_SHARED + 1 :])

    @property
    def shared(self) -> npt.NDArray[np.int64]:
        """The table this search shares with others (empty: none)."""
        table: npt.NDArray[np.int64] = self.ctx[CTX_SHARED]
        return table

    def apart(self) -> None:
        """Take the lookaheads that order the guesses of the python levels apart from the
        memo from now on (``ahead_memo``), as when it was given what a stopped run settled
        (``search.kept``): a guess whose parts' costs it knows would fall behind guesses
        only hoped cheap, and a resumed search would stray from the path it took (``bc``
        stopped at 40,000 sets and resumed on one thread: 87,518 sets, 53,665 apart)."""
        self._apart = search_calls.Memo()

    @property
    def ahead_memo(self) -> search_calls.Memo:
        """The memo of the lookaheads ordering the python levels' guesses (``apart``)."""
        return self.memo if self._apart is None else self._apart

    @property
    def ahead_ctx(self) -> search_calls.Context:
        """The context of the lookaheads in ``ahead_memo``: apart, no shared table."""
        if self._apart is None:
            return self.ctx
        return (*self.ctx[:CTX_SHARED], _NO_TABLE, *self.ctx[CTX_SHARED + 1 :])

    @property
    def stop(self) -> npt.NDArray[np.int64]:
        """The stop flag the compiled search reads."""
        flag: npt.NDArray[np.int64] = self.ctx[CTX_STOP]
        return flag

    @property
    def sets(self) -> int:
        """The sets the compiled search has searched."""
        return int(self.stats[0] + self.stats[1])

    @property
    def shared_hits(self) -> int:
        """The sets the compiled search took from the table the threads share."""
        return int(self.stats[2])

    def shallowest(self, codes: int) -> int:
        """The fewest guesses within which some tree could settle ``codes`` codes."""
        return int(np.searchsorted(self.caps, codes))

    def ideal(self, n: int, depth: int) -> int:
        """No tree settles ``n`` codes within ``depth`` guesses for less (``search.bounds``)."""
        return search_calls.ideal_cost(self.ctx, n, depth)

    def child(self, depth: int) -> int:
        """The depth left below a guess made with ``depth`` left."""
        return depth - 1 if self.capped else depth

    def ready(self, codes: IndexArray) -> None:
        """Ready the context for compiled calls about ``codes`` and their subsets (their rows
        scored, past the whole matrix: ``search.scores``)."""
        self.ctx = self.scores.ready(self.ctx, codes)

    def solve(self, codes: IndexArray, depth: int, limit: int, guesses: IndexArray) -> int:
        """One compiled call: ``search_calls.solve`` (a cost, ``FAIL`` or ``STOPPED``)."""
        self.ready(codes)
        return search_calls.solve(self.ctx, self.memo, codes, depth, limit, guesses)

    def rebuild(self, codes: IndexArray, depth: int) -> Node:
        """The tree of a set the compiled search settled, read back from its memo."""
        if len(codes) == 1:
            return Node(int(codes[0]))
        if len(codes) == 2:
            a, b = int(codes[0]), int(codes[1])
            return Node(a, {int(self.scores[a, b]): Node(b)})
        guess = search_calls.best_guess(self.ctx, self.memo, codes, depth)
        if guess < 0:  # settled from the shared table: its parts are in another thread's memo
            guess = self._again(codes, depth)
        return self.tree_of(codes, guess, depth)

    def _again(self, codes: IndexArray, depth: int) -> int:
        """The best guess at a part of a set settled from the shared table (its own cost
        there, if still held), searched again here so that its parts are in this memo."""
        guesses = codes if self.options.consistent_only else self.everything
        sets, floored = self.sets, int(self.traffic[TRAFFIC_AGAIN])
        cost = self.watched(lambda: self.solve(codes, depth, INFEASIBLE, guesses))
        guess = search_calls.best_guess(self.ctx, self.memo, codes, depth)
        counted = (1, self.sets - sets, int(self.traffic[TRAFFIC_AGAIN]) - floored)
        self.again = [a + b for a, b in zip(self.again, counted, strict=True)]
        if cost < 0 or guess < 0:
            raise RuntimeError("the compiled search lost a settled set")  # a bug, not input
        return guess

    def tree_of(self, codes: IndexArray, guess: int, depth: int) -> Node:
        """``guess`` at ``codes``, each part's tree read back from the memo (parts of one or two
        codes need none)."""
        child = self.child(depth)
        branches = {
            reply: self.rebuild(part, child)
            for reply, part in self.scores.parts(self.ctx, codes, guess)
        }
        return Node(guess, dict(sorted(branches.items())))

    def distinct(self, codes: IndexArray, guesses: IndexArray) -> list[int]:
        """The places in ``guesses`` of the first guess of each split of ``codes`` (the
        others split them alike: the same parts, the same costs)."""
        seen: set[bytes] = set()
        firsts = []
        for i, guess in enumerate(guesses.tolist()):
            split = self.scores[guess, codes].tobytes()
            if split not in seen:
                seen.add(split)
                firsts.append(i)
        return firsts

    def perfect(self, codes: IndexArray, depth: int) -> tuple[int, Node] | None:
        """A candidate splitting the others into single codes: cost ``2n - 1`` (and any
        penalty), the ideal, hence optimal."""
        if len(codes) > self.slots:  # more codes than replies: no candidate splits them so
            return None
        self.ready(codes)
        row = search_calls.perfect(self.ctx, codes)
        if row < 0:
            return None
        cost = self.ideal(len(codes), depth)
        return cost, self.tree_of(codes, int(codes[row]), depth)

    def trust(self, codes: IndexArray, depth: int, found: tuple[int, Node]) -> bool:
        """Whether ``found``'s tree settles ``codes`` within ``depth`` guesses at the cost it
        claims (one read from a checkpoint: the file may be damaged or edited)."""
        options = self.options
        cost = tree_cost(self.scores, self.win, found[1], codes, depth, self.penalty,
                         options.weight, options.consistent_only)  # fmt: skip
        return cost == found[0]


def unwatched(call: Callable[[], int]) -> int:
    """``call()``, a compiled search's cost; ``TaskStopped`` once it was stopped."""
    cost = call()
    if cost == STOPPED:
        raise TaskStopped("told to stop")
    return cost


__all__ = ["SearchState"]
