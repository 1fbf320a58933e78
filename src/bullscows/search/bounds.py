"""Lower bounds on the total number of guesses a decision tree needs.

Level ``k`` of any tree holds at most ``(replies - 1) ** (k - 1)`` nodes, each ending at most
one secret; filling the levels from the top gives the cheapest conceivable tree for ``n`` codes
within ``depth`` guesses. The search computes this bound in compiled code; this module states
it plainly, and the tests hold the kernels to it.

>>> table = lower_bounds(replies=14, size=20, depth=3)
>>> [int(v) for v in table[3][:6]]
[0, 1, 3, 5, 7, 9]
>>> int(table[2][15]) >= INFEASIBLE  # 15 codes cannot all be settled within 2 guesses
True
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from bullscows._kernels.tables import INFEASIBLE

__all__ = ["INFEASIBLE", "ideal_cost", "lower_bounds"]


def ideal_cost(codes: int, depth: int, replies: int) -> int:
    """The cost of a perfect tree over ``codes`` codes within ``depth`` guesses.

    >>> ideal_cost(1, 1, 14), ideal_cost(2, 2, 14), ideal_cost(14, 2, 14), ideal_cost(15, 3, 14)
    (1, 3, 27, 30)
    """
    total, left, width, level = 0, codes, 1, 1
    while left > 0:
        if level > depth:
            return INFEASIBLE
        here = min(left, width)
        total += here * level
        left -= here
        width *= max(replies - 1, 1)
        level += 1
    return total


def lower_bounds(replies: int, size: int, depth: int) -> npt.NDArray[np.int64]:
    """``table[d][n]``: no tree settles ``n`` codes within ``d`` guesses for less (``n <= size``).

    Row 0 is infeasible for every non-empty set; a set of two always costs exactly 3.
    """
    table = np.zeros((depth + 1, size + 1), dtype=np.int64)
    for d in range(depth + 1):
        for n in range(1, size + 1):
            table[d, n] = ideal_cost(n, d, replies)
    return table
