"""Cards as strategies: ``card`` plays the card shipped for the game's variant (the best found
within ``SHIPPED_LINES`` lines), ``card:PATH`` a card saved by ``bullscows card --out``.

Variants with no shipped card and at most ``SEARCH_LIMIT`` secrets get one found on first use
(a quick search, kept for the process); larger ones are refused with the command that makes one.

>>> from bullscows.rules import Rules
>>> strategy = CardStrategy()
>>> strategy.card_for(Rules.parse("bc")).lines <= SHIPPED_LINES
True
"""

from __future__ import annotations

import random
from functools import lru_cache
from importlib import resources
from pathlib import Path

from bullscows.errors import StrategyError
from bullscows.knowledge import Knowledge
from bullscows.rules import Rules
from bullscows.strategies.base import Strategy, file_strategy
from bullscows.strategies.card import Card, load_frontier, read_card
from bullscows.strategies.card_exact import RuleCosts, fully_symmetric
from bullscows.strategies.card_search import BookSearch

#: Names of the form ``card:PATH`` name a card file.
PREFIX = "card:"
#: The lines of a shipped card at most.
SHIPPED_LINES = 20
#: Variants with at most this many secrets get a card searched on first use.
SEARCH_LIMIT = 400
#: What a player at a terminal does where no card is at hand (``search_problem``'s remedy).
MAKE_CARD = (
    "make one with `bullscows card --rules {spec} --search --out card.json` and play it with "
    "--strategy card:card.json"
)
#: The ``any`` rule's card is searched for at most ``SEARCH_LIMIT`` secrets, or for at most
#: this many where its figures are kept per class of sets (``card_exact.fully_symmetric``):
#: bc's 5,040 take a minute of computing (docs/card.md).
ANY_LIMIT = 5040
#: The quick search's guesses tried at the first and second guess.
QUICK_WIDTHS = (4, 8)


def shipped_file(rules: Rules) -> Path | None:
    """The cards shipped for ``rules`` (``bullscows/data/cards/SPEC.json``: the best of each
    size up to ``SHIPPED_LINES`` lines, written by benchmarks/card_frontier.py), if any."""
    found = resources.files("bullscows") / "data" / "cards" / f"{rules.spec}.json"
    return Path(str(found)) if found.is_file() else None


def shipped_specs() -> list[str]:
    """The variants cards ship for.

    >>> shipped_specs()
    ['bc', 'mm']
    """
    folder = resources.files("bullscows") / "data" / "cards"
    return sorted(item.name.removesuffix(".json") for item in folder.iterdir()
                  if item.name.endswith(".json"))  # fmt: skip


def best_cards(rules: Rules, remedy: str = MAKE_CARD) -> tuple[Card, ...]:
    """The best ``first``-rule card of each size from 0 to ``SHIPPED_LINES`` lines: shipped,
    or found now (``QUICK_WIDTHS``) on a small variant; else a ``StrategyError`` that says
    ``remedy`` (``search_problem``)."""
    problem = search_problem(rules, remedy)
    if problem is not None:
        raise StrategyError(problem)
    return _best_cards(rules)


@lru_cache(maxsize=32)
def _best_cards(rules: Rules) -> tuple[Card, ...]:
    path = shipped_file(rules)
    if path is not None:
        return tuple(load_frontier(path.read_text(encoding="utf-8"), f"card file {path.name}"))
    return search_cards(rules, "first", SHIPPED_LINES, QUICK_WIDTHS)


def search_cards(
    rules: Rules,
    rule: str,
    lines: int,
    widths: tuple[int | None, ...],
    costs: RuleCosts | None = None,
) -> tuple[Card, ...]:
    """The best card found of each size from 0 to ``lines`` lines (``BookSearch``; ``costs``:
    the rule's figures kept so far, to share with the cards' ``figures``)."""
    found = BookSearch(rules, rule, widths=widths, costs=costs).frontier(lines)
    return tuple(Card(rules, rule, book) for _, book in found)


