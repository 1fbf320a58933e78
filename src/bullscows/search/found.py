"""A search's tree as a ``DecisionTree`` labelled as the optimal strategy that asked for it
(``tree.store.tree_label``): proven (``search_tree``), or the best found before a budget ran
out (``found_tree``).

>>> found_tree(Rules.parse("p1c1r"), "optimal", Node(0)).strategy
'optimal, best found (not proven)'
"""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import Executor
from dataclasses import replace
from pathlib import Path

import numpy as np

from bullscows.errors import BullsCowsError, StrategyError
from bullscows.rules import Rules
from bullscows.search.optimal import optimal_tree
from bullscows.search.options import Objective
from bullscows.search.progress import Progress, SearchStopped
from bullscows.tree import DecisionTree, Node, TreeSummary
from bullscows.tree.store import tree_label


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
    """Search for the optimal tree (``search.optimal_tree``, which calls ``progress`` now and
    then, runs on ``executor`` and keeps its answers in ``checkpoint``), as a
    ``DecisionTree`` labelled as the strategy ``name`` labels itself, stating the figures the
    search found by playing every secret down it; no tree within ``max_depth`` is a
    ``StrategyError``.

    >>> found = search_tree(Rules.parse("p3c4n"), "optimal-worst", "worst", False, None)
    >>> found.strategy, found.objective, found.summary().total, found.summary().worst
    ('optimal-worst', 'optimal-worst', 72, 4)
    >>> found.stated == found.summary()
    True
    """
    try:
        result = optimal_tree(
            rules, objective, max_depth, consistent_only, progress, executor, checkpoint
        )
    except SearchStopped:
        raise  # its budget spent (a progress callback's): the caller reports the bounds
    except BullsCowsError as error:  # no tree within max_depth, a checkpoint refused
        raise StrategyError(f"{name}: {error}") from None
    label = tree_label(name, consistent_only, max_depth)
    found = DecisionTree(rules, label, f"optimal-{objective}", result.tree)
    return stating(found, result.distribution)


def stating(tree: DecisionTree, by_count: Mapping[int, int]) -> DecisionTree:
    """``tree`` stating the figures a search found by playing every secret down it:
    ``by_count`` is how many secrets take each number of guesses.

    >>> stating(DecisionTree(Rules.parse("p1c2r"), "x", "y", Node(0, {0: Node(1)})),
    ...         {1: 1, 2: 1}).stated.total
    3
    """
    counts = np.repeat(np.array(list(by_count), dtype=np.int64), list(by_count.values()))
    return replace(tree, stated=TreeSummary.from_counts(counts, sum(1 for _ in tree.nodes())))


def found_tree(rules: Rules, label: str, tree: Node) -> DecisionTree:
    """The best tree a search stopped by its budget found (a valid tree, not proven optimal:
    an upper bound), labelled so (``label``: the strategy's)."""
    return DecisionTree(rules, f"{label}, best found (not proven)", "upper-bound", tree)


__all__ = ["found_tree", "search_tree", "stating"]
