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
from bullscows.feedback import Feedback
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

    def text(self) -> str:
        where = f"line {self.line}: {self.why}" if self.line is not None else self.why
        return f"The card says {self.guess} ({where}); {self.left:,} codes fit."


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
    return Advice(knowledge.code(guess), line, why, left)


@dataclass(frozen=True)
class Review:
    """A finished game beside the card and the optimum for its secret."""

    played: int
    followed: int  # how many of the game's guesses were the card's
    card: int  # guesses the card needs for this secret (its first choice where it has one)
    optimum: int | None  # guesses the optimal strategy needs (None: no optimal tree at hand)

    def text(self) -> str:
        lines = [
            f"You took {self.played} guesses; {self.followed} of them were the card's.",
            f"The card takes {self.card} for this secret"
            + (f", the optimal strategy {self.optimum}." if self.optimum is not None else "."),
        ]
        return " ".join(lines)


def review(card: Card, history: tuple[Step, ...], secret: Code, optimal: Strategy | None) -> Review:
    """The game of ``history`` (ending with ``secret`` guessed or not) beside the card and
    ``optimal`` (any deterministic strategy; ``None`` to leave it out)."""
    rules = card.rules
    knowledge, followed = Knowledge.start(rules), 0
    for step in history:
        followed += advise(card, knowledge).guess == step.guess
        knowledge = knowledge.after(step.guess, step.feedback)
    best = None if optimal is None else guesses_for(rules, optimal, secret)
    return Review(len(history), followed, guesses_for(rules, CardStrategy(card), secret), best)


def guesses_for(rules: Rules, strategy: Strategy, secret: Code) -> int:
    """How many guesses ``strategy`` needs for ``secret`` (a random one: its first choices)."""
    knowledge, rng = Knowledge.start(rules), random.Random(0)
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
