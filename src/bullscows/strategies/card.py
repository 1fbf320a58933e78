"""A card: a strategy a person can carry out with pencil and paper.

An opening book (a fixed first guess and, for some replies, a fixed next guess: one line each,
keyed by the replies to the book's own guesses) followed by a rule, ``first`` or ``any``, for
every position the book does not cover; a game that leaves the book goes on with the rule
(docs/card.md).

>>> from bullscows.rules import Rules
>>> card = Card(Rules.parse("p2c3n"), "first", {(): 1})
>>> print("\\n".join(card.describe()))
Start with 02.
Then: guess the first code, in reading order, that fits every reply.
>>> card.figures()
CardFigures(secrets=6, total=13, worst=3)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from bullscows.codes import Code
from bullscows.errors import BullsCowsError, StrategyError
from bullscows.feedback import Feedback, default_style
from bullscows.knowledge import Knowledge
from bullscows.readers import load_json, quote_value, read_named
from bullscows.rules import Rules
from bullscows.strategies.card_exact import RULE_NAMES, Number, RuleCosts
from bullscows.universe import IndexArray, universe

FORMAT = "bullscows-card"
FRONTIER_FORMAT = "bullscows-card-frontier"
VERSION = 1
#: What each rule asks of the person, as the card prints it.
RULE_TEXT = {
    "first": "guess the first code, in reading order, that fits every reply",
    "any": "guess any code that fits every reply",
}
#: Longest book a card file may hold.
MAX_LINES = 1000


@dataclass(frozen=True)
class CardFigures:
    """A card's exact figures over every secret: guesses in all (an expectation for the
    ``any`` rule) and the longest game."""

    secrets: int
    total: Number
    worst: int

    @property
    def average(self) -> float:
        return float(self.total) / self.secrets

    def to_json(self) -> dict[str, Any]:
        total = self.total
        exact = [total.numerator, total.denominator] if isinstance(total, Fraction) else None
        return {
            "secrets": self.secrets,
            "total": float(total) if exact else total,
            "average": round(self.average, 6),
            "worst": self.worst,
            **({"total_fraction": exact} if exact else {}),
        }


@dataclass(frozen=True)
class Card:
    """An opening book (reply path -> guess index; ``()`` is the first guess) and a rule."""

    rules: Rules
    rule: str
    book: Mapping[tuple[int, ...], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.rule not in RULE_NAMES:
            raise StrategyError(
                f"card rule {quote_value(self.rule)}: rules are {', '.join(RULE_NAMES)}"
            )
        win = Feedback.win(self.rules.length).index(self.rules.length)
        for path in self.book:
            if win in path:
                raise StrategyError(f"card line {self.path_text(path)}: the game is over there")
            if path and path[:-1] not in self.book:
                raise StrategyError(f"card line {self.path_text(path)}: no line leads to it")

    @property
    def lines(self) -> int:
        return len(self.book)

    def book_path(self, knowledge: Knowledge) -> tuple[int, ...] | None:
        """The replies to the book's guesses so far, or ``None`` once the game left the book
        (a guess that was not the book's, or one the rule chose)."""
        path: tuple[int, ...] = ()
        for step in knowledge.history:
            if self.book.get(path) != step.guess.index:
                return None
            path = (*path, step.feedback.index(self.rules.length))
        return path

    def book_guess(self, knowledge: Knowledge) -> int | None:
        """The book's guess for the history, or ``None`` where the rule plays."""
        path = self.book_path(knowledge)
        return None if path is None else self.book.get(path)

    def ordered(self) -> list[tuple[int, ...]]:
        """The book's positions in the card's order: by depth, then by replies."""
        return sorted(self.book, key=lambda p: (len(p), p))

    def line_numbers(self) -> dict[tuple[int, ...], int]:
        """Each position's line number on the card (from 1)."""
        return {path: number for number, path in enumerate(self.ordered(), 1)}

    def figures(self, costs: RuleCosts | None = None, exact: bool = False) -> CardFigures:
        """The exact total and worst game over every secret (``exact``: a ``Fraction`` for the
        ``any`` rule's expectation)."""
        costs = costs or RuleCosts(self.rules, self.rule, exact)
        secrets = universe(self.rules).secrets
        total, worst = self._walk(costs, secrets, ())
        return CardFigures(len(secrets), total, worst)

    def _walk(self, costs: RuleCosts, codes: IndexArray, path: tuple[int, ...]) -> tuple[Any, int]:
        guess = self.book.get(path)
        if len(codes) == 1 or guess is None:
            return costs.total(codes), costs.worst(codes)
        replies = costs.universe.score_row(guess, codes)
        total: Any = len(codes)
        worst = 1
        for reply in sorted(set(replies.tolist()) - {costs.win}):
            part_total, part_worst = self._walk(costs, codes[replies == reply], (*path, reply))
            total += part_total
            worst = max(worst, 1 + part_worst)
        return total, worst

    def checks(self) -> float | None:
        """The codes a person following the ``first`` rule reads per rule guess, on average
        over every secret's game (``None`` for the ``any`` rule): from the code after the
        rule's last guess (or the first code) up to the first that fits every reply."""
        if self.rule != "first":
            return None
        u = universe(self.rules)
        secrets, win = u.secrets, Feedback.win(self.rules.length).index(self.rules.length)
        read = guesses = 0
        stack: list[tuple[IndexArray, tuple[int, ...] | None, int]] = [(secrets, (), 0)]
        while stack:
            codes, path, start = stack.pop()
            guess = self.book.get(path) if path is not None and len(codes) > 1 else None
            if guess is None:
                guess = int(codes[0])
                at = int(np.searchsorted(secrets, guess))
                read += len(codes) * (at - start + 1)
                guesses += len(codes)
                path, start = None, at + 1
            replies = u.score_row(guess, codes)
            for reply in set(replies.tolist()) - {win}:
                after = None if path is None else (*path, reply)
                stack.append((codes[replies == reply], after, start))
        return read / guesses if guesses else 0.0

    # --- text -----------------------------------------------------------------------------
    def reply_text(self, reply: int) -> str:
        """A reply as the variant's players write it, compactly: ``1B2C``, or ``1B2W`` where
        the variant's replies are black and white pegs (``feedback.default_style``)."""
        style = "pegs" if default_style(self.rules) == "pegs" else "bc"
        return Feedback.from_index(reply, self.rules.length).format(style)

    def path_text(self, path: tuple[int, ...]) -> str:
        """The replies leading to a line, each after its guess: ``0123 1B0C, 4567 0B2C`` (pegs,
        ``1B0W``, in Mastermind variants)."""
        u = universe(self.rules)
        steps = []
        for depth, reply in enumerate(path):
            guess = self.book.get(path[:depth])
            steps.append(f"{u.text(guess) if guess is not None else '?'} {self.reply_text(reply)}")
        return ", ".join(steps)

    def describe(self) -> list[str]:
        """The card as a person reads it: one line per book line, then the rule."""
        u = universe(self.rules)
        out = []
        for path in self.ordered():
            guess = u.text(self.book[path])
            out.append(
                f"After {self.path_text(path)}: guess {guess}." if path else f"Start with {guess}."
            )
        out.append(f"{'Then' if self.book else 'Always'}: {RULE_TEXT[self.rule]}.")
        return out

    # --- files ----------------------------------------------------------------------------
    def to_json(self, figures: CardFigures | None = None) -> dict[str, Any]:
        u = universe(self.rules)
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.spec,
            "rule": self.rule,
            "book": [
                {"after": [self.reply_text(r) for r in path], "guess": u.text(guess)}
                for path, guess in sorted(
                    self.book.items(), key=lambda item: (len(item[0]), item[0])
                )
            ],
        }
        if figures is not None:
            data["figures"] = figures.to_json()
        return data

    @classmethod
    def from_json(cls, data: object, where: str = "card") -> Card:
        """A card from ``to_json``'s data; anything else is a ``StrategyError`` naming ``where``."""
        try:
            return _read(data)
        except BullsCowsError as error:
            raise StrategyError(f"{where}: {error}") from None


