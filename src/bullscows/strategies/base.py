"""The ``Strategy`` interface: the next guess from what is known."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, TypeVar

import numpy as np
import numpy.typing as npt

from bullscows.errors import BullsCowsError, StrategyError
from bullscows.knowledge import Knowledge
from bullscows.readers import quote_path
from bullscows.rules import Rules
from bullscows.strategy_spec import StrategySpec
from bullscows.universe import IndexArray

if TYPE_CHECKING:
    from bullscows.tree.model import Node


@dataclass(frozen=True, slots=True)
class Subtree:
    """A strategy's whole play from a position: the guesses each candidate needs from there
    (``counts[i]`` for the i-th candidate, the position's own guess counting 1), the tree's
    root and its number of nodes."""

    counts: npt.NDArray[np.int64]
    root: Node
    nodes: int


class Strategy(ABC):
    """Chooses the next guess (a universe index) from the current knowledge.

    A strategy object may keep state for one game (``get_strategy`` makes a fresh one), but
    that state must be derivable from the history, so that undo works.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    #: Whether the same knowledge always gives the same guess (a decision tree can be built).
    deterministic: ClassVar[bool] = True
    #: Whether the guesses depend only on how many were made (see ``sequence``).
    ignores_replies: ClassVar[bool] = False
    #: Where the last guess came from when not from the strategy's own rule (an optimal
    #: strategy's game off its tree: ``strategies.off_tree``), for people; else ``None``.
    source: str | None = None

    @property
    def label(self) -> str:
        """The name with the options that change its play, for tables and trees."""
        return self.name

    @property
    def plays_sole_candidate(self) -> bool:
        """Whether the strategy guesses the last remaining code as soon as only one is left."""
        return type(self).next_guess is Strategy.next_guess

    def problem(self, rules: Rules) -> str | None:
        """Why this strategy cannot play ``rules``, or ``None`` when it can."""
        return None

    def needs_search(self, rules: Rules) -> bool:
        """Whether its first move on ``rules`` runs a long search first (an optimal strategy
        whose tree is neither shipped nor cached): what a server asks before it starts such a
        game, to refuse or queue it. Every other move of every strategy answers at once."""
        return False

    def depth_at_least(self, rules: Rules) -> int:
        """A lower bound, from sizes alone, on the guesses its worst game on ``rules`` needs
        (so that a tree too deep to keep is refused before it is built)."""
        return 1

    def next_guess(self, knowledge: Knowledge, rng: random.Random) -> int:
        """The universe index of the next guess; refuses a contradictory history."""
        knowledge.refuse_contradiction()
        if len(knowledge) == 1:
            return int(knowledge.candidates[0])
        return self.choose(knowledge, rng)

    @abstractmethod
    def choose(self, knowledge: Knowledge, rng: random.Random) -> int:
        """The next guess when two or more codes remain."""

    def subtree(self, knowledge: Knowledge) -> Subtree | None:
        """The whole play from ``knowledge`` (not contradictory) at once, when the strategy
        can build it faster than move by move (``None`` otherwise): what a tree or a bench
        walks. It must be the tree ``next_guess`` plays, a part of one code guessed next."""
        return None

    @property
    def spec(self) -> StrategySpec:
        """The name and options that make this strategy again (``get_strategy(spec)``)."""
        return StrategySpec(self.name)

    def __repr__(self) -> str:
        return f"get_strategy({self.spec.arguments()})"


class ReplyBlindStrategy(Strategy, ABC):
    """A strategy whose guesses ignore the replies (it still stops at all bulls)."""

    ignores_replies = True

    def next_guess(self, knowledge: Knowledge, rng: random.Random) -> int:
        """The next guess of the sequence, however few codes remain."""
        knowledge.refuse_contradiction()
        return self.choose(knowledge, rng)

    def choose(self, knowledge: Knowledge, rng: random.Random) -> int:
        return int(self.sequence(knowledge.rules, rng, len(knowledge.history), 1)[0])

    @abstractmethod
    def sequence(self, rules: Rules, rng: random.Random, start: int, count: int) -> IndexArray:
        """Guesses number ``start`` to ``start + count - 1`` (0-based) of a game; with a random
        strategy, each call draws new ones from ``rng``."""


S = TypeVar("S", bound=Strategy)


def file_strategy(name: str, prefix: str, load: Callable[[str], S], example: str) -> S:
    """The strategy ``name`` (``prefix`` and a path) names, read by ``load(path)``; a
    ``StrategyError`` quoting ``name`` without a path or where the file cannot be read.

    >>> file_strategy("tree:", "tree:", print, "mm.json")
    Traceback (most recent call last):
    ...
    bullscows.errors.StrategyError: strategy 'tree:': give the tree file, e.g. tree:mm.json
    """
    path = name[len(prefix) :]
    if not path:
        raise StrategyError(
            f"strategy {quote_path(name)}: give the {prefix.rstrip(':')} file, "
            f"e.g. {prefix}{example}"
        )
    try:
        return load(path)
    except StrategyError:
        raise
    except BullsCowsError as error:
        raise StrategyError(f"strategy {quote_path(name)}: {error}") from None
