"""What the kernels and the code calling them share, without loading numba: the heuristics'
numbers, the tables of rounded logarithms the entropy costs use, and where each integer
parameter of a heuristic's tree builder sits in its ``params`` array.

>>> HEURISTICS["entropy"], log_table(4)[[1, 2, 4]].tolist() == [0, ENTROPY_SCALE, 2 * ENTROPY_SCALE]
(2, True)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from bullscows._kernels.reference import ENTROPY_SCALE

#: Heuristics by number; each is a cost to minimise, an exact integer.
HEURISTICS = {"minimax": 0, "expected-size": 1, "entropy": 2, "most-parts": 3}

# The integer parameters every tree kernel reads, in one array (``params``).
(LENGTH, HEURISTIC, REPLIES, WIN, CONSISTENT, SLOTS, SYMMETRIC, LEVEL_AT_ROOT, PARAMS) = range(9)


@lru_cache(maxsize=64)
def log_table(largest: int) -> npt.NDArray[np.int64]:
    """``round(log2(n) * ENTROPY_SCALE)`` for n = 0 .. largest (0 for n = 0); read-only."""
    n = np.arange(largest + 1, dtype=np.float64)
    table = np.round(np.log2(np.maximum(n, 1)) * ENTROPY_SCALE).astype(np.int64)
    table.flags.writeable = False
    return table


@lru_cache(maxsize=64)
def nlogn_table(largest: int) -> npt.NDArray[np.int64]:
    """``n * log_table(n)``: a part of n codes adds this to the entropy cost; summed over the
    codes rather than the parts (each adds ``log_table`` of its part's size), it is the same
    integer, so both kernels' costs tie exactly."""
    table = np.arange(largest + 1, dtype=np.int64) * log_table(largest)
    table.flags.writeable = False
    return table
