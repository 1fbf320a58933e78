"""The questions the search's Python levels ask of its compiled code besides ``solve``: the
order of the guesses at a set, the parts of a guess, a guess's bound one guess deeper, the
best guess the memo holds, a set's ideal cost, a perfect candidate and every guess's bound.

They go through one compiled entry point (``_query``): numba loads each entry point called
from Python from its cache as a library of its own (with a copy of everything it calls), at
some milliseconds apiece, so one entry point for them all loads once. Like ``solve`` it
releases the GIL, for the threads of ``search.worker``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from bullscows._kernels.search_dfs import (
    IntArray,
    Memo,
    _ahead,
    _best_guess,
    _bounds,
    _order,
    _parts,
    ideal,
    new_memo,
)
from bullscows._kernels.search_kernels import INFEASIBLE, _perfect_candidate

# What ``_query`` is asked for.
_ASK_ORDER, _ASK_PARTS, _ASK_AHEAD, _ASK_BEST, _ASK_IDEAL, _ASK_PERFECT, _ASK_BOUNDS = range(7)
#: An argument ``_query``'s question does not read (an array of the type it takes).
_NONE = np.empty(0, dtype=np.int64)
#: A memo for the questions that read none (made on first use: typed like every memo).
_spare: list[Memo] = []


def _no_memo() -> Memo:
    if not _spare:
        _spare.append(new_memo())
    return _spare[0]


@njit(cache=True, nogil=True)
def _query(ask, ctx, memo, codes, guesses, depth, limit, guess, bound):
    """The answer to question ``ask`` (one of ``_ASK_*``): a number and five arrays, as each
    wrapper below reads them."""
    none = np.empty(0, dtype=np.int64)
    if ask == _ASK_ORDER:
        order, bounds, exact = _order(ctx, codes, guesses, depth, limit)
        return exact, order, bounds, none, none, none
    if ask == _ASK_PARTS:
        ordered, starts, sizes, replies = _parts(ctx, codes, guess)
        return np.int64(0), ordered, starts, sizes, replies, none
    if ask == _ASK_AHEAD:
        ordered, starts, sizes, owns, total, replies = _ahead(
            ctx, memo, codes, guess, bound, depth, limit
        )
        return total, ordered, starts, sizes, owns, replies
    if ask == _ASK_BEST:
        return _best_guess(ctx, memo, codes, depth), none, none, none, none, none
    if ask == _ASK_IDEAL:
        return ideal(bound, depth, ctx[1], ctx[10], ctx[11]), none, none, none, none, none
    if ask == _ASK_PERFECT:
        return np.int64(_perfect_candidate(ctx[0], codes, ctx[9])), none, none, none, none, none
    bounds, squares, solved, largest = _bounds(ctx, codes, guesses, depth)
    return np.int64(0), bounds, squares, solved, largest, none


def best_guess(ctx: tuple[Any, ...], memo: Memo, codes: IntArray, depth: int) -> int:
    """The best guess the memo holds for a set ``solve`` settled (-1 if none)."""
    return int(_query(_ASK_BEST, ctx, memo, codes, _NONE, depth, 0, 0, 0)[0])


def ahead(
    ctx: tuple[Any, ...], memo: Memo, codes: IntArray, guess: int, bound: int, depth: int
) -> tuple[int, list[tuple[int, IntArray]], list[int]]:
    """The bound of ``guess`` at ``codes`` one guess deeper (``bound`` charged each part its
    ideal; now each part is charged its ``lookahead`` within ``depth``), its parts as
    ``parts`` gives them, and each part's bound; no parts when one cannot fit within
    ``depth`` (the bound is then ``INFEASIBLE`` or more)."""
    total, ordered, starts, sizes, owns, replies = _query(
        _ASK_AHEAD, ctx, memo, codes, _NONE, depth, INFEASIBLE, guess, bound
    )
    if total >= INFEASIBLE:
        return int(total), [], []
    split = [
        (int(r), ordered[s : s + z])
        for r, s, z in zip(replies.tolist(), starts.tolist(), sizes.tolist(), strict=True)
    ]
    return int(total), split, owns.tolist()


def guess_order(
    ctx: tuple[Any, ...], codes: IntArray, guesses: IntArray, depth: int, limit: int
) -> tuple[IntArray, IntArray, int]:
    """``solve``'s order of the ``guesses`` at ``codes`` whose bound within ``depth`` is below
    ``limit`` (indices into ``guesses``), every guess's bound, and the first guess's index if
    its bound is its exact cost (else -1)."""
    exact, order, bounds = _query(_ASK_ORDER, ctx, _no_memo(), codes, guesses, depth, limit, 0, 0)[
        :3
    ]
    return order, bounds, int(exact)


def parts(ctx: tuple[Any, ...], codes: IntArray, guess: int) -> list[tuple[int, IntArray]]:
    """``codes`` split by reply to ``guess``: (reply, part) pairs, the winning reply left out."""
    _, ordered, starts, sizes, replies, _ = _query(
        _ASK_PARTS, ctx, _no_memo(), codes, _NONE, 0, 0, guess, 0
    )
    return [
        (int(r), ordered[s : s + z])
        for r, s, z in zip(replies.tolist(), starts.tolist(), sizes.tolist(), strict=True)
    ]


def ideal_cost(ctx: tuple[Any, ...], n: int, depth: int) -> int:
    """``ideal`` with the search's level capacities, weight and penalty."""
    return int(_query(_ASK_IDEAL, ctx, _no_memo(), _NONE, _NONE, depth, 0, 0, n)[0])


def perfect(ctx: tuple[Any, ...], codes: IntArray) -> int:
    """The position in ``codes`` of the first code whose replies to all of them differ, or -1
    (``search_kernels.perfect_candidate``)."""
    return int(_query(_ASK_PERFECT, ctx, _no_memo(), codes, _NONE, 0, 0, 0, 0)[0])


def bounds(
    ctx: tuple[Any, ...], codes: IntArray, guesses: IntArray, depth: int
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """``search_kernels.guess_bounds`` with the search's replies, level capacities, weight and
    penalty."""
    _, found, squares, solved, largest, _ = _query(
        _ASK_BOUNDS, ctx, _no_memo(), codes, guesses, depth, 0, 0, 0
    )
    return found, squares, solved, largest


__all__ = ["ahead", "best_guess", "bounds", "guess_order", "ideal_cost", "parts", "perfect"]
