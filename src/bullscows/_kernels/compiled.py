"""numba kernels: score codes held as bit masks, two popcounts a pair.

Each code carries two masks (rows of ``uint64`` words):

* a positional one-hot mask, bit ``position * k + symbol``, so ``popcount(a & b)`` is the bulls;
* a per-symbol "thermometer", where a symbol present ``m`` times sets ``m`` bits of its own
  field, so ``popcount(a & b)`` is the multiset intersection: bulls plus cows.

The reply index ``bulls * (length + 1) + cows`` is then ``length * bulls + common``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numba
import numpy as np
import numpy.typing as npt
from llvmlite import ir
from numba import njit, prange, types
from numba.extending import intrinsic

from bullscows._kernels.reference import ENTROPY_SCALE


@intrinsic
def _popcount(typingctx: object, value: types.Type) -> tuple[object, object]:
    """LLVM's ``ctpop``: one ``popcnt`` instruction on the host CPU."""
    signature = types.uint64(types.uint64)

    def codegen(context: object, builder: ir.IRBuilder, sig: object, args: list[ir.Value]):
        return builder.ctpop(args[0])

    return signature, codegen


@njit(cache=True, inline="always")
def _index_words(pos_a, sym_a, i, pos_b, sym_b, j, length):
    bulls = 0
    for w in range(pos_a.shape[1]):
        bulls += _popcount(pos_a[i, w] & pos_b[j, w])
    common = 0
    for w in range(sym_a.shape[1]):
        common += _popcount(sym_a[i, w] & sym_b[j, w])
    return length * bulls + common


# One-word masks (length x symbols <= 64: every classic variant) get loops LLVM can vectorise:
# about ten times faster than the general multi-word loops below.


@njit(cache=True)
def _score_block_1(pos_a, sym_a, pos_b, sym_b, length, out, start, stop):
    for i in range(start, stop):
        p, s = pos_a[i], sym_a[i]
        for j in range(pos_b.shape[0]):
            out[i, j] = length * _popcount(p & pos_b[j]) + _popcount(s & sym_b[j])


@njit(cache=True)
def _score_block_words(pos_a, sym_a, pos_b, sym_b, length, out, start, stop):
    for i in range(start, stop):
        for j in range(pos_b.shape[0]):
            out[i, j] = _index_words(pos_a, sym_a, i, pos_b, sym_b, j, length)


# Partitions: the reply indices of one guess against the candidates go to a byte buffer (a loop
# that vectorises), then into four interleaved histograms, so consecutive increments of the same
# counter do not wait on each other: about twice as fast as one histogram.

#: Heuristics by number; each is a cost to minimise, an exact integer.
HEURISTICS = {"minimax": 0, "expected-size": 1, "entropy": 2, "most-parts": 3}
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
        buf[j] = length * _popcount(p & pos_c[j]) + _popcount(s & sym_c[j])


@njit(cache=True, inline="always")
def _replies_words(pos_g, sym_g, i, pos_c, sym_c, length, buf):
    for j in range(pos_c.shape[0]):
        buf[j] = _index_words(pos_g, sym_g, i, pos_c, sym_c, j, length)


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


#: Work (pairs) below which a kernel runs on the calling thread: waking the other threads
#: costs more than it saves, and the parallel drivers then need no compiling at all.
SERIAL_PAIRS = 1 << 16
#: Blocks a parallel call is cut into, per thread (several, to balance uneven rows).
BLOCKS_PER_THREAD = 4


def _run(
    kernel: Callable[..., None],
    driver: Callable[..., None],
    args: tuple[Any, ...],
    rows: int,
    pairs: int,
) -> None:
    """``kernel(*args, start, stop)`` over ``range(rows)``: in one call on this thread when the
    work is small, else through its ``driver``, which spreads blocks over numba's threads."""
    threads = numba.get_num_threads()
    if pairs < SERIAL_PAIRS or rows < 2 or threads < 2:
        kernel(*args, 0, rows)
    else:
        driver(*args, min(rows, BLOCKS_PER_THREAD * threads))


# The parallel drivers: each cuts its rows into blocks and runs its kernel on each, in parallel.


