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

import numpy as np
import numpy.typing as npt

from bullscows._kernels import search_calls
from bullscows._kernels.tables import CTX_STOP, level_caps
from bullscows.feedback import reply_count, valid_replies
from bullscows.search.options import SearchOptions
from bullscows.search.scores import score_table
from bullscows.search.tree import tree_cost
from bullscows.tree.model import Node
from bullscows.universe import IndexArray, universe


class SearchState:
    """The compiled search's state for the search ``options`` (``stop``: its stop flag, set
    by another thread to stop it; a new one if ``None``)."""

    def __init__(self, options: SearchOptions, stop: npt.NDArray[np.int64] | None = None) -> None:
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
        self.stats = np.zeros(2, dtype=np.int64)  # sets branched on, sets looked ahead at
        # What every call of the compiled search reads (see search_dfs).
        scores, rows = self.scores.arrays()
        self.ctx = search_calls.context(
            scores, self.caps, valid, self.win, search_calls.code_keys(len(u)),
            self.stats, self.capped, options.consistent_only, self.everything,
            rules.reply_slots, options.weight, self.penalty,
            np.zeros(1, dtype=np.int64) if stop is None else stop, rows,
        )  # fmt: skip
        self.slots = rules.reply_slots
        self.memo = search_calls.Memo()

    @property
    def stop(self) -> npt.NDArray[np.int64]:
        """The stop flag the compiled search reads."""
        flag: npt.NDArray[np.int64] = self.ctx[CTX_STOP]
        return flag

    @property
    def sets(self) -> int:
        """The sets the compiled search has searched."""
        return int(self.stats.sum())

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
        if guess < 0:
            raise RuntimeError("the compiled search lost a settled set")  # a bug, not input
        return self.tree_of(codes, guess, depth)

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


__all__ = ["SearchState"]
