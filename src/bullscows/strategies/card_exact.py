"""Exact figures of a card: every secret walked, every choice of a rule weighed.

A card's play from a position is a sum over the parts its guess splits the remaining codes
into, so its total (the guesses of all secrets together) is computed part by part:

* the ``first`` rule is deterministic: its total is that of its decision tree;
* the ``any`` rule picks uniformly among the remaining codes: its total is the exact expectation,
  ``n + (1/n) * sum over guesses g of the totals of g's parts`` (``Fraction`` on request), and its
  worst case the longest game any sequence of choices can make.

Totals of the rule alone depend only on the set of remaining codes, so they are kept per set;
the ``any`` rule's (total and worst case alike) depend only on the set's shape, so in a variant
whose every position allows every symbol they are kept per class of sets equal under renaming
symbols and reordering positions (``_kernels.set_keys``).

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
#: A set whose symbols tie in more arrangements than this is kept under its own codes.
TIES = 720


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
        self.symmetric = rule == "any" and fully_symmetric(rules)
        if self.symmetric:  # what ``key`` relabels codes with; no other rule needs them
            self._digits = self.universe.codes.astype(np.int64)
            self._perms = np.array(list(itertools.permutations(range(rules.length))), np.int64)
        self.sets = 0  # sets whose figures were computed (not found kept)

    def key(self, codes: IndexArray) -> bytes:
        """What ``codes``' figures are kept under: their canonical key where every relabelling
        of symbols and positions is a symmetry of the rule (else the codes themselves)."""
        if self.symmetric and len(self._perms) * len(codes) <= 2**24:
            # compiled by numba: loaded only by the rule that needs it, so that a heuristic
            # tree (which imports the card strategies) loads no numba
            from bullscows._kernels.set_keys import set_key

            out = np.empty(len(codes), dtype=np.int64)
            if set_key(self._digits[codes], self._perms, len(self.rules.symbols), TIES, out):
                return b"=" + out.tobytes()
        return codes.tobytes()

    def parts(self, guess: int, codes: IndexArray) -> list[IndexArray]:
        """``codes`` (sorted) split by their reply to ``guess``, the all-bulls part left out;
        each part stays sorted."""
        return [codes[at] for at in groups(self.universe.score_row(guess, codes), self.win)]

    def total(self, codes: IndexArray) -> Number:
        """Guesses the rule makes for all of ``codes`` together (sorted, non-empty)."""
        if self.rule == "any":
            return self._any(codes)[0]
        n = len(codes)
        if n <= 2:
            return 1 if n == 1 else 3
        key = codes.tobytes()
        found = self._totals.get(key)
        if found is None:
            self.sets += 1
            first = self.parts(int(codes[0]), codes)
            found = self._totals[key] = n + sum(self.total(part) for part in first)
        return found

    def worst(self, codes: IndexArray) -> int:
        """The most guesses one secret of ``codes`` can need (over every choice of the rule)."""
        if self.rule == "any":
            return self._any(codes)[1]
        n = len(codes)
        if n <= 2:
            return n
        key = codes.tobytes()
        found = self._worst.get(key)
        if found is None:
            first = self.parts(int(codes[0]), codes)
            found = self._worst[key] = 1 + max((self.worst(p) for p in first), default=0)
        return found

    def _any(self, codes: IndexArray) -> tuple[Number, int]:
        """The ``any`` rule's total (the expectation over a uniform choice at every guess)
        and worst case (over every choice) for ``codes``, in one pass over its guesses."""
        n = len(codes)
        if n <= 2:
            return (1, 1) if n == 1 else (3, 2)
        key = self.key(codes)
        found = self._totals.get(key)
        if found is not None:
            return found, self._worst[key]
        self.sets += 1
        guesses, weights = self._guesses(codes)
        summed: Number = 0
        worst = 0
        for row, weight in zip(self.universe.score_matrix(guesses, codes), weights, strict=True):
            for at in groups(row, self.win):
                part_total, part_worst = self._any(codes[at])
                summed += weight * part_total
                worst = max(worst, part_worst)
        total = n + (Fraction(summed) / n if self.exact else summed / n)
        self._totals[key], self._worst[key] = total, 1 + worst
        return total, 1 + worst

    def _guesses(self, codes: IndexArray) -> tuple[IndexArray, list[int]]:
        """The guesses the ``any`` rule may make from ``codes``, one per class of equivalent
        guesses with the class's size where that is known: every secret left, in a fully
        symmetric variant (one per orbit of the codes under the variant's symmetries)."""
        if not (self.symmetric and len(codes) == len(self.universe.secrets)):
            return codes, [1] * len(codes)
        orbits: dict[bytes, list[int]] = {}
        for code in codes.tolist():
            orbits.setdefault(self.key(np.array([code])), []).append(code)
        return np.array([o[0] for o in orbits.values()]), [len(o) for o in orbits.values()]


def fully_symmetric(rules: Rules) -> bool:
    """Whether renaming symbols and reordering positions maps the variant onto itself: every
    position allows every symbol, and only secrets are guessed."""
    every = set(rules.symbols)
    return rules.guess_rules == rules.secret_rules and all(
        set(rules.allowed_at(p)) == every for p in range(rules.length)
    )