@njit(cache=True, parallel=True)
def _score_parallel_1(pos_a, sym_a, pos_b, sym_b, length, out, blocks):
    n = pos_a.shape[0]
    for b in prange(blocks):
        _score_block_1(
            pos_a, sym_a, pos_b, sym_b, length, out, b * n // blocks, (b + 1) * n // blocks
        )


@njit(cache=True, parallel=True)
def _score_parallel_words(pos_a, sym_a, pos_b, sym_b, length, out, blocks):
    n = pos_a.shape[0]
    for b in prange(blocks):
        _score_block_words(
            pos_a, sym_a, pos_b, sym_b, length, out, b * n // blocks, (b + 1) * n // blocks
        )


@njit(cache=True, parallel=True)
def _partition_parallel_1(
    pos_g, sym_g, pos_c, sym_c, length, slots, heuristic, nlogn, sizes, costs, blocks
):
    n = pos_g.shape[0]
    for b in prange(blocks):
        _partition_block_1(
            pos_g, sym_g, pos_c, sym_c, length, slots, heuristic, nlogn, sizes, costs,
            b * n // blocks, (b + 1) * n // blocks,
        )  # fmt: skip


@njit(cache=True, parallel=True)
def _partition_parallel_words(
    pos_g, sym_g, pos_c, sym_c, length, slots, heuristic, nlogn, sizes, costs, blocks
):
    n = pos_g.shape[0]
    for b in prange(blocks):
        _partition_block_words(
            pos_g, sym_g, pos_c, sym_c, length, slots, heuristic, nlogn, sizes, costs,
            b * n // blocks, (b + 1) * n // blocks,
        )  # fmt: skip


Masks = npt.NDArray[np.uint64]


def _one_word(*masks: Masks) -> bool:
    """Masks are given as rows of words, or (one word each) as a flat array."""
    return all(m.ndim == 1 or m.shape[1] == 1 for m in masks)


def _flat(masks: Masks) -> Masks:
    return masks if masks.ndim == 1 else np.ascontiguousarray(masks[:, 0])


def score_matrix(
    pos_a: Masks, sym_a: Masks, pos_b: Masks, sym_b: Masks, length: int, out: npt.NDArray[np.uint8]
) -> None:
    """``out[i, j]`` = reply index of code ``i`` of a against code ``j`` of b."""
    rows, pairs = pos_a.shape[0], pos_a.shape[0] * pos_b.shape[0]
    if _one_word(pos_a, sym_a):
        args = (_flat(pos_a), _flat(sym_a), _flat(pos_b), _flat(sym_b), length, out)
        _run(_score_block_1, _score_parallel_1, args, rows, pairs)
    else:
        args = (pos_a, sym_a, pos_b, sym_b, length, out)
        _run(_score_block_words, _score_parallel_words, args, rows, pairs)


def _partitions(
    pos_g: Masks, sym_g: Masks, pos_c: Masks, sym_c: Masks, length: int, slots: int,
    heuristic: int, nlogn: npt.NDArray[np.int64],
    sizes: npt.NDArray[np.int64], costs: npt.NDArray[np.int64],
) -> None:  # fmt: skip
    rows, pairs = pos_g.shape[0], pos_g.shape[0] * pos_c.shape[0]
    if _one_word(pos_g, sym_g):
        masks = (_flat(pos_g), _flat(sym_g), _flat(pos_c), _flat(sym_c))
        args = (*masks, length, slots, heuristic, nlogn, sizes, costs)
        _run(_partition_block_1, _partition_parallel_1, args, rows, pairs)
    else:
        args = (pos_g, sym_g, pos_c, sym_c, length, slots, heuristic, nlogn, sizes, costs)
        _run(_partition_block_words, _partition_parallel_words, args, rows, pairs)


_NO_TABLE = np.zeros(1, dtype=np.int64)
_NO_TABLE.flags.writeable = False  # typed like the (read-only) cached tables: one compilation

# Few candidates: a part's size is also how many candidates share each one's reply, so every
# cost is a sum or maximum of those multiplicities (expected size: their sum; minimax: their
# maximum; entropy: the sum of their logarithms; most parts: how many replies come first).
# Counting them compares replies pairwise, across a strip of guesses at a time: loops of byte
# comparisons that vectorise, where a histogram per guess would not.

