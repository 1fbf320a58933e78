"""How a guess splits the candidates: part sizes per reply, and each heuristic's cost of
the split (lower is better), for many guesses at once."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from bullscows._kernels import drivers
from bullscows._kernels.bits import (
    Masks,
    add1,
    add4,
    flat,
    index_words,
    one_word,
    popcount,
    span,
)
from bullscows._kernels.tables import HEURISTICS, log_table, nlogn_table

# Partitions: the reply indices of one guess against the candidates go to a byte buffer (a loop
# that vectorises), then into four interleaved histograms, so consecutive increments of the same
# counter do not wait on each other: about twice as fast as one histogram.

_LANES = 4
_FEW = 64


@njit(cache=True, inline="always")
def _tally_cost(buf, slots, row, lanes, heuristic, nlogn):
    """Fill ``row`` with the part sizes and return the heuristic's cost (0 if ``heuristic < 0``)."""
    if buf.shape[0] >= _FEW:
        _tally(buf, slots, row, lanes)
        return _cost(row, heuristic, nlogn) if heuristic >= 0 else 0
    # Few candidates: one histogram, and the cost kept up to date as each part grows, rather
    # than summed over every reply slot afterwards. ``row`` comes in all zero (see below).
    cost = 0
    if heuristic == 0:
        for b in buf:
            row[b] += 1
            cost = max(cost, row[b])
    elif heuristic == 1:
        for b in buf:
            cost += 2 * row[b] + 1
            row[b] += 1
    elif heuristic == 2:
        for b in buf:
            cost += nlogn[row[b] + 1] - nlogn[row[b]]
            row[b] += 1
    elif heuristic == 3:
        for b in buf:
            if row[b] == 0:
                cost -= 1
            row[b] += 1
    else:
        for b in buf:
            row[b] += 1
    return cost


@njit(cache=True, inline="always")
def _clear(buf, row):
    """Zero the parts ``_tally_cost`` filled: cheaper than zeroing every slot when few are."""
    if buf.shape[0] >= _FEW:
        return
    for b in buf:
        row[b] = 0


@njit(cache=True, inline="always")
def _tally(buf, slots, row, lanes):
    m = buf.shape[0]
    lanes[:, :slots] = 0
    j = 0
    while j + _LANES <= m:
        lanes[0, buf[j]] += 1
        lanes[1, buf[j + 1]] += 1
        lanes[2, buf[j + 2]] += 1
        lanes[3, buf[j + 3]] += 1
        j += _LANES
    while j < m:
        lanes[0, buf[j]] += 1
        j += 1
    for r in range(slots):
        row[r] = lanes[0, r] + lanes[1, r] + lanes[2, r] + lanes[3, r]


@njit(cache=True, inline="always")
def _replies_1(p, s, pos_c, sym_c, length, buf):
    for j in range(pos_c.shape[0]):
        buf[j] = length * popcount(p & pos_c[j]) + popcount(s & sym_c[j])


@njit(cache=True, inline="always")
def _replies_words(pos_g, sym_g, i, pos_c, sym_c, length, buf):
    for j in range(pos_c.shape[0]):
        buf[j] = index_words(pos_g, sym_g, i, pos_c, sym_c, j, length)


@njit(cache=True, inline="always")
def _cost(row, heuristic, nlogn):
    cost = 0
    for n in row:
        if heuristic == 0:
            cost = max(cost, n)
        elif heuristic == 1:
            cost += n * n
        elif heuristic == 2:
            cost += nlogn[n]
        elif n > 0:
            cost -= 1
    return cost


@njit(cache=True)
def _partition_block_1(
    pos_g, sym_g, pos_c, sym_c, length, slots, heuristic, nlogn, sizes, costs, start, stop
):
    buf = np.empty(pos_c.shape[0], dtype=np.uint8)
    row = np.zeros(slots, dtype=np.int64)
    lanes = np.empty((_LANES, slots), dtype=np.int64)
    for i in range(start, stop):
        _replies_1(pos_g[i], sym_g[i], pos_c, sym_c, length, buf)
        cost = _tally_cost(buf, slots, row, lanes, heuristic, nlogn)
        if heuristic < 0:
            sizes[i, :] = row
        else:
            costs[i] = cost
        _clear(buf, row)


@njit(cache=True)
def _partition_block_words(
    pos_g, sym_g, pos_c, sym_c, length, slots, heuristic, nlogn, sizes, costs, start, stop
):
    buf = np.empty(pos_c.shape[0], dtype=np.uint8)
    row = np.zeros(slots, dtype=np.int64)
    lanes = np.empty((_LANES, slots), dtype=np.int64)
    for i in range(start, stop):
        _replies_words(pos_g, sym_g, i, pos_c, sym_c, length, buf)
        cost = _tally_cost(buf, slots, row, lanes, heuristic, nlogn)
        if heuristic < 0:
            sizes[i, :] = row
        else:
            costs[i] = cost
        _clear(buf, row)


