"""Proven-optimal play: the tree found by the exhaustive search, followed reply by reply.

``optimal`` has the lowest total of guesses over all secrets (the best average);
``optimal-worst`` needs the fewest guesses in the worst case, and then has the lowest total.
The tree is searched for once per variant and process (``bullscows.search.optimal_tree``),
which takes under a second for Mastermind; variants the search cannot finish quickly yet are
refused by ``problem``.

>>> from bullscows.outcomes import guess_counts
>>> from bullscows.rules import Rules
>>> int(guess_counts(Rules.parse("p3c4n"), OptimalTotal()).sum())
72
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import TYPE_CHECKING, ClassVar

from bullscows.errors import StrategyError
from bullscows.knowledge import Knowledge
from bullscows.rules import Rules
from bullscows.strategies.base import Strategy

if TYPE_CHECKING:
    from bullscows.search.optimal import Objective
    from bullscows.search.tree import Tree

#: The largest variant whose optimal tree the search finds in seconds (4 distinct of 9 took
#: about half a minute; Bulls & Cows, 5040 codes, does not finish in minutes yet).
MAX_OPTIMAL_CODES = 3100


@lru_cache(maxsize=16)
def _tree(rules: Rules, objective: Objective, consistent_only: bool) -> Tree:
    from bullscows.search import optimal_tree  # the search uses the strategies' bounds

    return optimal_tree(rules, objective, consistent_only=consistent_only).tree


class OptimalSearch(Strategy):
    """Follows the optimal tree of the variant along the history's replies."""

    objective: ClassVar[Objective]

    def __init__(self, consistent_only: bool = False) -> None:
        self.consistent_only = consistent_only

    @property
    def label(self) -> str:
        return f"{self.name} (consistent only)" if self.consistent_only else self.name

    def problem(self, rules: Rules) -> str | None:
        if rules.size > MAX_OPTIMAL_CODES:
            return (
                f"{self.name} cannot search {rules.describe()} yet: it has {rules.size:,} "
                f"codes, and the search finishes in reasonable time for at most "
                f"{MAX_OPTIMAL_CODES:,}"
            )
        return None

    def choose(self, knowledge: Knowledge, rng: random.Random) -> int:
        problem = self.problem(knowledge.rules)
        if problem is not None:
            raise StrategyError(problem)
        node = _tree(knowledge.rules, self.objective, self.consistent_only)
        length = knowledge.rules.length
        for number, step in enumerate(knowledge.history, 1):
            reply = step.feedback.index(length)
            if step.guess.index != node["guess"] or reply not in node["replies"]:
                raise StrategyError(
                    f"{self.name} can only continue its own games: guess #{number} was "
                    f"{step.guess}, where its tree plays {knowledge.code(node['guess'])}"
                )
            node = node["replies"][reply]
        return node["guess"]


class OptimalTotal(OptimalSearch):
    """The lowest total (best average) over all secrets, proven by exhaustive search."""

    name = "optimal"
    objective = "total"
    summary = "the tree with the lowest total of guesses over all secrets (exhaustive search)"


class OptimalWorst(OptimalSearch):
    """The fewest guesses that always suffice, then the lowest total among such trees."""

    name = "optimal-worst"
    objective = "worst"
    summary = "the fewest guesses that always suffice, then the lowest total (exhaustive search)"
