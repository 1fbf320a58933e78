"""What the kernels and the code calling them share, without loading numba: the heuristics'
numbers, the tables of rounded logarithms the entropy costs use, where each integer
parameter of a heuristic's tree builder sits in its ``params`` array, and the optimal
search's level capacities, special bounds and answers, where each item of its context sits
and the names of the questions it answers besides ``solve``.

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

#: The bound given to a guess that leaves every code in one part and ends none of them.
USELESS = 1 << 60
#: A cost no real tree reaches: the bound of a set that cannot be settled within the depth.
INFEASIBLE = 1 << 40

# The integer parameters every tree kernel reads, in one array (``params``).
(LENGTH, HEURISTIC, REPLIES, WIN, CONSISTENT, SLOTS, SYMMETRIC, LEVEL_AT_ROOT, PARAMS) = range(9)

# Where each item of a heuristic tree builder's context sits (``tree_build.build`` builds it).
(TREE_POS, TREE_SYM, TREE_PARAMS, TREE_LOGS, TREE_HISTORY, TREE_SYMMETRY) = range(6)

#: The cost the optimal search returns when no tree costs less than the limit.
FAIL = -1
#: What ``solve`` returns when told to stop (``ctx[CTX_STOP][0]`` set): no answer, and the
#: memo holds only sets settled before.
STOPPED = -3
#: What the compiled ``solve`` returns when its memo is crowded (``search_memo``): no answer
#: yet; ``search_calls.solve`` grows the memo and asks again.
MEMO_FULL = -4


def beat(incumbent: npt.NDArray[np.int64], rank: int) -> int:
    """What the guess of ``rank`` must cost less than to beat a shared incumbent,
    ``[cost * ranks + rank of its first guess, ranks]`` (``search_split``), here and in the
    compiled search alike: ``ceiling((incumbent - rank) / ranks)``.

    >>> incumbent = np.array([20 * 5 + 3, 5])  # cost 20, found by the guess of rank 3
    >>> int(beat(incumbent, 1)), int(beat(incumbent, 4))  # an earlier guess may tie
    (21, 20)
    """
    ranks = incumbent[1]
    return (incumbent[0] - rank + ranks - 1) // ranks  # type: ignore[no-any-return]


# Where each item of the optimal search's context sits (``search_calls.context`` builds it,
# ``search_dfs`` says what each is): a tuple of items of different types, read as
# ``ctx[CTX_SCORES]``. Code ``c``'s replies to every guess are ``scores[rows[c]]``
# (``CTX_ROWS``: a block of rows), or ``scores[c]`` with ``rows`` empty (the whole matrix).
# ``CTX_SHARED`` is the table the threads of a search share (``search_memo.publish``), empty
# for a search on one thread; only sets of ``CTX_SHARE_FROM`` codes or more go there, and
# ``CTX_TRAFFIC`` counts the search's reads and writes of it (``TRAFFIC_*``).
(CTX_SCORES, CTX_CAPS, CTX_VALID, CTX_WIN, CTX_KEYS, CTX_STATS, CTX_CAPPED, CTX_CONSISTENT,
 CTX_EVERYTHING, CTX_SLOTS, CTX_WEIGHT, CTX_PENALTY, CTX_STOP, CTX_ROWS, CTX_SHARED,
 CTX_SHARE_FROM, CTX_TRAFFIC, CONTEXT) = range(18)  # fmt: skip

# What ``ctx[CTX_TRAFFIC]`` counts: the writes to the shared table left out (its slot held
# the set with as much known), the writes over the same set or an empty slot, the writes
# over another set (lost to the table), and the reads (on a miss in the search's memo).
# The first three are what ``search_memo.publish`` returns. Then the sets searched twice
# at once: branched on (``TRAFFIC_BESIDE``) or looked ahead at (``TRAFFIC_BESIDE_AHEAD``)
# while another thread of the team had the set's frame open (``search_memo.board``); the
# sets branched on whose floor, just read from the table, did not settle them
# (``TRAFFIC_FLOORED``: proven under another window), those whose memo's own floor did not
# (``TRAFFIC_AGAIN``: a wider window, as on one thread); and the sets the table said were
# looked ahead at where the memo did not (``TRAFFIC_LOOKED``: not looked ahead at again).
(TRAFFIC_KEPT, TRAFFIC_WRITTEN, TRAFFIC_DISPLACED, TRAFFIC_READ, TRAFFIC_BESIDE,
 TRAFFIC_BESIDE_AHEAD, TRAFFIC_FLOORED, TRAFFIC_AGAIN, TRAFFIC_LOOKED,
 TRAFFIC) = range(10)  # fmt: skip
#: Integers at the end of a table the threads of a search share (after its buckets): the
#: sets whose frames its threads have open, in buckets of one cache line
#: (``search_memo.board``).
FLIGHT = 1 << 12

#: The questions the compiled search answers besides ``solve``: one compiled entry point each,
#: named so in ``search_queries``, in the modules compiled ahead of time and in
#: ``search_calls.Kernels``.
QUESTIONS = ("guess_order", "parts", "ahead", "aheads", "best_guess", "ideal_cost", "perfect",
             "bounds", "grow_memo")  # fmt: skip


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


def level_caps(replies: int, levels: int = 2, covering: int = 0) -> npt.NDArray[np.int64]:
    """``caps[k]``: the most codes any tree settles within ``k`` guesses (``replies - 1``
    children a node): ``levels`` of them, or more until one covers ``covering`` codes, and then
    one more.

    >>> level_caps(14, 4).tolist(), level_caps(14, covering=200).tolist()
    ([0, 1, 14, 183], [0, 1, 14, 183, 2380, 30941])
    """
    fan = max(replies - 1, 1)
    caps, width = [0], 1
    while len(caps) < levels or caps[-1] < covering:
        caps.append(caps[-1] + width)
        width = min(width * fan, 1 << 40)
    if covering:
        caps.append(caps[-1] + width)
    return np.array(caps, dtype=np.int64)
