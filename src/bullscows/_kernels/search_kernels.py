"""numba kernels of the optimal-tree search (``bullscows.search``): one pass over every guess
at a node, and the test for a candidate that splits the others into single codes.

They read a full score matrix, ``scores[guess, secret]`` = reply index, and count parts in
``uint16`` (the search keeps universes under 65,536 codes).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

#: The bound given to a guess that leaves every code in one part and ends none of them.
USELESS = 1 << 60


@njit(cache=True)
def _guess_bounds(scores, guesses, codes, row, slots, win, bounds, spreads, solved, largest):  # type: ignore[no-untyped-def]
    n = len(codes)
    m = len(guesses)
    counts = np.zeros((m, slots), dtype=np.uint16)
    # Scores are symmetric: read each code's row once, across every guess.
    for j in range(n):
        line = scores[codes[j]]
        for i in range(m):
            counts[i, line[guesses[i]]] += 1
    for i in range(m):
        won = int(counts[i, win])
        counts[i, win] = 0
        total = n
        spread = 0
        big = 0
        for r in range(slots):
            c = int(counts[i, r])
            total += row[c]
            spread += c * c
            if c > big:
                big = c
        bounds[i] = USELESS if won == 0 and big == n else total
        spreads[i] = spread
        solved[i] = won
        largest[i] = big


def guess_bounds(
    scores: npt.NDArray[np.uint8],
    guesses: npt.NDArray[np.int64],
    codes: npt.NDArray[np.int64],
    row: npt.NDArray[np.int64],
    slots: int,
    win: int,
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]
]:
    """For each guess: ``len(codes)`` plus ``row[size]`` summed over its non-winning parts
    (``USELESS`` if it splits nothing off), the sum of squared part sizes, whether it wins, and
    its largest non-winning part. ``scores`` must be symmetric (it is: scoring is).
    """
    bounds, spreads, solved, largest = (np.empty(len(guesses), dtype=np.int64) for _ in range(4))
    _guess_bounds(scores, guesses, codes, row, slots, win, bounds, spreads, solved, largest)
    return bounds, spreads, solved, largest


@njit(cache=True)
def _perfect_candidate(scores, codes, slots):  # type: ignore[no-untyped-def]
    n = len(codes)
    seen = np.zeros(slots, dtype=np.int64)
    for i in range(n):
        g = codes[i]
        seen[:] = 0
        ok = True
        for j in range(n):
            r = scores[g, codes[j]]
            if seen[r]:
                ok = False
                break
            seen[r] = 1
        if ok:
            return i
    return -1


def perfect_candidate(
    scores: npt.NDArray[np.uint8], codes: npt.NDArray[np.int64], slots: int
) -> int:
    """The position in ``codes`` of the first code whose replies to all of them differ, or -1."""
    return int(_perfect_candidate(scores, codes, slots))
