"""Strategies that look one guess ahead: score every code by how it splits the candidates.

Knuth's rule, its shortcuts (symmetry classes, a candidate that splits the others into single
codes) and the narrowing of huge variants to ``PAIR_BUDGET`` pairs are explained in
docs/explanation/heuristics.md.
"""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import numpy.typing as npt

from bullscows._kernels.reference import HEURISTIC_COSTS
from bullscows.feedback import reply_count
from bullscows.knowledge import Knowledge
from bullscows.strategies.base import Strategy, Subtree
from bullscows.strategy_spec import StrategySpec
from bullscows.symmetry import guess_classes, symmetry_arrays
from bullscows.universe import IndexArray

#: The most (guess, candidate) pairs one move scores before narrowing the guesses.
PAIR_BUDGET = 1_000_000_000


def guesses_to_score(knowledge: Knowledge, consistent_only: bool = False) -> IndexArray:
    """One guess per symmetry class (candidates only, if asked), narrowed within the budget."""
    candidates = knowledge.candidates
    guesses = guess_classes(knowledge.rules, (step.guess.index for step in knowledge.history))
    if consistent_only:
        guesses = guesses[knowledge.is_candidate[guesses]]
    if len(guesses) * len(candidates) <= PAIR_BUDGET:
        return guesses
    if len(candidates) ** 2 <= PAIR_BUDGET:
        return guesses[knowledge.is_candidate[guesses]]
    room = max(1, PAIR_BUDGET // len(candidates))
    return candidates[:: -(-len(candidates) // room)]


#: Nodes with at most this many candidates look for a guess at the lowest possible cost first.
FEW_CANDIDATES = 1000
#: The first block of guesses scanned for one at the lowest possible cost (blocks then double).
FIRST_BLOCK = 512


@cache
def lowest_cost(heuristic: str, candidates: int, replies: int) -> int:
    """The cost of the most even split of ``candidates`` codes over ``replies`` replies: no
    guess costs less (all four costs are convex or monotone in the part sizes).

    >>> lowest_cost("minimax", 1296, 14), lowest_cost("most-parts", 1296, 14)
    (93, -14)
    """
    parts = min(candidates, replies)
    q, r = divmod(candidates, parts)
    return HEURISTIC_COSTS[heuristic]([q + 1] * r + [q] * (parts - r))


def best_guess(
    guesses: IndexArray, cost: npt.NDArray[np.int64], is_candidate: npt.NDArray[np.bool_]
) -> int:
    """The lowest-cost guess; among equals a candidate, then the lowest code (guesses sorted)."""
    ties = guesses[cost == cost.min()]
    possible = ties[is_candidate[ties]]
    return int(possible[0] if len(possible) else ties[0])


class PartitionHeuristic(Strategy):
    """Knuth's rule with a heuristic over partition sizes (lower cost is better)."""

    def __init__(self, consistent_only: bool = False) -> None:
        self.consistent_only = consistent_only

    @property
    def label(self) -> str:
        return f"{self.name} (consistent only)" if self.consistent_only else self.name

    @property
    def spec(self) -> StrategySpec:
        return StrategySpec(self.name, self.consistent_only)

    def choose(self, knowledge: Knowledge, rng: random.Random) -> int:
        universe, candidates = knowledge.universe, knowledge.candidates
        guesses = guesses_to_score(knowledge, self.consistent_only)
        if len(candidates) > FEW_CANDIDATES:
            cost = universe.guess_costs(guesses, candidates, self.name)
            return best_guess(guesses, cost, knowledge.is_candidate)
        # No guess can cost less than an even split over every reply the variant has. A
        # candidate at that bound wins outright; failing one, the first guess found at the
        # bound wins, so the scan stops there.
        bound = lowest_cost(self.name, len(candidates), reply_count(knowledge.rules))
        own = universe.guess_costs(candidates, candidates, self.name)
        if own.min() == bound:
            return int(candidates[np.flatnonzero(own == bound)[0]])
        # The candidates are scored already: the scan covers the other guesses.
        is_candidate = knowledge.is_candidate
        possible = is_candidate[guesses]
        others = guesses[~possible]
        costs = [np.zeros(0, dtype=np.int64)]
        start, block = 0, FIRST_BLOCK
        while start < len(others):
            cost = universe.guess_costs(others[start : start + block], candidates, self.name)
            costs.append(cost)
            if cost.min() == bound:
                return int(others[start + np.flatnonzero(cost == bound)[0]])
            start, block = start + block, block * 2
        every = np.empty(len(guesses), dtype=np.int64)
        every[possible] = own[np.searchsorted(candidates, guesses[possible])]
        every[~possible] = np.concatenate(costs)
        return best_guess(guesses, every, is_candidate)

    def subtree(self, knowledge: Knowledge) -> Subtree | None:
        """The whole tree from ``knowledge`` in one compiled pass (``_kernels.tree_build``), the
        guesses of ``choose`` at every node; ``None`` when the codes need masks of more than one
        word or a move would narrow its guesses (``PAIR_BUDGET``)."""
        universe, candidates = knowledge.universe, knowledge.candidates
        if universe.pos_masks.shape[1] > 1 or universe.sym_masks.shape[1] > 1:
            return None
        if len(universe) * len(candidates) > PAIR_BUDGET or not len(candidates):
            return None
        from bullscows._kernels import tables as t
        from bullscows._kernels.tree_build import build
        from bullscows.tree.model import Node

        rules, length = knowledge.rules, knowledge.rules.length
        params = np.zeros(t.PARAMS, dtype=np.int64)
        params[t.LENGTH], params[t.HEURISTIC] = length, t.HEURISTICS[self.name]
        params[t.REPLIES], params[t.WIN] = reply_count(rules), length * (length + 1)
        params[t.CONSISTENT], params[t.SLOTS] = self.consistent_only, rules.reply_slots
        params[t.SYMMETRIC], params[t.LEVEL_AT_ROOT] = 1, 1
        history = np.array([step.guess.index for step in knowledge.history], dtype=np.int64)
        guesses, parents, replies, counts = build(
            universe.pos_masks[:, 0], universe.sym_masks[:, 0], candidates, params,
            t.log_table(len(candidates)), history,
            (universe.codes.astype(np.int64), *symmetry_arrays(rules)),
        )  # fmt: skip
        rows = np.flatnonzero(guesses >= 0)
        made: dict[int, Node] = {}
        columns = (rows, guesses[rows], parents[rows], replies[rows])
        for row, guess, parent, reply in zip(*(c.tolist() for c in columns), strict=True):
            made[row] = node = Node(guess)
            if parent >= 0:
                made[parent].branches[reply] = node
        return Subtree(counts[candidates], made[int(rows[0])], len(rows))


class Minimax(PartitionHeuristic):
    """Knuth (1976): the smallest largest part."""

    name = "minimax"
    summary = "Knuth: the guess whose largest part of the remaining codes is smallest"


class ExpectedSize(PartitionHeuristic):
    """Irving (1979): the smallest expected size of the part the secret falls in."""

    name = "expected-size"
    summary = "Irving: the guess with the smallest sum of squared part sizes"


class Entropy(PartitionHeuristic):
    """The most information: the largest entropy of the part sizes."""

    name = "entropy"
    summary = "the guess whose part sizes have the largest entropy"


class MostParts(PartitionHeuristic):
    """Kooi (2005): the most non-empty parts."""

    name = "most-parts"
    summary = "Kooi: the guess that splits the remaining codes into the most parts"
