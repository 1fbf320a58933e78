"""Pure-Python twins of the compiled kernels: slow, obvious, and the definition of a score.

>>> score((1, 2, 3, 4), (4, 3, 2, 4))
(1, 2)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence


def score(guess: Sequence[int], secret: Sequence[int]) -> tuple[int, int]:
    """Bulls (same symbol, same position) and cows (shared symbols as a multiset, minus bulls)."""
    bulls = sum(g == s for g, s in zip(guess, secret, strict=True))
    common = sum((Counter(guess) & Counter(secret)).values())
    return bulls, common - bulls


def score_index(guess: Sequence[int], secret: Sequence[int]) -> int:
    """The reply's index, ``bulls * (length + 1) + cows``."""
    bulls, cows = score(guess, secret)
    return bulls * (len(guess) + 1) + cows


def score_row(guess: Sequence[int], codes: Sequence[Sequence[int]]) -> list[int]:
    """The reply index of ``guess`` against every code."""
    return [score_index(guess, code) for code in codes]


def partition_sizes(
    guesses: Sequence[Sequence[int]], candidates: Sequence[Sequence[int]], length: int
) -> list[list[int]]:
    """For each guess, how many candidates fall under each reply index."""
    table = []
    for guess in guesses:
        sizes = [0] * (length + 1) ** 2
        for candidate in candidates:
            sizes[score_index(guess, candidate)] += 1
        table.append(sizes)
    return table


# --- the heuristics: pure functions of the part sizes (lower cost is better) -----------------
#
# A guess splits the candidates into parts, one per reply; each heuristic is a function of the
# part sizes alone. The compiled kernels compute the same integers three ways (pairwise for at
# most 32 candidates, an incremental histogram below 64, a tally of every reply above).

#: ``n log2 n`` is summed in fixed point with this scale, so equal entropies tie exactly.
ENTROPY_SCALE = 2.0**32


def minimax_cost(sizes: Sequence[int]) -> int:
    """Knuth: the largest part.

    >>> minimax_cost([3, 0, 1])
    3
    """
    return max(sizes, default=0)


def expected_size_cost(sizes: Sequence[int]) -> int:
    """The expected size of the part left, times the candidates: the sum of squared sizes."""
    return sum(n * n for n in sizes)


def entropy_cost(sizes: Sequence[int]) -> int:
    """Minus the information of the reply, up to constants: the sum of ``n log2 n`` over the
    parts, each ``log2 n`` rounded to ``ENTROPY_SCALE`` first (so the kernels tie exactly).

    >>> entropy_cost([2, 2]) == 4 * round(ENTROPY_SCALE)
    True
    """
    return sum(n * round(math.log2(n) * ENTROPY_SCALE) for n in sizes if n > 0)


def most_parts_cost(sizes: Sequence[int]) -> int:
    """Minus the number of parts (non-empty replies)."""
    return -sum(1 for n in sizes if n > 0)


#: The heuristics by name, as the strategies and the kernels know them.
HEURISTIC_COSTS = {
    "minimax": minimax_cost,
    "expected-size": expected_size_cost,
    "entropy": entropy_cost,
    "most-parts": most_parts_cost,
}
