"""The best opening book of each size for a rule: a search over books, exact figures.

``widths[depth]`` guesses are tried at each position (``None``: every guess), lines go at most
``len(widths)`` guesses deep, and positions of fewer than ``min_codes`` codes get no line;
docs/card.md ("How the cards are found") explains the search.

>>> from bullscows.rules import Rules
>>> search = BookSearch(Rules.parse("p3c5n"), "first", widths=(None, None))
>>> [round(total / 60, 3) for total, _ in search.frontier(3)]
[3.333, 3.283, 3.267, 3.267]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bullscows.rules import Rules
from bullscows.strategies.card_exact import Number, RuleCosts
from bullscows.universe import IndexArray

#: A book: reply path from the first guess (``()`` is the first guess) -> guess index.
Book = dict[tuple[int, ...], int]


@dataclass
class _Curve:
    """A position's best total with k lines below it, for k = 0, 1, ...: the total, the
    position's own guess (``None`` for k = 0: the rule plays) and each part's share of lines."""

    totals: list[Number]
    guesses: list[int | None]
    shares: list[tuple[tuple[int, int], ...]]  # (reply, lines) for the parts given lines
    parts: dict[int, dict[int, _Curve]]  # guess -> reply -> the part's curve


class BookSearch:
    """Finds the best book of each size for ``rule`` on ``rules`` (see the module)."""

    def __init__(
        self,
        rules: Rules,
        rule: str,
        widths: Sequence[int | None] = (6, 24, 8),
        min_codes: int = 3,
        costs: RuleCosts | None = None,
    ) -> None:
        self.rules, self.rule = rules, rule
        self.costs = costs or RuleCosts(rules, rule)
        self.widths = tuple(widths)
        self.min_codes = min_codes
        self.universe = self.costs.universe

    def frontier(self, max_lines: int) -> list[tuple[Number, Book]]:
        """For each size 0..``max_lines``: the lowest total found and its book (a book may
        have fewer lines than its size allows, when more do not help)."""
        curve = self._curve(self.universe.secrets, 0, max_lines)
        sizes = [min(k, len(curve.totals) - 1) for k in range(max_lines + 1)]  # few codes: no line
        return [(curve.totals[k], self._book(curve, k, ())) for k in sizes]

    def candidates(self, codes: IndexArray, depth: int) -> IndexArray:
        """The guesses tried at a position: the lowest expected part sizes, ties by order."""
        width = self.widths[depth]
        u = self.universe
        every = u.all()
        if width is None or width >= len(every):
            return every
        costs = u.guess_costs(every, codes, "expected-size")
        chosen = every[np.argsort(costs, kind="stable")[:width]]
        return np.unique(np.append(chosen, codes[0]))

    def _curve(self, codes: IndexArray, depth: int, lines: int) -> _Curve:
        rule_total = self.costs.total(codes)
        curve = _Curve([rule_total], [None], [()], {})
        if lines == 0 or depth >= len(self.widths) or len(codes) < self.min_codes:
            return curve
        n = len(codes)
        best: list[Number | None] = [None] * (lines + 1)
        for guess in self.candidates(codes, depth).tolist():
            replies = self.universe.score_row(guess, codes)
            parts: dict[int, _Curve] = {}
            for reply in np.unique(replies).tolist():
                if reply != self.costs.win:
                    parts[reply] = self._curve(codes[replies == reply], depth + 1, lines - 1)
            curve.parts[guess] = parts
            for k, (total, shares) in enumerate(_combine(parts, lines - 1)):
                value = n + total
                current = best[k + 1]
                if current is None or value < current:
                    best[k + 1] = value
                    while len(curve.totals) <= k + 1:
                        curve.totals.append(value)
                        curve.guesses.append(guess)
                        curve.shares.append(shares)
                    curve.totals[k + 1], curve.guesses[k + 1] = value, guess
                    curve.shares[k + 1] = shares
        for k in range(1, lines + 1):  # at most k lines: never worse than fewer
            if k >= len(curve.totals):
                curve.totals.append(curve.totals[k - 1])
                curve.guesses.append(curve.guesses[k - 1])
                curve.shares.append(curve.shares[k - 1])
            elif curve.totals[k - 1] <= curve.totals[k]:
                curve.totals[k] = curve.totals[k - 1]
                curve.guesses[k], curve.shares[k] = curve.guesses[k - 1], curve.shares[k - 1]
        return curve

    def _book(self, curve: _Curve, k: int, path: tuple[int, ...]) -> Book:
        guess = curve.guesses[k]
        if guess is None:
            return {}
        book: Book = {path: guess}
        for reply, share in curve.shares[k]:
            book.update(self._book(curve.parts[guess][reply], share, (*path, reply)))
        return book


def _combine(
    parts: dict[int, _Curve], lines: int
) -> list[tuple[Number, tuple[tuple[int, int], ...]]]:
    """Min-plus combination of the parts' curves: for each number of lines up to ``lines``,
    the lowest sum of the parts' totals and how many lines each part gets."""
    combined: list[tuple[Number, tuple[tuple[int, int], ...]]] = [(0, ())]
    for reply, part in parts.items():
        merged: list[tuple[Number, tuple[tuple[int, int], ...]] | None] = [None] * min(
            lines + 1, len(combined) + len(part.totals) - 1
        )
        for a, (total, shares) in enumerate(combined):
            for b, own in enumerate(part.totals[: lines + 1 - a]):
                value = total + own
                slot = merged[a + b]
                if slot is None or value < slot[0]:
                    merged[a + b] = (value, (*shares, (reply, b)) if b else shares)
        combined = [m for m in merged if m is not None]
    return combined
