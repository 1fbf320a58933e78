"""The figures of guess counts, one per secret: what a bench row and a tree summary report.

>>> f = figures(np.array([1, 2, 2, 3, UNSOLVED]))
>>> f.total, f.worst, f.at_worst, f.distribution, f.secrets, f.unsolved
(8, 3, 1, {1: 1, 2: 2, 3: 1}, 5, 1)
>>> f.average
2.0
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

#: ``counts[i]`` is this for a secret the strategy did not break within the cap.
UNSOLVED = 0


@dataclass(frozen=True, slots=True)
class Figures:
    """Total, average and worst guesses over the solved secrets, how many need the worst, the
    distribution (guesses: secrets), and how many secrets there were and were not solved."""

    total: int
    average: float | None  # None when no secret was solved
    worst: int
    at_worst: int
    distribution: dict[int, int]
    secrets: int
    unsolved: int


def distribution(counts: npt.NDArray[np.int64]) -> dict[int, int]:
    """How many secrets took 1, 2, 3, ... guesses (unsolved games are left out).

    >>> distribution(np.array([1, 2, 2, 3]))
    {1: 1, 2: 2, 3: 1}
    """
    values, times = np.unique(counts[counts != UNSOLVED], return_counts=True)
    return {int(v): int(t) for v, t in zip(values, times, strict=True)}


def figures(counts: npt.NDArray[np.int64]) -> Figures:
    """The figures of ``counts[i]`` guesses for secret ``i`` (``UNSOLVED`` past a cap; a secret
    listed twice counts twice)."""
    by_count = distribution(counts)
    solved = sum(by_count.values())
    total = sum(guesses * n for guesses, n in by_count.items())
    worst = max(by_count, default=0)
    average = total / solved if solved else None
    return Figures(
        total, average, worst, by_count.get(worst, 0), by_count, len(counts), len(counts) - solved
    )