@njit(cache=True, parallel=True)
def _partition_parallel_1(pos_g, sym_g, pos_c, sym_c, length, slots, heuristic, nlogn, sizes,
                          costs, blocks, taken, workers):  # fmt: skip
    for _ in prange(workers):
        start, stop = span(taken, blocks, pos_g.shape[0])
        while start < stop:
            _partition_block_1(pos_g, sym_g, pos_c, sym_c, length, slots, heuristic, nlogn,
                                 sizes, costs, start, stop)  # fmt: skip
            start, stop = span(taken, blocks, pos_g.shape[0])


@njit(cache=True, parallel=True)
def _partition_parallel_words(pos_g, sym_g, pos_c, sym_c, length, slots, heuristic, nlogn,
                              sizes, costs, blocks, taken, workers):  # fmt: skip
    for _ in prange(workers):
        start, stop = span(taken, blocks, pos_g.shape[0])
        while start < stop:
            _partition_block_words(pos_g, sym_g, pos_c, sym_c, length, slots, heuristic, nlogn,
                                   sizes, costs, start, stop)  # fmt: skip
            start, stop = span(taken, blocks, pos_g.shape[0])


def _partitions(
    pos_g: Masks, sym_g: Masks, pos_c: Masks, sym_c: Masks, length: int, slots: int,
    heuristic: int, nlogn: npt.NDArray[np.int64],
    sizes: npt.NDArray[np.int64], costs: npt.NDArray[np.int64],
) -> None:  # fmt: skip
    rows, pairs = pos_g.shape[0], pos_g.shape[0] * pos_c.shape[0]
    if one_word(pos_g, sym_g):
        masks = (flat(pos_g), flat(sym_g), flat(pos_c), flat(sym_c))
        args = (*masks, length, slots, heuristic, nlogn, sizes, costs)
        drivers.run_kernel(_partition_block_1, _partition_parallel_1, args, rows, pairs)
    else:
        args = (pos_g, sym_g, pos_c, sym_c, length, slots, heuristic, nlogn, sizes, costs)
        drivers.run_kernel(_partition_block_words, _partition_parallel_words, args, rows, pairs)


_NO_TABLE = np.zeros(1, dtype=np.int64)
_NO_TABLE.flags.writeable = False  # typed like the (read-only) cached tables: one compilation

# Few candidates: costs by comparing replies pairwise (``strip_costs``), across a strip of
# guesses at a time: loops of byte comparisons that vectorise, where a histogram per guess
# would not.

#: The pairwise kernel serves nodes with at most this many candidates.
PAIRWISE_MAX = 32
_STRIP = 512


@njit(cache=True)
def _pairwise_block_1(pos_g, sym_g, pos_c, sym_c, length, heuristic, logs, costs, start, stop):
    m = pos_c.shape[0]
    replies = np.empty((m, _STRIP), dtype=np.uint8)
    shared = np.empty(_STRIP, dtype=np.uint8)
    for first in range(start, stop, _STRIP):
        width = min(_STRIP, stop - first)
        strip_costs(pos_g, sym_g, first, width, pos_c, sym_c, m, length, heuristic, logs,
                    replies, shared, costs[first : first + width])  # fmt: skip


@njit(cache=True)
def strip_costs(pg, sg, first, width, pc, sc, m, length, heuristic, logs, replies, shared,
                costs):  # fmt: skip
    """``costs[i]``: the cost of guess ``first + i`` (masks ``pg``, ``sg``) against the ``m``
    candidates, for ``i < width``. A part's size is how many candidates share each one's
    reply, so every cost is a sum or maximum of those multiplicities (expected size: their sum;
    minimax: their maximum; entropy: the sum of their logarithms; most parts: how many replies
    come first), counted by comparing replies pairwise: byte loops that vectorise; with more
    candidates than replies, the parts are counted reply by reply (``_reply_costs``)."""
    # Views from ``first``: indices an offset away from the loop's would have to be checked
    # for wrapping one by one, and the loop would not vectorise (six times slower).
    pg, sg = pg[first : first + width], sg[first : first + width]
    for j in range(m):
        p, s = pc[j], sc[j]
        rj = replies[j]
        for i in range(width):
            rj[i] = length * popcount(pg[i] & p) + popcount(sg[i] & s)
    costs[:width] = 0
    if m > (length + 1) * (length + 2) // 2:
        _reply_costs(replies, m, width, length, heuristic, logs, shared, costs)
        return
    for j in range(m):
        # shared counts the candidates with j's reply: all of them, or (most parts) only
        # those before j, so that zero marks the first of each part.
        others = j if heuristic == 3 else m
        rj = replies[j]
        shared[:width] = 0
        for k in range(others):
            rk = replies[k]
            for i in range(width):
                shared[i] += np.uint8(1) if rj[i] == rk[i] else np.uint8(0)
        if heuristic == 0:
            for i in range(width):
                costs[i] = max(costs[i], shared[i])
        elif heuristic == 1:
            for i in range(width):
                costs[i] += shared[i]
        elif heuristic == 2:
            for i in range(width):
                costs[i] += logs[shared[i]]
        else:
            for i in range(width):
                costs[i] -= 1 if shared[i] == 0 else 0


