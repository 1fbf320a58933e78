"""Pure-Python twins of the compiled kernels: slow, obvious, and the definition of a score.

>>> score((1, 2, 3, 4), (4, 3, 2, 4))
(1, 2)
"""

from __future__ import annotations

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
