"""The questions the search's Python levels ask of its compiled code besides ``solve``, in one
compiled entry point (``_query``; ``search_calls`` asks them and says why one). Like ``solve``
it releases the GIL, for the threads of ``search.worker``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bullscows._kernels.search_dfs import (
    _ahead,
    _best_guess,
    _bounds,
    _order,
    _parts,
    _split_key,
    ideal_of,
)
from bullscows._kernels.search_kernels import _perfect_candidate
from bullscows._kernels.search_memo import grow
from bullscows._kernels.tables import (
    ASK_AHEAD,
    ASK_AHEADS,
    ASK_BEST,
    ASK_GROW,
    ASK_IDEAL,
    ASK_ORDER,
    ASK_PARTS,
    ASK_PERFECT,
    CTX_SCORES,
    CTX_SLOTS,
)


@njit(cache=True, nogil=True)
def _query(ask, ctx, memo, codes, guesses, depth, limit, guess, bound):
    """The answer to question ``ask`` (one of ``search_calls.ASK_*``): a number and five
    arrays, as each question's caller in ``search_calls`` reads them."""
    none = np.empty(0, dtype=np.int64)
    if ask == ASK_ORDER:
        order, bounds, exact = _order(ctx, codes, guesses, depth, limit)
        return exact, order, bounds, none, none, none
    if ask == ASK_PARTS:
        ordered, starts, sizes, replies = _parts(ctx, codes, guess)
        return np.int64(0), ordered, starts, sizes, replies, none
    if ask == ASK_AHEAD:
        ordered, starts, sizes, owns, total, replies = _ahead(
            ctx, memo, codes, guess, bound, depth, limit
        )
        return total, ordered, starts, sizes, owns, replies
    if ask == ASK_BEST:
        return _best_guess(ctx, memo, codes, depth), none, none, none, none, none
    if ask == ASK_IDEAL:
        return ideal_of(ctx, bound, depth), none, none, none, none, none
    if ask == ASK_PERFECT:
        at = _perfect_candidate(ctx[CTX_SCORES], codes, ctx[CTX_SLOTS])
        return np.int64(at), none, none, none, none, none
    if ask == ASK_GROW:
        return np.int64(0), grow(memo[0], bound), none, none, none, none
    if ask == ASK_AHEADS:
        return np.int64(0), _aheads(ctx, memo, codes, guesses, depth, limit), none, none, none, none
    bounds, squares, solved, largest = _bounds(ctx, codes, guesses, depth)
    return np.int64(0), bounds, squares, solved, largest, none


@njit(cache=True)
def _aheads(ctx, memo, codes, guesses, depth, limit):
    """``_ahead``'s bound of each guess of ``guesses[:k]`` (whose own bounds are
    ``guesses[k:]``), in turn, against ``limit``; -1 for a guess splitting the codes as one
    before it does."""
    k = len(guesses) // 2
    totals = np.empty(k, dtype=np.int64)
    splits = np.empty(k, dtype=np.int64)
    distinct = 0
    for i in range(k):
        split = _split_key(ctx, codes, guesses[i])
        if np.any(splits[:distinct] == split):
            totals[i] = -1
            continue
        splits[distinct] = split
        distinct += 1
        totals[i] = _ahead(ctx, memo, codes, guesses[i], guesses[k + i], depth, limit)[4]
    return totals


__all__: list[str] = []
