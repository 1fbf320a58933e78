"""Secrets played down a decision procedure: the one place that splits a set of codes by
their replies to a guess, position after position.

A procedure is a tree's nodes (``tree.model.trace_secrets``, the search's ``distribution``) or
a strategy asked afresh at each position (``outcomes.walk``, ``build_tree``, ``bench``);
``walk_secrets`` says what ``visit``, ``follow`` and ``settle`` answer.

>>> import numpy as np
>>> from bullscows.universe import universe
>>> from bullscows.rules import Rules
>>> u = universe(Rules.parse("p2c3n"))
>>> def visit(position, codes, depth):  # guess the first code left, every time
...     return int(codes[0]), lambda reply, part, wanted: "later"
>>> walk_secrets("start", u.secrets, u.score_row, 6, visit).tolist()
[1, 2, 2, 2, 3, 3]
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from bullscows.universe import IndexArray, distinct

P = TypeVar("P")


class Next(Enum):
    """What ``follow`` may answer instead of a position."""

    #: The part's one code is the next guess, so its secret needs one guess more (a strategy
    #: that plays a sole candidate at once is not asked).
    WINS = "wins"


#: ``visit(position, codes, depth)``: the guess made at ``position``, where ``codes`` are still
#: possible and it is guess number ``depth``, and ``follow(reply, part, wanted)``: the position
#: after ``reply``, reached by the codes ``part`` (sorted) and by the secrets at ``wanted``
#: (positions in the secrets played); ``None`` to stop there, or ``Next.WINS``.
Follow = Callable[[int, IndexArray, IndexArray], P | Next | None]
Visit = Callable[[P, IndexArray, int], tuple[int, Follow[P]]]
#: ``settle(position, codes)``: the guesses each of ``codes`` needs from ``position`` on (its
#: guess counting 1), or ``None``.
Settle = Callable[[P, IndexArray], npt.NDArray[np.int64] | None]


def walk_secrets(
    root: P,
    codes: IndexArray,
    score: Callable[[int, IndexArray], npt.NDArray[np.uint8]],
    win: int,
    visit: Visit[P],
    targets: IndexArray | None = None,
    depth: int = 1,
    *,
    settle: Settle[P] | None = None,
) -> npt.NDArray[np.int64]:
    """Guesses each secret of ``targets`` needs from ``root`` on, or 0 for a secret the walk
    stopped short of its end; by default the secrets are ``codes``, else ``targets`` (codes
    among ``codes``, which must be sorted) in their order.

    ``score(guess, codes)`` is the reply index of ``guess`` to each code, ``win`` the index
    of all bulls, and ``depth`` the number of the guess made at ``root``. Only the replies of
    secrets played are followed, in increasing order of reply, depth first (iteratively, so
    that a walk thousands of guesses deep does not exhaust the stack).

    ``visit(position, codes, depth)`` gives the guess and ``follow(reply, part, wanted)``,
    which gives the position a reply leads to, or ``None`` to stop there (the caller records
    why: a missing branch, a task sent elsewhere), or ``Next.WINS`` when the part's one code is
    the next guess. A procedure that can play a whole position at once (a heuristic's compiled
    tree) gives ``settle(position, codes)``: the guesses each code needs from there, the
    position's own guess counting 1, or ``None`` to go move by move; it is asked where more than
    half the codes are secrets played. A secret listed twice is played twice.
    """
    wanted_codes = codes if targets is None else np.asarray(targets, dtype=np.int64)
    counts = np.zeros(len(wanted_codes), dtype=np.int64)
    stack: list[tuple[P, IndexArray, IndexArray, int]] = [
        (root, codes, np.arange(len(wanted_codes)), depth)
    ]
    while stack:
        position, here, wanted, level = stack.pop()
        settled = settle(position, here) if settle and 2 * len(wanted) > len(here) else None
        if settled is not None:
            counts[wanted] = level - 1 + settled[np.searchsorted(here, wanted_codes[wanted])]
            continue
        guess, follow = visit(position, here, level)
        if len(here) == 1 and guess == here[0]:  # the only code left: it wins
            counts[wanted] = level
            continue
        replies = score(guess, here)
        if targets is None:  # the secrets are the codes
            theirs = replies
        else:  # the secrets are among the codes (sorted): look their replies up
            theirs = replies[np.searchsorted(here, wanted_codes[wanted])]
        for reply in distinct(theirs).tolist():
            these = wanted[theirs == reply]
            if reply == win:
                counts[these] = level
                continue
            part = here[replies == reply]
            following = follow(reply, part, these)
            if following is Next.WINS:
                counts[these] = level + 1
            elif following is not None:
                stack.append((following, part, these, level + 1))
    return counts
