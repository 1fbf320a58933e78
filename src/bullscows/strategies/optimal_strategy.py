"""Proven-optimal play: the tree found by the exhaustive search, followed reply by reply.

One strategy per objective (``optimal``, ``optimal-worst``, ``optimal-worst-count``,
``optimal-total-worst``). The tree is a shipped one, else the tree store's
(``tree.store.stored_tree``), else the search's (``search.found``, then stored);
docs/explanation/search.md says how each objective ranks trees and how stored trees are
checked.

>>> from bullscows.outcomes import guess_counts
>>> from bullscows.rules import Rules
>>> int(guess_counts(Rules.parse("p3c4n"), OptimalTotal()).sum())
72
"""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from bullscows.errors import StrategyError
from bullscows.knowledge import Knowledge
from bullscows.rules import Rules
from bullscows.strategies.base import Strategy
from bullscows.strategies.off_tree import advise
from bullscows.strategy_spec import StrategySpec
from bullscows.tree import DecisionTree, Node, follow
from bullscows.tree.store import (
    keep_tree,
    shipped_file,
    stored_tree,
    tree_file_name,
    tree_label,
    tree_store,
)

if TYPE_CHECKING:  # processes are for searches only: not imported to play or build trees
    from concurrent.futures import Executor

    from bullscows.search.optimal import Objective, Progress

#: The largest variant whose optimal tree a game searches for by itself (4 distinct of 9,
#: 3,024 codes: about 2 s; Bulls & Cows, 5,040 codes: about 35 s, and shipped). Larger ones
#: are searched with ``bullscows tree`` (progress, processes, checkpoints), then played from
#: the cache.
MAX_OPTIMAL_CODES = 5040


@lru_cache(maxsize=16)
def _tree(
    rules: Rules, name: str, objective: Objective, consistent_only: bool, max_depth: int | None
) -> Node:
    """The optimal tree's root: shipped, else stored, else searched (and stored)."""
    kept = stored_tree(rules, name, objective, consistent_only, max_depth)
    if kept is not None:
        return kept
    if _too_large(rules):  # ``problem`` let it past for a tree shipped or stored: unreadable
        raise StrategyError(
            f"{tree_label(name, consistent_only, max_depth)}: the tree saved for "
            f"{rules.spec!r} cannot be read; search it again with "
            f"`bullscows tree --rules {rules.spec} --strategy {name}`"
        )
    return _search(rules, name, objective, consistent_only, max_depth).root


def _search(
    rules: Rules, name: str, objective: Objective, consistent_only: bool, max_depth: int | None,
    **searching: Any,
) -> DecisionTree:  # fmt: skip
    """The tree searched now (``search.found.search_tree``, which takes ``searching``: its
    progress, executor and checkpoint), kept in the tree store."""
    from bullscows.search.found import search_tree  # loaded only when a tree is searched

    found = search_tree(rules, name, objective, consistent_only, max_depth, **searching)
    keep_tree(found, name, consistent_only, max_depth)
    return found


def _too_large(rules: Rules) -> bool:
    """Whether a game would wait too long for the search of ``rules``: every code that may be
    guessed is a row of its score matrix."""
    return rules.guess_rules.size > MAX_OPTIMAL_CODES


class OptimalSearch(Strategy):
    """Follows the optimal tree of the variant along the history's replies."""

    objective: ClassVar[Objective]

    def __init__(self, consistent_only: bool = False, max_depth: int | None = None) -> None:
        self.consistent_only = consistent_only
        self.max_depth = max_depth

    @property
    def label(self) -> str:
        return tree_label(self.name, self.consistent_only, self.max_depth)

    @property
    def spec(self) -> StrategySpec:
        return StrategySpec(self.name, self.consistent_only, self.max_depth)

    def problem(self, rules: Rules) -> str | None:
        if _too_large(rules) and not self.shipped(rules) and not self.cached(rules):
            from bullscows.search.scores import WHOLE_MATRIX_CODES  # said only when refused

            codes = rules.guess_rules.size
            why = f"{self.name} does not search {rules.describe()} during a game: it has "
            if codes > WHOLE_MATRIX_CODES:  # never advise a search that would not end
                return (
                    f"{why}{codes:,} codes to guess, and a search is advised for at most "
                    f"{WHOLE_MATRIX_CODES:,}; play a heuristic such as minimax or entropy, or "
                    "a tree of your own (tree:FILE)"
                )
            return (
                f"{why}{codes:,} codes to guess (at most {MAX_OPTIMAL_CODES:,}); search it "
                f"first with `bullscows tree --rules {rules.spec} --strategy {self.name}`"
            )
        return None

    def needs_search(self, rules: Rules) -> bool:
        """Whether no tree is shipped or cached for ``rules``: the first move searches.

        >>> OptimalTotal().needs_search(Rules.parse("bc"))
        False
        """
        return not (self.shipped(rules) or self.cached(rules))

    def cached(self, rules: Rules) -> bool:
        """Whether the user's cache holds this strategy's tree for ``rules``."""
        name = tree_file_name(rules, self.name, self.consistent_only, self.max_depth)
        return tree_store().has(name)

    def search(
        self,
        rules: Rules,
        progress: Progress | None = None,
        executor: Executor | None = None,
        checkpoint: Path | None = None,
    ) -> DecisionTree:
        """Search for (prove) this strategy's tree now, whatever is shipped or cached, and
        keep it in the user's cache (see ``search.found.search_tree`` for the arguments)."""
        found = _search(
            rules, self.name, self.objective, self.consistent_only, self.max_depth,
            progress=progress, executor=executor, checkpoint=checkpoint,
        )  # fmt: skip
        _tree.cache_clear()
        return found

    def shipped(self, rules: Rules) -> bool:
        """Whether the package ships this strategy's tree for ``rules`` (no search needed)."""
        return shipped_file(rules, self.name, self.consistent_only, self.max_depth) is not None

    def choose(self, knowledge: Knowledge, rng: random.Random) -> int:
        problem = self.problem(knowledge.rules)
        if problem is not None:
            raise StrategyError(problem)
        node = _tree(
            knowledge.rules, self.name, self.objective, self.consistent_only, self.max_depth
        )
        self.source = None
        try:
            return follow(node, knowledge, f"the {self.label} tree")
        except StrategyError:  # a game the tree does not play: advice all the same
            advice = advise(node, knowledge, self.label)
            self.source = advice.source
            return advice.guess


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


class OptimalWorstCount(OptimalSearch):
    """The fewest guesses that always suffice, then the fewest secrets needing that many, then
    the lowest total (a lexicographic objective)."""

    name = "optimal-worst-count"
    objective = "worst-count"
    summary = (
        "the fewest guesses that always suffice, then the fewest secrets needing them, then the "
        "lowest total (exhaustive search)"
    )


class OptimalTotalWorst(OptimalSearch):
    """The lowest total, then the lowest worst case among such trees."""

    name = "optimal-total-worst"
    objective = "total-worst"
    summary = "the lowest total of guesses, then the fewest that always suffice (exhaustive search)"
