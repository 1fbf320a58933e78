"""Proven-optimal play: the tree found by the exhaustive search, followed reply by reply.

One strategy per objective (``optimal``, ``optimal-worst``, ``optimal-worst-count``,
``optimal-total-worst``). The tree is a shipped one, else the tree store's, else the search's
(then stored); docs/explanation/search.md says how each objective ranks trees and how stored
trees are checked.

>>> from bullscows.outcomes import guess_counts
>>> from bullscows.rules import Rules
>>> int(guess_counts(Rules.parse("p3c4n"), OptimalTotal()).sum())
72
"""

from __future__ import annotations

import contextlib
import random
import warnings
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from bullscows.errors import BullsCowsError, BullsCowsWarning, StrategyError
from bullscows.knowledge import Knowledge
from bullscows.readers import quote_path
from bullscows.rules import Rules
from bullscows.strategies.base import Strategy
from bullscows.strategies.off_tree import advise
from bullscows.strategy_spec import StrategySpec
from bullscows.tree import DecisionTree, Node, TreeSummary, follow, load_tree
from bullscows.tree.store import (
    cache_key,
    cache_problem,
    read_shipped,
    shipped_file,
    tree_file_name,
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


def describe(name: str, consistent_only: bool, max_depth: int | None) -> str:
    """The strategy's label: its name and the options that shape its tree."""
    options = (["consistent only"] if consistent_only else []) + (
        [f"at most {max_depth} guesses"] if max_depth is not None else []
    )
    return f"{name} ({', '.join(options)})" if options else name


@lru_cache(maxsize=16)
def _tree(
    rules: Rules, name: str, objective: Objective, consistent_only: bool, max_depth: int | None
) -> Node:
    """The optimal tree's root: shipped, else cached, else searched (and cached)."""
    wanted = (rules, describe(name, consistent_only, max_depth), f"optimal-{objective}")
    shipped = shipped_file(rules, name, consistent_only, max_depth)
    try:  # the bytes the tests checked: their digest was recorded when the trees were built
        saved = None if shipped is None else load_tree(read_shipped(shipped.name))
    except (OSError, BullsCowsError) as error:  # a damaged or changed installation
        saved = None
        warnings.warn(f"{error}; it is passed over", BullsCowsWarning, stacklevel=2)
    if saved is not None and (saved.rules, saved.strategy, saved.objective) == wanted:
        return saved.root
    name_in_store = tree_file_name(rules, name, consistent_only, max_depth)
    try:
        cached = tree_store().read(name_in_store)
        problem = (
            None if cached is None else cache_problem(cached, wanted, consistent_only, max_depth)
        )
    except BullsCowsError as error:
        cached, problem = None, str(error)
    if cached is not None and problem is None:
        return cached.root
    if problem is not None:
        warnings.warn(
            f"the stored tree {quote_path(name_in_store)} is passed over: {problem}",
            BullsCowsWarning,
            stacklevel=2,
        )
    if _too_large(rules):  # only a shipped or cached tree let it past ``problem``
        raise StrategyError(
            f"{wanted[1]}: the tree saved for {rules.spec!r} cannot be read; search it again "
            f"with `bullscows tree --rules {rules.spec} --strategy {name}`"
        )
    found = search_tree(rules, name, objective, consistent_only, max_depth)
    _keep(found, name, consistent_only, max_depth)
    return found.root


def _keep(found: DecisionTree, name: str, consistent_only: bool, max_depth: int | None) -> None:
    """Keep a searched tree in the tree store with its key, if the store can take it (the
    store is a convenience: a read-only home still plays)."""
    stored = tree_file_name(found.rules, name, consistent_only, max_depth)
    keyed = replace(found, key=cache_key(found, consistent_only, max_depth))
    with contextlib.suppress(OSError, BullsCowsError):
        tree_store().write(stored, keyed)


def search_tree(
    rules: Rules,
    name: str,
    objective: Objective,
    consistent_only: bool,
    max_depth: int | None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    checkpoint: Path | None = None,
) -> DecisionTree:
    """Search for the optimal tree (``bullscows.search.optimal_tree``, which calls ``progress``
    now and then, runs on ``executor`` and keeps its answers in ``checkpoint``), as a
    ``DecisionTree`` labelled as the strategy ``name`` labels itself, stating the figures the
    search found by playing every secret down it; no tree within ``max_depth`` is a
    ``StrategyError``.

    >>> found = search_tree(Rules.parse("p3c4n"), "optimal-worst", "worst", False, None)
    >>> found.strategy, found.objective, found.summary().total, found.summary().worst
    ('optimal-worst', 'optimal-worst', 72, 4)
    >>> found.stated == found.summary()
    True
    """
    from bullscows.search import optimal_tree  # loaded only when a tree is searched
    from bullscows.search.progress import SearchStopped

    try:
        result = optimal_tree(
            rules, objective, max_depth, consistent_only, progress, executor, checkpoint
        )
    except SearchStopped:
        raise  # its budget spent (a progress callback's): the caller reports the bounds
    except BullsCowsError as error:  # no tree within max_depth, a checkpoint refused
        raise StrategyError(f"{name}: {error}") from None
    label = describe(name, consistent_only, max_depth)
    found = DecisionTree(rules, label, f"optimal-{objective}", result.tree)
    by_count = result.distribution
    counts = np.repeat(np.array(list(by_count), dtype=np.int64), list(by_count.values()))
    return replace(found, stated=TreeSummary.from_counts(counts, sum(1 for _ in found.nodes())))


def found_tree(rules: Rules, label: str, tree: Node) -> DecisionTree:
    """The best tree a search stopped by its budget found (a valid tree, not proven optimal:
    an upper bound), labelled so.

    >>> found_tree(Rules.parse("p1c1r"), "optimal", Node(0)).strategy
    'optimal, best found (not proven)'
    """
    return DecisionTree(rules, f"{label}, best found (not proven)", "upper-bound", tree)


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
        return describe(self.name, self.consistent_only, self.max_depth)

    @property
    def spec(self) -> StrategySpec:
        return StrategySpec(self.name, self.consistent_only, self.max_depth)

    def problem(self, rules: Rules) -> str | None:
        if _too_large(rules) and not self.shipped(rules) and not self.cached(rules):
            from bullscows.search.optimal import MAX_SEARCH_CODES  # said only when refused

            codes = rules.guess_rules.size
            why = f"{self.name} does not search {rules.describe()} during a game: it has "
            if codes > MAX_SEARCH_CODES:  # never advise a search that would refuse it too
                return (
                    f"{why}{codes:,} codes to guess, and the search handles at most "
                    f"{MAX_SEARCH_CODES:,}; play a heuristic such as minimax or entropy, or "
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
        keep it in the user's cache (see ``search_tree`` for the arguments)."""
        found = search_tree(
            rules, self.name, self.objective, self.consistent_only, self.max_depth, progress,
            executor, checkpoint,
        )  # fmt: skip
        _keep(found, self.name, self.consistent_only, self.max_depth)
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
