"""The coach: what the card says at each move and why, and after the game how the game
compares with the card and with the optimum for the same secret.

>>> from bullscows.rules import Rules
>>> from bullscows.strategies.card import Card
>>> rules = Rules.parse("p3c5n")
>>> card = Card(rules, "first", {(): Code("023", rules).index})
>>> print(advise(card, Knowledge.start(rules)).text())
The card says 023 (line 1: the first guess); 60 codes fit.
>>> knowledge = Knowledge.start(rules).after(Code("123", rules), Feedback(0, 1))
>>> print(advise(card, knowledge).text())  # doctest: +ELLIPSIS
The card says 014 (the game left the book; the rule: guess the first code, ...); 12 codes fit.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from bullscows.codes import Code
from bullscows.errors import StrategyError
from bullscows.feedback import Feedback, counted
from bullscows.knowledge import Knowledge, Step
from bullscows.rules import Rules
from bullscows.strategies.base import Strategy
from bullscows.strategies.card import RULE_TEXT, Card
from bullscows.strategies.card_strategy import SEARCH_LIMIT, CardStrategy
from bullscows.strategies.optimal_strategy import OptimalTotal


@dataclass(frozen=True)
class Advice:
    """The card's next guess, the line or rule that gives it, and how many codes fit."""

    guess: Code
    line: int | None  # the card's line number, or None where the rule plays
    why: str
    left: int
    off_book: bool = False  # the game left the book: a guess that was not the card's

    @property
    def brief(self) -> str:
        """The line or the rule, in a few words: ``line 3``, ``the rule, off the book``."""
        if self.line is not None:
            return f"line {self.line}"
        if self.left == 1:
            return "the only code left"
        return "the rule, off the book" if self.off_book else "the rule"

    @property
    def where(self) -> str:
        """The card line (with its number) or the rule that gives the guess."""
        return f"line {self.line}: {self.why}" if self.line is not None else self.why

    @property
    def fit(self) -> str:
        """How many codes fit every reply so far, in words: ``1,296 codes fit``."""
        return "1 code fits" if self.left == 1 else f"{self.left:,} codes fit"

    def text(self) -> str:
        return f"The card says {self.guess} ({self.where}); {self.fit}."


def advise(card: Card, knowledge: Knowledge) -> Advice:
    """What ``card`` plays next after ``knowledge``'s history (not contradictory)."""
    left = len(knowledge)
    path = card.book_path(knowledge)
    if left == 1:
        guess, line, why = int(knowledge.candidates[0]), None, "the only code that fits"
    elif path is not None and path in card.book:
        guess, line = card.book[path], card.line_numbers()[path]
        why = f"after {card.path_text(path)}" if path else "the first guess"
    else:
        guess, line = int(knowledge.candidates[0]), None
        left_book = "" if path is not None else "the game left the book; "
        why = f"{left_book}the rule: {RULE_TEXT[card.rule]}"
        if card.rule == "any":
            why += f", e.g. {knowledge.code(guess)}"
    return Advice(knowledge.code(guess), line, why, left, path is None)


@dataclass(frozen=True)
class Coached:
    """One guess of a game beside what the card said before it and the optimum's guess
    there (``None``: no optimal strategy at hand)."""

    number: int
    guess: Code
    advice: Advice
    optimum: Code | None = None

    @property
    def followed(self) -> bool:
        return self.guess == self.advice.guess

    def text(self) -> str:
        """The guess against the card's and the optimum's, in one line."""
        card = (
            "the card's" if self.followed else f"the card says {self.advice.guess} "
            f"({self.advice.where})"
        )  # fmt: skip
        best = "" if self.optimum is None else f"; the optimal strategy plays {self.optimum}"
        return f"Guess {self.number}, {self.guess}: {card}{best}."


@dataclass(frozen=True)
class Review:
    """A finished game beside the card and the optimum for its secret, move by move."""

    card: int  # guesses the card needs for this secret (its first choice where it has one)
    optimum: int | None  # guesses the optimal strategy needs (None: no optimal tree at hand)
    moves: tuple[Coached, ...] = ()

    @property
    def played(self) -> int:
        """How many guesses the game took."""
        return len(self.moves)

    @property
    def followed(self) -> int:
        """How many of the game's guesses were the card's."""
        return sum(move.followed for move in self.moves)

    def text(self) -> str:
        lines = [
            f"You took {counted(self.played, 'guess')}; {self._followed_text()} the card's.",
            f"The card takes {self.card} for this secret"
            + (f", the optimal strategy {self.optimum}." if self.optimum is not None else "."),
        ]
        return " ".join(lines)

    def _followed_text(self) -> str:
        if self.played == 1:
            return "it was" if self.followed else "it was not"
        return f"{self.followed} of them {'was' if self.followed == 1 else 'were'}"

    def lines(self) -> list[str]:
        """``text`` and, for each guess that was not the card's, what the card and the
        optimum said there."""
        return [self.text(), *(move.text() for move in self.moves if not move.followed)]


def review(card: Card, history: tuple[Step, ...], secret: Code, optimal: Strategy | None) -> Review:
    """The game of ``history`` (ending with ``secret`` guessed or not) beside the card and
    ``optimal`` (any deterministic strategy; ``None`` to leave it out), move by move."""
    rules = card.rules
    knowledge, moves = Knowledge.start(rules), []
    for number, step in enumerate(history, 1):
        best = None if optimal is None else _optimum_guess(optimal, knowledge)
        moves.append(Coached(number, step.guess, advise(card, knowledge), best))
        knowledge = knowledge.after(step.guess, step.feedback)
    best_total = None if optimal is None else guesses_for(rules, optimal, secret)
    card_total = guesses_for(rules, CardStrategy(card), secret)
    return Review(card_total, best_total, tuple(moves))


def _optimum_guess(optimal: Strategy, knowledge: Knowledge) -> Code | None:
    """What ``optimal`` plays after ``knowledge``, or ``None`` where it gives no guess (the
    review then leaves it out rather than fail the game's end)."""
    try:
        return knowledge.code(optimal.next_guess(knowledge, _rng()))
    except StrategyError:
        return None


def _rng() -> random.Random:
    """The draws of a strategy with a choice: always its first choice here."""
    return random.Random(0)


def guesses_for(rules: Rules, strategy: Strategy, secret: Code) -> int:
    """How many guesses ``strategy`` needs for ``secret`` (a random one: its first choices)."""
    knowledge, rng = Knowledge.start(rules), _rng()
    target = np.array([secret.index])
    while True:
        guess = knowledge.code(strategy.next_guess(knowledge, rng))
        reply = int(knowledge.universe.score_row(guess.index, target)[0])
        feedback = Feedback.from_index(reply, rules.length)
        knowledge = knowledge.after(guess, feedback)
        if feedback.is_win(rules.length):
            return len(knowledge.history)


def optimum_for(rules: Rules) -> Strategy | None:
    """The optimal strategy for a review, where it answers at once: a shipped or cached tree,
    or a variant of at most ``SEARCH_LIMIT`` secrets; else ``None``."""
    optimal = OptimalTotal()
    if optimal.problem(rules) is None and (
        not optimal.needs_search(rules) or rules.secret_rules.size <= SEARCH_LIMIT
    ):
        return optimal
    return None
