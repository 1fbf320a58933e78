"""Strategies by name.

>>> get_strategy("minimax").summary
'Knuth: the guess whose largest part of the remaining codes is smallest'
>>> get_strategy("entropy", consistent_only=True).label
'entropy (consistent only)'

A name ``tree:PATH`` plays the decision tree saved in the JSON file ``PATH`` (see
``bullscows.tree``); its rules are checked by ``problem(rules)`` and when it is first used.
A name ``card:PATH`` plays the card saved in ``PATH`` (``bullscows.strategies.card``).
"""

from __future__ import annotations

from bullscows.errors import StrategyError
from bullscows.readers import did_you_mean, quote
from bullscows.strategies.base import Strategy, file_strategy
from bullscows.strategies.basic import RandomConsistent, Simple
from bullscows.strategies.card_strategy import PREFIX as CARD_PREFIX
from bullscows.strategies.card_strategy import CardStrategy, card_strategy
from bullscows.strategies.heuristic import (
    Entropy,
    ExpectedSize,
    Minimax,
    MostParts,
    PartitionHeuristic,
)
from bullscows.strategies.naive import BruteForce, CowsOnly, RandomGuess
from bullscows.strategies.optimal_strategy import (
    OptimalSearch,
    OptimalTotal,
    OptimalTotalWorst,
    OptimalWorst,
    OptimalWorstCount,
)
from bullscows.strategies.tree_strategy import PREFIX as TREE_PREFIX
from bullscows.strategies.tree_strategy import TreeStrategy
from bullscows.strategy_spec import DEFAULT_STRATEGY, StrategySpec

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
        OptimalWorstCount,
        OptimalTotalWorst,
        CardStrategy,
    )
}


#: The names of strategies read from a file, besides ``STRATEGIES``.
FILE_FORMS = ("tree:FILE.json", "card:FILE.json")


def registered(name: str, forms: tuple[str, ...] = ()) -> type[Strategy]:
    """The strategy registered under ``name``, else a ``StrategyError`` quoting it with the
    closest name and every name (and ``forms``: what else the caller accepts).

    >>> registered("minmax")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bullscows.errors.StrategyError: unknown strategy 'minmax' (did you mean 'minimax'?); ...
    """
    found = STRATEGIES.get(name)
    if found is None:
        raise StrategyError(
            f"unknown strategy {quote(name)}{did_you_mean(name, STRATEGIES)}; strategies: "
            f"{', '.join([*STRATEGIES, *forms])}"
        )
    return found


def get_strategy(
    name: str | StrategySpec, *, consistent_only: bool = False, max_depth: int | None = None
) -> Strategy:
    """A fresh strategy registered under ``name`` (or made as a ``StrategySpec`` says).

    ``consistent_only`` restricts a heuristic's guesses to the remaining candidates; the other
    strategies guess candidates anyway (or ignore replies altogether) and are not changed by it.
    ``tree:PATH`` loads the decision tree saved at ``PATH`` (``consistent_only`` is ignored).
    ``max_depth`` caps the guesses of the optimal strategies, and only theirs.

    >>> get_strategy(StrategySpec("optimal", max_depth=5))
    get_strategy('optimal', max_depth=5)
    """
    if isinstance(name, StrategySpec):
        spec = name
        name, consistent_only, max_depth = spec.name, spec.consistent_only, spec.max_depth
    if max_depth is not None and not issubclass(STRATEGIES.get(name, Strategy), OptimalSearch):
        raise StrategyError(
            f"a depth cap ({max_depth}) applies to the optimal strategies, not {quote(name)}"
        )
    if name.startswith(CARD_PREFIX):
        return card_strategy(name)
    if name.startswith(TREE_PREFIX):
        return file_strategy(name, TREE_PREFIX, TreeStrategy.from_file, "mm.json")
    cls = STRATEGIES.get(name) or registered(name, FILE_FORMS)
    if issubclass(cls, OptimalSearch):
        return cls(consistent_only=consistent_only, max_depth=max_depth)
    if issubclass(cls, PartitionHeuristic):
        return cls(consistent_only=consistent_only)
    return cls()


__all__ = [
    "DEFAULT_STRATEGY",
    "FILE_FORMS",
    "STRATEGIES",
    "Strategy",
    "StrategySpec",
    "get_strategy",
    "registered",
]