@njit(cache=True)
def _reply_costs(replies, m, width, length, heuristic, logs, shared, costs):
    """``strip_costs`` from the ``replies`` of its ``m`` candidates when they outnumber the
    replies: each part's size counted reply by reply (every reply ``(length + 1) * bulls +
    cows`` with ``bulls + cows <= length``; one that never comes counts 0), four candidates
    to a pass over the counters, so the work grows as candidates times replies rather than
    as the square of the candidates; the same costs."""
    whole = m - m % 4
    for bulls in range(length + 1):
        for cows in range(length + 1 - bulls):
            q = np.uint8((length + 1) * bulls + cows)
            counts = shared[:width]
            counts[:] = 0
            for j in range(0, whole, 4):
                a, b, c, d = replies[j], replies[j + 1], replies[j + 2], replies[j + 3]
                add4(counts, a[:width], b[:width], c[:width], d[:width], q)
            for j in range(whole, m):
                add1(counts, replies[j][:width], q)
            if heuristic == 0:
                for i in range(width):
                    costs[i] = max(costs[i], shared[i])
            elif heuristic == 1:
                for i in range(width):
                    n = np.int64(shared[i])
                    costs[i] += n * n
            elif heuristic == 2:
                for i in range(width):
                    n = np.int64(shared[i])
                    costs[i] += n * logs[n]
            else:
                for i in range(width):
                    costs[i] -= 1 if shared[i] > 0 else 0


@njit(cache=True, parallel=True)
def _pairwise_parallel_1(pos_g, sym_g, pos_c, sym_c, length, heuristic, logs, costs, blocks, taken,
                         workers):  # fmt: skip
    for _ in prange(workers):
        start, stop = span(taken, blocks, pos_g.shape[0])
        while start < stop:
            _pairwise_block_1(pos_g, sym_g, pos_c, sym_c, length, heuristic, logs, costs, start,
                              stop)  # fmt: skip
            start, stop = span(taken, blocks, pos_g.shape[0])


def _pairwise_costs(
    pos_g: Masks, sym_g: Masks, pos_c: Masks, sym_c: Masks, length: int, heuristic: int
) -> npt.NDArray[np.int64]:
    pos_g, sym_g, pos_c, sym_c = (flat(m) for m in (pos_g, sym_g, pos_c, sym_c))
    logs = log_table(pos_c.shape[0])
    costs = np.zeros(pos_g.shape[0], dtype=np.int64)
    args = (pos_g, sym_g, pos_c, sym_c, length, heuristic, logs, costs)
    # The pairwise work grows as the square of the candidates, in cheap vector steps.
    pairs = pos_g.shape[0] * pos_c.shape[0] ** 2 // 8
    drivers.run_kernel(_pairwise_block_1, _pairwise_parallel_1, args, pos_g.shape[0], pairs)
    return costs


def partition_sizes(
    pos_g: Masks, sym_g: Masks, pos_c: Masks, sym_c: Masks, length: int, slots: int
) -> npt.NDArray[np.int64]:
    """``sizes[i, r]`` = how many candidates give reply index ``r`` to guess ``i``."""
    sizes = np.zeros((pos_g.shape[0], slots), dtype=np.int64)
    unused = np.zeros(1, dtype=np.int64)
    _partitions(pos_g, sym_g, pos_c, sym_c, length, slots, -1, _NO_TABLE, sizes, unused)
    return sizes


def guess_costs(
    pos_g: Masks, sym_g: Masks, pos_c: Masks, sym_c: Masks, length: int, slots: int, heuristic: str
) -> npt.NDArray[np.int64]:
    """The heuristic's cost (lower is better) of each guess against the candidates."""
    number = HEURISTICS[heuristic]
    if pos_c.shape[0] <= PAIRWISE_MAX and one_word(pos_g, sym_g):
        return _pairwise_costs(pos_g, sym_g, pos_c, sym_c, length, number)
    nlogn = nlogn_table(pos_c.shape[0]) if number == 2 else _NO_TABLE
    costs = np.zeros(pos_g.shape[0], dtype=np.int64)
    dummy = np.zeros((1, 1), dtype=np.int64)
    _partitions(pos_g, sym_g, pos_c, sym_c, length, slots, number, nlogn, dummy, costs)
    return costs
