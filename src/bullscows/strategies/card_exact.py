"""Exact figures of a card: every secret walked, every choice of a rule weighed.

A card's play from a position is a sum over the parts its guess splits the remaining codes
into, so its total (the guesses of all secrets together) is computed part by part:

* the ``first`` rule is deterministic: its total is that of its decision tree;
* the ``any`` rule picks uniformly among the remaining codes: its total is the exact expectation,
  ``n + (1/n) * sum over guesses g of the totals of g's parts`` (``Fraction`` on request), and its
  worst case the longest game any sequence of choices can make.

Totals of the rule alone depend only on the set of remaining codes, so they are kept per set.

>>> from bullscows.rules import Rules
>>> rule = RuleCosts(Rules.parse("p2c3n"), "first")
>>> rule.total(rule.universe.secrets), rule.worst(rule.universe.secrets)
(13, 3)
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Union

import numpy as np
import numpy.typing as npt

from bullscows.rules import Rules
from bullscows.universe import IndexArray, universe

Number = Union[int, float, Fraction]  # noqa: UP007 (an alias, read at run time)

#: The person's rules: how the next guess is picked where the card's book says nothing.
RULE_NAMES = ("first", "any")


def groups(replies: npt.NDArray[np.uint8], win: int) -> list[IndexArray]:
    """The positions of each reply in ``replies`` (in order within each group, groups by
    reply), the all-bulls reply ``win`` left out."""
    order = np.argsort(replies, kind="stable")
    ordered = replies[order]
    cuts = [0, *(np.flatnonzero(np.diff(ordered)) + 1).tolist(), len(replies)]
    return [order[a:b] for a, b in itertools.pairwise(cuts) if ordered[a] != win]


class RuleCosts:
    """The total guesses and the worst game of a rule played from a set of remaining codes,
    kept per set. ``exact`` makes the ``any`` rule's totals ``Fraction``s (else floats)."""

    def __init__(self, rules: Rules, rule: str, exact: bool = False) -> None:
        if rule not in RULE_NAMES:
            raise ValueError(f"rule {rule!r}: rules are {', '.join(RULE_NAMES)}")
        self.rules, self.rule, self.exact = rules, rule, exact
        self.universe = universe(rules)
        self.win = rules.length * (rules.length + 1)
        self._totals: dict[bytes, Number] = {}
        self._worst: dict[bytes, int] = {}

    def parts(self, guess: int, codes: IndexArray) -> list[IndexArray]:
        """``codes`` (sorted) split by their reply to ``guess``, the all-bulls part left out;
        each part stays sorted."""
        return [codes[at] for at in groups(self.universe.score_row(guess, codes), self.win)]

    def total(self, codes: IndexArray) -> Number:
        """Guesses the rule makes for all of ``codes`` together (sorted, non-empty)."""
        n = len(codes)
        if n <= 2:
            return 1 if n == 1 else 3
        key = codes.tobytes()
        found = self._totals.get(key)
        if found is None:
            found = self._first_total(codes) if self.rule == "first" else self._any_total(codes)
            self._totals[key] = found
        return found

    def _first_total(self, codes: IndexArray) -> Number:
        return len(codes) + sum(self.total(part) for part in self.parts(int(codes[0]), codes))

    def _any_total(self, codes: IndexArray) -> Number:
        n = len(codes)
        replies = self.universe.score_matrix(codes, codes)
        summed: Number = 0
        for row in replies:
            summed += sum(self.total(codes[at]) for at in groups(row, self.win))
        return n + (Fraction(summed) / n if self.exact else summed / n)

    def worst(self, codes: IndexArray) -> int:
        """The most guesses one secret of ``codes`` can need (over every choice of the rule)."""
        n = len(codes)
        if n <= 2:
            return n
        key = codes.tobytes()
        found = self._worst.get(key)
        if found is None:
            guesses = codes[:1] if self.rule == "first" else codes
            found = 1 + max(
                (self.worst(part) for g in guesses for part in self.parts(int(g), codes)),
                default=0,
            )
            self._worst[key] = found
        return found
