"""Proven-optimal play: the tree found by the exhaustive search, followed reply by reply.

``optimal`` has the lowest total of guesses over all secrets (the best average);
``optimal-worst`` needs the fewest guesses in the worst case, and then has the lowest total.
The tree is searched for once (``bullscows.search.optimal_tree``: under a second for
Mastermind) and kept in the user's cache directory (``cache_dir``) as a decision-tree file,
keyed by variant, strategy and options, so later games start at once; a file that does not
load, or is for another variant, is searched again. Variants the search cannot finish quickly
yet are refused by ``problem``.

>>> from bullscows.outcomes import guess_counts
>>> from bullscows.rules import Rules
>>> int(guess_counts(Rules.parse("p3c4n"), OptimalTotal()).sum())
72
"""

from __future__ import annotations

import os
import random
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from bullscows.errors import BullsCowsError, StrategyError
from bullscows.knowledge import Knowledge
from bullscows.rules import Rules
from bullscows.strategies.base import Strategy
from bullscows.tree import DecisionTree, Node, follow, load_tree

if TYPE_CHECKING:
    from bullscows.search.optimal import Objective
    from bullscows.search.tree import Tree

#: The largest variant whose optimal tree the search finds in seconds (4 distinct of 9 took
#: about half a minute; Bulls & Cows, 5040 codes, does not finish in minutes yet).
MAX_OPTIMAL_CODES = 3100


def cache_dir() -> Path:
    """Where searched trees are kept: ``$BULLSCOWS_CACHE``, else ``$XDG_CACHE_HOME/bullscows``,
    else ``~/.cache/bullscows``."""
    if os.environ.get("BULLSCOWS_CACHE"):
        return Path(os.environ["BULLSCOWS_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "bullscows"


def cache_file(
    rules: Rules, name: str, consistent_only: bool, max_depth: int | None = None
) -> Path:
    """The file of one variant's optimal tree (the spec made safe for a file name)."""
    spec = re.sub(r"[^A-Za-z0-9._-]", lambda m: f"%{ord(m.group()):02x}", rules.spec)
    options = ("--consistent-only" if consistent_only else "") + (
        f"--depth-{max_depth}" if max_depth is not None else ""
    )
    return cache_dir() / f"{spec}--{name}{options}.json"


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
    path = cache_file(rules, name, consistent_only, max_depth)
    try:
        saved = load_tree(path)
        if saved.rules == rules and saved.objective == f"optimal-{objective}":
            return saved.root
    except (OSError, BullsCowsError):
        pass  # no file yet, or one that cannot be trusted: search again
    from bullscows.search import optimal_tree  # the search uses the strategies' bounds

    try:
        found = optimal_tree(rules, objective, max_depth, consistent_only).tree
    except ValueError as error:  # no tree within max_depth
        raise StrategyError(f"{name}: {error}") from None
    root = _node(found)
    label = describe(name, consistent_only, max_depth)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        DecisionTree(rules, label, f"optimal-{objective}", root).save(path)
    except OSError:
        pass  # the cache is a convenience: a read-only home still plays
    return root


def _node(tree: Tree) -> Node:
    return Node(tree["guess"], {reply: _node(sub) for reply, sub in tree["replies"].items()})


class OptimalSearch(Strategy):
    """Follows the optimal tree of the variant along the history's replies."""

    objective: ClassVar[Objective]

    def __init__(self, consistent_only: bool = False, max_depth: int | None = None) -> None:
        self.consistent_only = consistent_only
        self.max_depth = max_depth

    @property
    def label(self) -> str:
        return describe(self.name, self.consistent_only, self.max_depth)

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
        node = _tree(
            knowledge.rules, self.name, self.objective, self.consistent_only, self.max_depth
        )
        return follow(node, knowledge, f"the {self.label} tree")


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