#: The pairwise kernel serves nodes with at most this many candidates.
PAIRWISE_MAX = 32
_STRIP = 512


@njit(cache=True)
def _pairwise_block_1(pos_g, sym_g, pos_c, sym_c, length, heuristic, logs, costs, start, stop):
    m = pos_c.shape[0]
    replies = np.empty((m, _STRIP), dtype=np.uint8)
    shared = np.empty((m, _STRIP), dtype=np.uint8)
    for first in range(start, stop, _STRIP):
        width = min(_STRIP, stop - first)
        for j in range(m):
            p, s = pos_c[j], sym_c[j]
            for i in range(width):
                g = first + i
                replies[j, i] = length * _popcount(pos_g[g] & p) + _popcount(sym_g[g] & s)
        for j in range(m):
            # shared[j] counts the candidates with j's reply: all of them, or (most parts)
            # only those before j, so that zero marks the first of each part.
            others = j if heuristic == 3 else m
            rj, sj = replies[j], shared[j]
            for i in range(width):
                sj[i] = 0
            for k in range(others):
                rk = replies[k]
                for i in range(width):
                    sj[i] += np.uint8(1) if rj[i] == rk[i] else np.uint8(0)
        total = costs[first : first + width]
        total[:] = 0
        for j in range(m):
            sj = shared[j]
            if heuristic == 0:
                for i in range(width):
                    total[i] = max(total[i], sj[i])
            elif heuristic == 1:
                for i in range(width):
                    total[i] += sj[i]
            elif heuristic == 2:
                for i in range(width):
                    total[i] += logs[sj[i]]
            else:
                for i in range(width):
                    total[i] -= 1 if sj[i] == 0 else 0


@njit(cache=True, parallel=True)
def _pairwise_parallel_1(pos_g, sym_g, pos_c, sym_c, length, heuristic, logs, costs, blocks):
    n = pos_g.shape[0]
    for b in prange(blocks):
        _pairwise_block_1(
            pos_g, sym_g, pos_c, sym_c, length, heuristic, logs, costs,
            b * n // blocks, (b + 1) * n // blocks,
        )  # fmt: skip


def _pairwise_costs(
    pos_g: Masks, sym_g: Masks, pos_c: Masks, sym_c: Masks, length: int, heuristic: int
) -> npt.NDArray[np.int64]:
    pos_g, sym_g, pos_c, sym_c = (_flat(m) for m in (pos_g, sym_g, pos_c, sym_c))
    logs = log_table(pos_c.shape[0])
    costs = np.zeros(pos_g.shape[0], dtype=np.int64)
    args = (pos_g, sym_g, pos_c, sym_c, length, heuristic, logs, costs)
    # The pairwise work grows as the square of the candidates, in cheap vector steps.
    pairs = pos_g.shape[0] * pos_c.shape[0] ** 2 // 8
    _run(_pairwise_block_1, _pairwise_parallel_1, args, pos_g.shape[0], pairs)
    return costs


def partition_sizes(
    pos_g: Masks, sym_g: Masks, pos_c: Masks, sym_c: Masks, length: int, slots: int
) -> npt.NDArray[np.int64]:
    """``sizes[i, r]`` = how many candidates give reply index ``r`` to guess ``i``."""
    sizes = np.zeros((pos_g.shape[0], slots), dtype=np.int64)
    unused = np.zeros(1, dtype=np.int64)
    _partitions(pos_g, sym_g, pos_c, sym_c, length, slots, -1, _NO_TABLE, sizes, unused)
    return sizes


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


def guess_costs(
    pos_g: Masks, sym_g: Masks, pos_c: Masks, sym_c: Masks, length: int, slots: int, heuristic: str
) -> npt.NDArray[np.int64]:
    """The heuristic's cost (lower is better) of each guess against the candidates."""
    number = HEURISTICS[heuristic]
    if pos_c.shape[0] <= PAIRWISE_MAX and _one_word(pos_g, sym_g):
        return _pairwise_costs(pos_g, sym_g, pos_c, sym_c, length, number)
    nlogn = nlogn_table(pos_c.shape[0]) if number == 2 else _NO_TABLE
    costs = np.zeros(pos_g.shape[0], dtype=np.int64)
    dummy = np.zeros((1, 1), dtype=np.int64)
    _partitions(pos_g, sym_g, pos_c, sym_c, length, slots, number, nlogn, dummy, costs)
    return costs


