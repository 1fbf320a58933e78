"""Bounds for variants the search cannot settle: a proven lower bound on the lowest total, by
the search's own admissible bound at the root, and an upper bound from the best heuristic tree.

The lower bound is computed without a full score matrix, so that it reaches variants beyond
the search's limit; docs/results.md ("Bounds") explains it.

>>> from bullscows.rules import Rules
>>> found = root_bound(Rules.parse("mm"))
>>> found.lower, [found.text(guess) for guess, _ in found.firsts]
(5429, ['1111', '1112', '1122', '1123', '1234'])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from bullscows._kernels.tables import level_caps
from bullscows.feedback import reply_count, valid_replies
from bullscows.rules import Rules
from bullscows.search.bounds import ideal_cost
from bullscows.symmetry import guess_classes
from bullscows.universe import distinct, universe

#: Told, for each first guess in turn, its index among them, how many there are and its bound.
FirstProgress = Callable[[int, int, int], None]


@dataclass(frozen=True, slots=True)
class RootBound:
    """The lower bound on the lowest total of ``rules`` and, for one first guess of each
    class, the bound of a tree that opens with it (``firsts``: (guess, bound))."""

    rules: Rules
    lower: int
    firsts: tuple[tuple[int, int], ...]

    def text(self, guess: int) -> str:
        """A first guess as the game writes it."""
        return universe(self.rules).text(guess)


def root_bound(rules: Rules, progress: FirstProgress | None = None) -> RootBound:
    """The search's bound at the root of ``rules`` (see the module docstring): no tree
    costs less than ``lower``."""
    from bullscows._kernels import search_kernels  # numba: only here, not where searches import

    u = universe(rules)
    secrets = u.secrets
    n = len(secrets)
    win = rules.length * (rules.length + 1)
    valid = np.array([r for r in valid_replies(rules) if r != win], dtype=np.uint8)
    caps = level_caps(reply_count(rules), covering=n)
    depth = n + 1  # no depth cap: a tree is never deeper than it has codes
    firsts = guess_classes(rules, ())
    found = []
    for number, first in enumerate(firsts.tolist()):
        replies = u.score_row(first, secrets)
        seconds = guess_classes(rules, (first,))
        scores = u.score_matrix(seconds, secrets)  # one row per second guess
        rank = np.arange(len(seconds), dtype=np.int64)
        total = n
        for reply in distinct(replies).tolist():
            if reply == win:
                continue
            where = np.flatnonzero(replies == reply)
            if len(where) < 3:  # one code costs 1, two cost 3: their ideal
                total += ideal_cost(len(where), depth, len(valid) + 1)
                continue
            # The part's codes as rows, each holding its reply to every second guess.
            part = np.ascontiguousarray(scores[:, where].T)
            codes = np.arange(len(where), dtype=np.int64)
            bounds = search_kernels.guess_bounds(part, rank, codes, valid, win, caps, depth)[0]
            total += int(bounds.min())
        found.append((first, total))
        if progress is not None:
            progress(number, len(firsts), total)
    return RootBound(rules, min(bound for _, bound in found), tuple(found))
