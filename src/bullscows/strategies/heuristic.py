"""Strategies that look one guess ahead: score every code by how it splits the candidates.

Knuth's rule: every code of the variant may be the guess; each is scored by a function of the
sizes of the parts into which its replies split the remaining candidates; ties go to a code that
is still a candidate, then to the lowest code in the variant's order. The first guess follows
the same rule (only one code of each opening class is scored: see ``symmetry``).

On very large variants a move would mean scoring more than ``PAIR_BUDGET`` (guess, candidate)
pairs; the guesses are then narrowed to the remaining candidates, and if that is still too many,
to evenly spaced ones among them, so a move stays within a second or two. No preset (bc, bc5,
mm, logik, ...) reaches the budget; 6 distinct digits of 10, or 5 digits with repeats, do.
"""

from __future__ import annotations

import random
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from bullscows.knowledge import Knowledge
from bullscows.strategies.base import Strategy
from bullscows.symmetry import opening_representatives
from bullscows.universe import IndexArray

#: The most (guess, candidate) pairs one move scores before narrowing the guesses.
PAIR_BUDGET = 1_000_000_000


def guesses_to_score(knowledge: Knowledge) -> IndexArray:
    """Every code (one per class before the first guess), narrowed within ``PAIR_BUDGET``."""
    candidates = knowledge.candidates
    guesses = None if knowledge.history else opening_representatives(knowledge.rules)
    if guesses is None:
        guesses = knowledge.universe.all()
    if len(guesses) * len(candidates) <= PAIR_BUDGET:
        return guesses
    room = max(1, PAIR_BUDGET // len(candidates))
    return candidates[:: -(-len(candidates) // room)]


class PartitionHeuristic(Strategy):
    """Knuth's rule with a heuristic over partition sizes (lower cost is better)."""

    heuristic: ClassVar[str]

    def cost(self, sizes: npt.NDArray[np.int32]) -> npt.NDArray[np.float64]:
        """One cost per row of partition sizes (a row per guess)."""
        raise NotImplementedError

    def choose(self, knowledge: Knowledge, rng: random.Random) -> int:
        universe, candidates = knowledge.universe, knowledge.candidates
        guesses = guesses_to_score(knowledge)
        sizes = universe.partition_sizes(guesses, candidates)
        cost = self.cost(sizes)
        outside = ~np.isin(guesses, candidates)
        best = np.lexsort((guesses, outside, cost))[0]
        return int(guesses[best])


class Minimax(PartitionHeuristic):
    """Knuth (1976): the smallest largest part."""

    name = "minimax"
    summary = "Knuth: any code; the one whose largest part of the remaining codes is smallest"

    def cost(self, sizes: npt.NDArray[np.int32]) -> npt.NDArray[np.float64]:
        cost: npt.NDArray[np.float64] = sizes.max(axis=1).astype(np.float64)
        return cost
