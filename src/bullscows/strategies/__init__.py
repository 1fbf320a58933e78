"""Strategies by name.

>>> get_strategy("minimax").summary
'Knuth: the guess whose largest part of the remaining codes is smallest'
>>> get_strategy("entropy", consistent_only=True).label
'entropy (consistent only)'

A name ``tree:PATH`` plays the decision tree saved in the JSON file ``PATH`` (see
``bullscows.tree``); its rules are checked by ``problem(rules)`` and when it is first used.
"""

from __future__ import annotations

from bullscows.errors import BullsCowsError, StrategyError
from bullscows.strategies.base import Strategy
from bullscows.strategies.basic import RandomConsistent, Simple
from bullscows.strategies.heuristic import (
    Entropy,
    ExpectedSize,
    Minimax,
    MostParts,
    PartitionHeuristic,
)
from bullscows.strategies.naive import BruteForce, CowsOnly, RandomGuess
from bullscows.strategies.optimal_strategy import OptimalSearch, OptimalTotal, OptimalWorst
from bullscows.strategies.tree_strategy import PREFIX as TREE_PREFIX
from bullscows.strategies.tree_strategy import TreeStrategy

STRATEGIES: dict[str, type[Strategy]] = {
    cls.name: cls
    for cls in (
        Simple,
        RandomConsistent,
        Minimax,
        ExpectedSize,
        Entropy,
        MostParts,
        RandomGuess,
        BruteForce,
        CowsOnly,
        OptimalTotal,
        OptimalWorst,
    )
}
DEFAULT_STRATEGY = "minimax"


def get_strategy(name: str, *, consistent_only: bool = False) -> Strategy:
    """A fresh strategy registered under ``name``.

    ``consistent_only`` restricts a heuristic's guesses to the remaining candidates; the other
    strategies guess candidates anyway (or ignore replies altogether) and are not changed by it.
    ``tree:PATH`` loads the decision tree saved at ``PATH`` (``consistent_only`` is ignored).
    """
    if name.startswith(TREE_PREFIX):
        path = name[len(TREE_PREFIX) :]
        if not path:
            raise StrategyError(f"strategy {name!r}: give the tree file, e.g. tree:mm.json")
        try:
            return TreeStrategy.from_file(path)
        except StrategyError:
            raise
        except BullsCowsError as error:
            raise StrategyError(f"strategy {name!r}: {error}") from None
    try:
        cls = STRATEGIES[name]
    except KeyError:
        raise StrategyError(
            f"unknown strategy {name!r}; strategies: {', '.join(STRATEGIES)}, tree:FILE.json"
        ) from None
    if issubclass(cls, PartitionHeuristic | OptimalSearch):
        return cls(consistent_only=consistent_only)
    return cls()


__all__ = ["DEFAULT_STRATEGY", "STRATEGIES", "Strategy", "get_strategy"]