def canonical_keys(
    codes: npt.NDArray[np.int64], perms: npt.NDArray[np.int64], tables: npt.NDArray[np.int64],
    free_group: npt.NDArray[np.int64], free_labels: npt.NDArray[np.int64], base: int,
) -> npt.NDArray[np.int64]:  # fmt: skip
    """For each code, the smallest key (mixed-radix number) of its images under a group.

    Element ``e`` maps code ``c`` to ``tables[e][c[perms[e]]]``; then the free symbols (those
    with ``free_group[s] >= 0``) are renamed, in order of first appearance, to the lowest labels
    of their group (``free_labels[g]``, padded with -1).
    """
    keys = np.empty(codes.shape[0], dtype=np.int64)
    args = (codes, perms, tables, free_group, free_labels, base, keys)
    pairs = codes.shape[0] * perms.shape[0]
    _run(_canonical_block, _canonical_parallel, args, codes.shape[0], pairs)
    return keys


@njit(cache=True, parallel=True)
def _canonical_parallel(codes, perms, tables, free_group, free_labels, base, keys, blocks):
    n = codes.shape[0]
    for b in prange(blocks):
        _canonical_block(
            codes, perms, tables, free_group, free_labels, base, keys,
            b * n // blocks, (b + 1) * n // blocks,
        )  # fmt: skip


@njit(cache=True)
def _canonical_block(codes, perms, tables, free_group, free_labels, base, keys, start, stop):
    length = codes.shape[1]
    groups = free_labels.shape[0]
    renamed = np.full(base, -1, dtype=np.int64)
    used = np.zeros(max(groups, 1), dtype=np.int64)
    for i in range(start, stop):
        best = np.int64(-1)
        for e in range(perms.shape[0]):
            renamed[:] = -1
            used[:] = 0
            key = np.int64(0)
            for p in range(length):
                symbol = tables[e, codes[i, perms[e, p]]]
                g = free_group[symbol]
                if g >= 0:
                    if renamed[symbol] < 0:
                        renamed[symbol] = free_labels[g, used[g]]
                        used[g] += 1
                    symbol = renamed[symbol]
                key = key * base + symbol
            if best < 0 or key < best:
                best = key
        keys[i] = best


def warm_up() -> None:
    """Compile every kernel a game uses (or load it from numba's cache) on tiny inputs.

    The first run on a machine compiles for a few seconds; interactive commands call this in
    the background while a person reads the first prompt, so no move waits for it.
    """
    masks = np.array([1, 2, 4], dtype=np.uint64)
    out = np.zeros((3, 3), dtype=np.uint8)
    _score_block_1(masks, masks, masks, masks, 1, out, 0, 3)
    _score_parallel_1(masks, masks, masks, masks, 1, out, 2)
    sizes, costs = np.zeros((3, 4), dtype=np.int64), np.zeros(3, dtype=np.int64)
    table, logs = nlogn_table(3), log_table(3)
    _partition_block_1(masks, masks, masks, masks, 1, 4, 0, table, sizes, costs, 0, 3)
    _partition_parallel_1(masks, masks, masks, masks, 1, 4, 0, table, sizes, costs, 2)
    _pairwise_block_1(masks, masks, masks, masks, 1, 0, logs, costs, 0, 3)
    _pairwise_parallel_1(masks, masks, masks, masks, 1, 0, logs, costs, 2)
    codes = np.zeros((3, 1), dtype=np.int64)
    group = np.zeros((1, 1), dtype=np.int64)
    keys = np.zeros(3, dtype=np.int64)
    free = np.full(1, -1, dtype=np.int64)
    _canonical_block(codes, group, group, free, group, 1, keys, 0, 3)
    _canonical_parallel(codes, group, group, free, group, 1, keys, 2)