def any_problem(rules: Rules) -> str | None:
    """Why the ``any`` rule's card of ``rules`` is not searched for (too many secrets for its
    exact expectation), or ``None``.

    >>> any_problem(Rules.parse("bc")) is None, any_problem(Rules.parse("bc-nolead")) is None
    (True, False)
    """
    size = rules.secret_rules.size
    if size <= SEARCH_LIMIT or (size <= ANY_LIMIT and fully_symmetric(rules)):
        return None
    return (
        f"the any rule's exact expectation is computed for variants of at most {ANY_LIMIT:,} "
        f"secrets whose every position allows every symbol, else {SEARCH_LIMIT}; "
        f"{rules.spec} has {size:,}"
    )


def best_card(rules: Rules, lines: int = SHIPPED_LINES, remedy: str = MAKE_CARD) -> Card:
    """The best card of at most ``lines`` lines of ``best_cards``."""
    cards = best_cards(rules, remedy)
    return cards[min(lines, len(cards) - 1)]


def search_problem(rules: Rules, remedy: str = MAKE_CARD) -> str | None:
    """Why ``best_cards`` cannot give the cards of ``rules`` at once, or ``None``; the reason
    ends with ``remedy``, what the player can do instead (``{spec}``: the variant's spec,
    ``{shipped}``: the variants cards ship for, ``{limit}``: ``SEARCH_LIMIT``).

    >>> search_problem(Rules.parse("p4c7r"), "choose {shipped} or {limit} secrets at most")
    'no card ships for p4c7r; choose bc, mm or 400 secrets at most'
    """
    if shipped_file(rules) is not None or rules.secret_rules.size <= SEARCH_LIMIT:
        return None
    shipped = ", ".join(shipped_specs())
    instead = remedy.format(spec=rules.spec, shipped=shipped, limit=SEARCH_LIMIT)
    return f"no card ships for {rules.spec}; {instead}"


class CardStrategy(Strategy):
    """Plays a card: its book's guess where it has a line, else its rule."""

    name = "card"
    summary = (
        "a card a person can follow: an opening book, then the first code that fits "
        "(card:FILE.json for a saved card)"
    )

    def __init__(self, card: Card | None = None, path: str | Path | None = None) -> None:
        self.card = card
        self.path = None if path is None else Path(path)
        if path is not None:
            self.__dict__["name"] = PREFIX + str(path)
        if card is not None:
            self.__dict__["deterministic"] = card.rule == "first"

    @classmethod
    def from_file(cls, path: str | Path) -> CardStrategy:
        return cls(read_card(path), path)

    @property
    def label(self) -> str:
        return self.name if self.path is None else PREFIX + self.path.name

    def card_for(self, rules: Rules) -> Card:
        """The card this strategy plays on ``rules``."""
        if self.card is not None:
            if self.card.rules != rules:
                raise StrategyError(f"{self.label} is for {self.card.rules.spec}, not {rules.spec}")
            return self.card
        return best_card(rules)

    def problem(self, rules: Rules) -> str | None:
        if self.card is not None:
            if self.card.rules != rules:
                return f"{self.label} is for {self.card.rules.spec}, not {rules.spec}"
            return None
        return search_problem(rules)

    def choose(self, knowledge: Knowledge, rng: random.Random) -> int:
        card = self.card_for(knowledge.rules)
        guess = card.book_guess(knowledge)
        if guess is not None:
            return guess
        if card.rule == "first":
            return int(knowledge.candidates[0])
        return int(knowledge.candidates[rng.randrange(len(knowledge))])


def coach_card(rules: Rules, strategy: Strategy | None = None) -> Card:
    """The card a coach follows on ``rules``: the one ``strategy`` plays when it plays a card
    (``card:FILE.json``, made for a variant no card ships for), else ``best_card(rules)``."""
    if isinstance(strategy, CardStrategy):
        return strategy.card_for(rules)
    return best_card(rules)


def card_strategy(name: str) -> CardStrategy:
    """The strategy named ``card`` or ``card:PATH``."""
    if name == CardStrategy.name:
        return CardStrategy()
    return file_strategy(name, PREFIX, CardStrategy.from_file, "bc.json")