def _read(data: object) -> Card:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise StrategyError(f'not a card (no "format": "{FORMAT}")')
    if data.get("version") != VERSION:
        raise StrategyError(f"version {quote_value(data.get('version'))} is not {VERSION}")
    spec = data.get("rules")
    if not isinstance(spec, str):
        raise StrategyError(f"rules {quote_value(spec)}: give a variant's spec")
    rules = Rules.parse(spec)
    book = data.get("book")
    if not isinstance(book, list) or len(book) > MAX_LINES:
        raise StrategyError(f"the book is a list of at most {MAX_LINES} lines")
    lines: dict[tuple[int, ...], int] = {}
    for number, line in enumerate(book, 1):
        after = line.get("after") if isinstance(line, dict) else None
        guess = line.get("guess") if isinstance(line, dict) else None
        if not isinstance(after, list) or not all(isinstance(r, str) for r in after):
            raise StrategyError(f'line {number}: "after" is a list of replies such as "1B2C"')
        if not isinstance(guess, str):
            raise StrategyError(f'line {number}: "guess" is a code such as {quote_value("0123")}')
        path = tuple(Feedback.parse(r, rules).index(rules.length) for r in after)
        if path in lines:
            raise StrategyError(f"line {number}: a second line after {quote_value(after)}")
        lines[path] = Code(guess, rules).index
    return Card(rules, str(data.get("rule")), lines)


def card_text(card: Card, figures: CardFigures | None = None) -> str:
    """The card's JSON text with its figures (``figures``: where they are known already)."""
    return json.dumps(card.to_json(figures or card.figures()), indent=1) + "\n"


#: What a card file holds, for the error of one that holds no JSON.
CARD_HOLDS = "a card file holds a card as JSON, as `bullscows card --out FILE.json` writes it"


def load_card(text: str, where: str) -> Card:
    """A card from JSON text; errors name ``where``."""
    return Card.from_json(load_json(text, where, holds=CARD_HOLDS), where)


def read_card(path: str | Path) -> Card:
    """The card saved in the file at ``path`` (by ``bullscows card --out``); errors name it."""
    return load_card(*read_named(path, "card file"))


def frontier_text(cards: list[Card]) -> str:
    """The best card of each size (0, 1, 2, ... lines at most) as one JSON file."""
    data = {
        "format": FRONTIER_FORMAT,
        "version": VERSION,
        "cards": [card.to_json(card.figures()) for card in cards],
    }
    return json.dumps(data, indent=1) + "\n"


def load_frontier(text: str, where: str) -> list[Card]:
    """The cards of a ``frontier_text`` file; errors name ``where``."""
    data = load_json(text, where)
    if not isinstance(data, dict) or data.get("format") != FRONTIER_FORMAT:
        raise StrategyError(f'{where}: not a list of cards (no "format": "{FRONTIER_FORMAT}")')
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards:
        raise StrategyError(f'{where}: "cards" is a list of cards')
    return [Card.from_json(card, f"{where} card {number}") for number, card in enumerate(cards)]
