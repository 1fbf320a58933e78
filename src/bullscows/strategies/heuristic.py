"""Strategies that look one guess ahead: score every code by how it splits the candidates.

Knuth's rule: every code of the variant may be the guess (with ``consistent_only``, only the
remaining candidates); each is scored by a function of the sizes of the parts into which its
replies split the remaining candidates (a part for the all-bulls reply counts like any other);
ties go to a code that is still a candidate, then to the lowest code in the variant's order. The
first guess follows the same rule.

Two shortcuts change no result: only one guess per class of guesses equivalent under the
symmetries of the history is scored (``symmetry.guess_classes``), and when a remaining candidate
splits the others into parts of one code each, no guess can do better, so the lowest such
candidate is played at once.

On very large variants a move would mean scoring more than ``PAIR_BUDGET`` (guess, candidate)
pairs; the guesses are then narrowed to the remaining candidates, and if that is still too many,
to evenly spaced ones among them, so a move stays within a second or two. No preset (bc, bc5,
mm, logik, ...) reaches the budget; 6 distinct digits of 10, or 5 digits with repeats, may.
"""

from __future__ import annotations

import random
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from bullscows.knowledge import Knowledge
from bullscows.strategies.base import Strategy
from bullscows.symmetry import guess_classes
from bullscows.universe import IndexArray

#: The most (guess, candidate) pairs one move scores before narrowing the guesses.
PAIR_BUDGET = 1_000_000_000


def guesses_to_score(knowledge: Knowledge, consistent_only: bool = False) -> IndexArray:
    """One guess per symmetry class (candidates only, if asked), narrowed within the budget."""
    candidates = knowledge.candidates
    guesses = guess_classes(knowledge)
    if consistent_only:
        guesses = guesses[knowledge.is_candidate[guesses]]
    if len(guesses) * len(candidates) <= PAIR_BUDGET:
        return guesses
    if len(candidates) ** 2 <= PAIR_BUDGET:
        return guesses[knowledge.is_candidate[guesses]]
    room = max(1, PAIR_BUDGET // len(candidates))
    return candidates[:: -(-len(candidates) // room)]


def best_guess(
    guesses: IndexArray, cost: npt.NDArray[np.int64], is_candidate: npt.NDArray[np.bool_]
) -> int:
    """The lowest-cost guess; among equals a candidate, then the lowest code (guesses sorted)."""
    ties = guesses[cost == cost.min()]
    possible = ties[is_candidate[ties]]
    return int(possible[0] if len(possible) else ties[0])


class PartitionHeuristic(Strategy):
    """Knuth's rule with a heuristic over partition sizes (lower cost is better)."""

    #: The heuristic's number in the compiled kernel (see ``_kernels.compiled.HEURISTICS``).
    heuristic: ClassVar[str]

    def __init__(self, consistent_only: bool = False) -> None:
        self.consistent_only = consistent_only

    @property
    def label(self) -> str:
        return f"{self.name} (consistent only)" if self.consistent_only else self.name

    def choose(self, knowledge: Knowledge, rng: random.Random) -> int:
        universe, candidates = knowledge.universe, knowledge.candidates
        if len(candidates) <= knowledge.rules.replies:
            # A candidate that leaves at most one code per reply cannot be beaten or tied by
            # a non-candidate; the lowest such candidate is the rule's choice.
            worst = universe.guess_costs(candidates, candidates, "minimax")
            perfect = np.flatnonzero(worst == 1)
            if len(perfect):
                return int(candidates[perfect[0]])
        guesses = guesses_to_score(knowledge, self.consistent_only)
        cost = universe.guess_costs(guesses, candidates, self.heuristic)
        return best_guess(guesses, cost, knowledge.is_candidate)

    def __repr__(self) -> str:
        options = ", consistent_only=True" if self.consistent_only else ""
        return f"get_strategy({self.name!r}{options})"


class Minimax(PartitionHeuristic):
    """Knuth (1976): the smallest largest part."""

    name = "minimax"
    heuristic = "minimax"
    summary = "Knuth: the guess whose largest part of the remaining codes is smallest"


class ExpectedSize(PartitionHeuristic):
    """Irving (1979): the smallest expected size of the part the secret falls in."""

    name = "expected-size"
    heuristic = "expected-size"
    summary = "Irving: the guess with the smallest sum of squared part sizes"


class Entropy(PartitionHeuristic):
    """The most information: the largest entropy of the part sizes."""

    name = "entropy"
    heuristic = "entropy"
    summary = "the guess whose part sizes have the largest entropy"


class MostParts(PartitionHeuristic):
    """Kooi (2005): the most non-empty parts."""

    name = "most-parts"
    heuristic = "most-parts"
    summary = "Kooi: the guess that splits the remaining codes into the most parts"
