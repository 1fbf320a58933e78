"""How many guesses a deterministic strategy needs for every secret of a variant.

The strategy is walked as a decision tree: one guess per node, one branch per reply, so each
position is decided once however many secrets pass through it.

>>> from bullscows.strategies import get_strategy
>>> counts = guess_counts(Rules.parse("moo2,2"), get_strategy("simple"))
>>> counts.tolist()
[1, 2, 3, 2]
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt

from bullscows.errors import StrategyError
from bullscows.feedback import Feedback
from bullscows.knowledge import Knowledge, Step
from bullscows.rules import Rules
from bullscows.strategies.base import Strategy


def guess_counts(rules: Rules, strategy: Strategy) -> npt.NDArray[np.int64]:
    """``counts[i]``: guesses the strategy needs when the secret is code ``i`` (the last counts)."""
    if not strategy.deterministic:
        raise StrategyError(
            f"strategy {strategy.name!r} is random: it has no single outcome per secret"
        )
    knowledge = Knowledge.start(rules)
    counts = np.zeros(len(knowledge.universe), dtype=np.int64)
    _walk(knowledge, strategy, 1, counts)
    return counts


def _walk(
    knowledge: Knowledge, strategy: Strategy, depth: int, counts: npt.NDArray[np.int64]
) -> None:
    rules, universe = knowledge.rules, knowledge.universe
    guess_index = strategy.next_guess(knowledge, random.Random(0))
    guess = knowledge.code(guess_index)
    replies = universe.score_row(guess_index, knowledge.candidates)
    win = Feedback.win(rules.length).index(rules.length)
    for reply in np.unique(replies):
        part = knowledge.candidates[replies == reply]
        if reply == win:
            counts[part] = depth
            continue
        step = Step(guess, Feedback.from_index(int(reply), rules.length))
        _walk(Knowledge(rules, (*knowledge.history, step), part), strategy, depth + 1, counts)


def distribution(counts: npt.NDArray[np.int64]) -> dict[int, int]:
    """How many secrets took 1, 2, 3, ... guesses.

    >>> distribution(np.array([1, 2, 3, 2]))
    {1: 1, 2: 2, 3: 1}
    """
    values, times = np.unique(counts, return_counts=True)
    return {int(v): int(t) for v, t in zip(values, times, strict=True)}
