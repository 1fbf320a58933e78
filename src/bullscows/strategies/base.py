"""The ``Strategy`` interface: the next guess from what is known."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import ClassVar

from bullscows.errors import ContradictionError
from bullscows.knowledge import Knowledge


class Strategy(ABC):
    """Chooses the next guess (a universe index) from the current knowledge."""

    name: ClassVar[str]
    summary: ClassVar[str]
    #: Whether the same knowledge always gives the same guess (a decision tree can be built).
    deterministic: ClassVar[bool] = True

    def next_guess(self, knowledge: Knowledge, rng: random.Random) -> int:
        """The universe index of the next guess; refuses a contradictory history."""
        if knowledge.is_contradictory:
            raise ContradictionError("no code fits the replies so far", knowledge.explain())
        if len(knowledge) == 1:
            return int(knowledge.candidates[0])
        return self.choose(knowledge, rng)

    @abstractmethod
    def choose(self, knowledge: Knowledge, rng: random.Random) -> int:
        """The next guess when two or more codes remain."""

    def __repr__(self) -> str:
        return f"get_strategy({self.name!r})"
