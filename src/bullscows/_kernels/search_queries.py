"""The questions the search's Python levels ask of its compiled code besides ``solve``, one
compiled entry point each (``search_calls`` asks them, by the same names). Like ``solve``
each releases the GIL, for the threads of ``search.worker``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bullscows._kernels.search_dfs import (
    _ahead,
    _best_guess,
    _bounds,
    _first_split,
    _order,
    _parts,
    _perfect,
    _split_key,
    _table_size,
    ideal_of,
)
from bullscows._kernels.search_memo import grow
from bullscows._kernels.tables import CTX_STOP, STOPPED


@njit(cache=True, nogil=True)
def guess_order(ctx, codes, guesses, depth, limit):
    """``solve``'s order of the guesses of bound below ``limit`` (indices into ``guesses``),
    every guess's bound, and the first's index if its bound is exact, else -1."""
    return _order(ctx, codes, guesses, depth, limit)


@njit(cache=True, nogil=True)
def parts(ctx, codes, guess):
    """``codes`` split by reply to ``guess``: the codes in parts, each part's start and size,
    and each part's reply (the winning reply left out)."""
    return _parts(ctx, codes, guess)


@njit(cache=True, nogil=True)
def ahead(ctx, memo, codes, guess, bound, depth, limit):
    """``guess``'s parts as ``parts`` gives them (no sizes once it cannot beat ``limit``),
    each part's bound one guess deeper, the guess's bound with them, and the parts' replies."""
    return _ahead(ctx, memo, codes, guess, bound, depth, limit)


@njit(cache=True, nogil=True)
def aheads(ctx, memo, codes, guesses, bounds, depth, limit):
    """``ahead``'s bound of each of ``guesses`` (whose own bounds are ``bounds``), in turn,
    against ``limit``; -1 for a guess splitting the codes as one before it does. Once
    ``ctx[CTX_STOP][0]`` is set (read before each guess) it gives ``STOPPED`` for every guess
    left, the last one included."""
    k = len(guesses)
    totals = np.empty(k, dtype=np.int64)
    size = _table_size(k)
    splits = np.zeros(size, dtype=np.int64)
    stop = ctx[CTX_STOP]
    for i in range(k):
        if stop[0]:
            totals[i:] = STOPPED
            break
        if not _first_split(splits, 0, size, _split_key(ctx, codes, guesses[i])):
            totals[i] = -1
            continue
        totals[i] = _ahead(ctx, memo, codes, guesses[i], bounds[i], depth, limit)[4]
    return totals


@njit(cache=True, nogil=True)
def best_guess(ctx, memo, codes, depth):
    """The best guess the memo holds for a set ``solve`` settled (-1 if none)."""
    return _best_guess(ctx, memo, codes, depth)


@njit(cache=True, nogil=True)
def ideal_cost(ctx, n, depth):
    """No tree settles ``n`` codes within ``depth`` guesses for less (``search_dfs.ideal``)."""
    return ideal_of(ctx, n, depth)


@njit(cache=True, nogil=True)
def perfect(ctx, codes):
    """The position in ``codes`` of the first code whose replies to all of them differ, or
    -1."""
    return np.int64(_perfect(ctx, codes))


@njit(cache=True, nogil=True)
def bounds(ctx, codes, guesses, depth):
    """Each guess's bound at ``codes`` within ``depth``, the sum of its parts' squared sizes,
    whether it may win, and its largest part (``search_kernels.guess_bounds``)."""
    return _bounds(ctx, codes, guesses, depth)


@njit(cache=True, nogil=True)
def grow_memo(memo, slots):
    """A memo table of ``slots`` slots holding every set of ``memo``'s."""
    return grow(memo[0], slots)


__all__: list[str] = []
