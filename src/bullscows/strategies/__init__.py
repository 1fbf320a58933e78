"""Strategies by name.

>>> sorted(STRATEGIES)
['minimax', 'random-consistent', 'simple']
>>> get_strategy("minimax").summary
'Knuth: any code; the one whose largest part of the remaining codes is smallest'
"""

from __future__ import annotations

from bullscows.errors import StrategyError
from bullscows.strategies.base import Strategy
from bullscows.strategies.basic import RandomConsistent, Simple
from bullscows.strategies.heuristic import Minimax

STRATEGIES: dict[str, type[Strategy]] = {
    cls.name: cls for cls in (Simple, RandomConsistent, Minimax)
}
DEFAULT_STRATEGY = "minimax"


def get_strategy(name: str) -> Strategy:
    """The strategy registered under ``name``."""
    try:
        return STRATEGIES[name]()
    except KeyError:
        raise StrategyError(
            f"unknown strategy {name!r}; strategies: {', '.join(sorted(STRATEGIES))}"
        ) from None


__all__ = ["DEFAULT_STRATEGY", "STRATEGIES", "Strategy", "get_strategy"]
