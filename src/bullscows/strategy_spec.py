"""A strategy and its options as one value: what a game record keeps and a command builds.

>>> spec = StrategySpec("optimal", max_depth=5)
>>> spec
StrategySpec('optimal', max_depth=5)
>>> StrategySpec.from_json(spec.to_json()) == spec
True
>>> StrategySpec.from_json({"name": "minimax", "consistent_only": "yes"})
Traceback (most recent call last):
...
bullscows.errors.StrategyError: strategy option 'consistent_only': 'yes' is not true or false
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bullscows.errors import StrategyError
from bullscows.readers import quote_value

DEFAULT_STRATEGY = "minimax"
#: Every strategy's name, as ``bullscows strategies`` lists them (``strategies.STRATEGIES``'
#: keys), for the help of commands that do not import the strategies to show it.
NAMES = (
    "simple", "random-consistent", "minimax", "expected-size", "entropy", "most-parts",
    "random", "brute-force", "cows", "optimal", "optimal-worst", "optimal-worst-count",
    "optimal-total-worst", "card",
)  # fmt: skip
#: What ``--strategy`` takes, for its help.
CHOICES = ", ".join(NAMES) + ", or a saved tree or card: tree:FILE.json, card:FILE.json"
#: Longest strategy name a record may carry (a ``tree:PATH`` name includes its path).
MAX_NAME = 4096


@dataclass(frozen=True, slots=True)
class StrategySpec:
    """A strategy's name with the options that change its play.

    ``consistent_only`` restricts a heuristic to guesses that could be the secret;
    ``max_depth`` caps the guesses of the optimal strategies. ``get_strategy(spec)`` builds it.
    """

    name: str = DEFAULT_STRATEGY
    consistent_only: bool = False
    max_depth: int | None = None

    def arguments(self) -> str:
        """The options as keyword arguments, the defaults left out."""
        options = [repr(self.name)]
        if self.consistent_only:
            options.append("consistent_only=True")
        if self.max_depth is not None:
            options.append(f"max_depth={self.max_depth}")
        return ", ".join(options)

    def __repr__(self) -> str:
        return f"StrategySpec({self.arguments()})"

    def to_json(self) -> dict[str, Any]:
        """The spec as JSON data (the defaults left out)."""
        data: dict[str, Any] = {"name": self.name}
        if self.consistent_only:
            data["consistent_only"] = True
        if self.max_depth is not None:
            data["max_depth"] = self.max_depth
        return data

    @classmethod
    def from_json(cls, data: object) -> StrategySpec:
        """A spec from ``to_json``'s data; anything else is a ``StrategyError``."""
        if not isinstance(data, dict):
            raise StrategyError(f"a strategy is an object with a name, not {quote_value(data)}")
        unknown = set(data) - {"name", "consistent_only", "max_depth"}
        if unknown:
            raise StrategyError(
                f"unknown strategy option {quote_value(min(unknown))}; "
                "options: name, consistent_only, max_depth"
            )
        name = data.get("name")
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
            raise StrategyError(f"strategy name {quote_value(name)}: give a strategy's name")
        consistent_only = data.get("consistent_only", False)
        if not isinstance(consistent_only, bool):
            raise StrategyError(
                f"strategy option 'consistent_only': {quote_value(consistent_only)} "
                "is not true or false"
            )
        depth = data.get("max_depth")
        if depth is not None and (type(depth) is not int or not 1 <= depth <= 1000):
            raise StrategyError(
                f"strategy option 'max_depth': {quote_value(depth)} is not a number of guesses "
                "from 1 to 1000"
            )
        return cls(name, consistent_only, depth)
