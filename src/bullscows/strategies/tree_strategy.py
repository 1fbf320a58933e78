"""A strategy that plays a saved decision tree (see ``bullscows.tree``).

``get_strategy("tree:PATH")`` loads the tree from the file at ``PATH`` (JSON, or Irving notation:
a file that does not name its variant is read for the variant of the game). The strategy's
``name`` is that whole string, so that it can be made again from its name (``bench`` does so
in each worker); its ``label`` shows only the file name.

>>> from bullscows.rules import Rules
>>> from bullscows.outcomes import build_tree
>>> from bullscows.strategies import get_strategy
>>> tree = build_tree(Rules.parse("p2c3n"), get_strategy("simple"))
>>> strategy = TreeStrategy(tree, "simple.json")
>>> strategy.label, strategy.problem(Rules.parse("mm"))
('tree:simple.json', 'tree file simple.json is for p2c3n, not mm')
"""

from __future__ import annotations

import random
from pathlib import Path

from bullscows.errors import BullsCowsError, StrategyError
from bullscows.knowledge import Knowledge
from bullscows.rules import Rules
from bullscows.strategies.base import Strategy
from bullscows.tree import DecisionTree, follow, load_tree
from bullscows.tree.irving import VariantNotNamed

#: Names of the form ``tree:PATH`` name a tree file.
PREFIX = "tree:"


class TreeStrategy(Strategy):
    """Follows a decision tree along the replies of the history."""

    name = "tree"
    summary = "the guesses of a decision tree saved by `bullscows tree --out` (tree:FILE.json)"

    def __init__(self, tree: DecisionTree | None, path: str | Path) -> None:
        #: ``None`` for a file in Irving notation that does not name its variant: it is read
        #: for the variant of the game (``tree_for``).
        self.tree = tree
        self.path = Path(path)
        # The instance's name carries the file, so that get_strategy(name) makes it again.
        self.__dict__["name"] = PREFIX + str(path)

    @classmethod
    def from_file(cls, path: str | Path) -> TreeStrategy:
        """The strategy of the tree saved at ``path``."""
        try:
            return cls(load_tree(Path(path)), path)
        except VariantNotNamed:
            return cls(None, path)

    def tree_for(self, rules: Rules) -> DecisionTree:
        """The tree, read for ``rules`` when its file does not name a variant."""
        if self.tree is None or (self.unnamed and self.tree.rules != rules):
            self.tree = load_tree(self.path, rules)
            self.unnamed = True
        return self.tree

    unnamed = False

    @property
    def label(self) -> str:
        return PREFIX + self.path.name

    def problem(self, rules: Rules) -> str | None:
        try:
            tree = self.tree_for(rules)
        except BullsCowsError as error:
            return f"tree file {self.path.name} cannot be played on {rules.spec}: {error}"
        if rules != tree.rules:
            return f"tree file {self.path.name} is for {tree.rules.spec}, not {rules.spec}"
        return None

    def next_guess(self, knowledge: Knowledge, rng: random.Random) -> int:
        """The tree's guess after the history's guesses and replies."""
        problem = self.problem(knowledge.rules)
        if problem is not None:
            raise StrategyError(problem)
        return super().next_guess(knowledge, rng)

    def choose(self, knowledge: Knowledge, rng: random.Random) -> int:
        return follow(self.tree_for(knowledge.rules).root, knowledge, f"the tree {self.path.name}")
