"""Strategies that guess a remaining candidate without looking ahead."""

from __future__ import annotations

import random

from bullscows.knowledge import Knowledge
from bullscows.strategies.base import Strategy


class Simple(Strategy):
    """The first remaining candidate in the variant's order (uLisp's ``computer-choose``)."""

    name = "simple"
    summary = "the first code, in the variant's order, that fits every reply"

    def choose(self, knowledge: Knowledge, rng: random.Random) -> int:
        return int(knowledge.candidates[0])


class RandomConsistent(Strategy):
    """A random remaining candidate (the J ``moo`` program)."""

    name = "random-consistent"
    summary = "a random code that fits every reply"
    deterministic = False

    def choose(self, knowledge: Knowledge, rng: random.Random) -> int:
        return int(knowledge.candidates[rng.randrange(len(knowledge))])
