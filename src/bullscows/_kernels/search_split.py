"""One guess at a set tried by the compiled search against an incumbent that other threads
improve while it runs: a slow set's guesses shared among workers (``search.split``).

The incumbent is one int64, ``cost * ranks + rank`` of the best tree found so far (``rank``:
its first guess's place in the search's order of guesses), so that the lowest incumbent is
the tree the search on one thread finds (the first guess of the lowest cost). A guess of rank
``r`` must cost less than ``ceiling((incumbent - r) / ranks)`` to beat it.

>>> from bullscows._kernels.tables import FAIL
>>> incumbent = np.array([20 * 5 + 3, 5])  # cost 20, found by the guess of rank 3
>>> limit(incumbent, 1), limit(incumbent, 4)  # an earlier guess may tie, a later must beat
(21, 20)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bullscows._kernels.search_dfs import _ahead, _child_guesses, solve
from bullscows._kernels.tables import CTX_CAPPED, FAIL, MEMO_FULL, STOPPED, beat

#: What the guess of ``rank`` must cost less than to beat the incumbent (``tables.beat``).
limit = njit(cache=True)(beat)


@njit(cache=True, nogil=True)
def try_guess(ctx, memo, codes, depth, guess, bound, incumbent, rank):
    """The cost of the best tree of ``codes`` within ``depth`` whose first guess is ``guess``
    (of bound ``bound`` and place ``rank``) if it beats the incumbent, else ``FAIL``; or
    ``STOPPED``, or ``MEMO_FULL`` (grow the memo and ask again). The root set is not stored
    in the memo (its other guesses are not tried here); its parts are, as ``solve`` stores
    them. The parts are solved in rounds of narrow windows, as ``search_dfs._step`` solves
    them, each window taken against the incumbent as it stands when the part is asked."""
    child = depth - 1 if ctx[CTX_CAPPED] else depth
    best = limit(incumbent, rank)
    if bound >= best:
        return FAIL
    ordered, starts, sizes, owns, total, _ = _ahead(ctx, memo, codes, guess, bound, child, best)
    if total >= best:
        return FAIL
    parts = len(sizes)
    settled = np.zeros(parts, dtype=np.bool_)
    still, done = parts, 0
    while still:
        for p in range(parts):
            if settled[p]:
                continue
            best = min(best, limit(incumbent, rank))
            if total >= best:
                return FAIL
            share = max(1, (best - total) // still)
            part = ordered[starts[p] : starts[p] + sizes[p]]
            cost = solve(ctx, memo, part, child, owns[p] + share, _child_guesses(ctx, part))
            if cost in (STOPPED, MEMO_FULL):
                return cost
            if cost == FAIL:
                total += share
                owns[p] += share
            else:
                total += cost - owns[p]
                owns[p] = cost
                settled[p] = True
                done += 1
        still = parts - done
    if total >= min(best, limit(incumbent, rank)):
        return FAIL
    return total


__all__ = ["limit", "try_guess"]
