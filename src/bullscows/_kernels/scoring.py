"""The reply of every pair of codes of two sets, as a matrix of reply indices."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from bullscows._kernels import drivers
from bullscows._kernels.bits import Masks, flat, index_words, one_word, popcount, span

# One-word masks (length x symbols <= 64: every classic variant) get loops LLVM can vectorise:
# about ten times faster than the general multi-word loops below.


@njit(cache=True)
def _score_block_1(pos_a, sym_a, pos_b, sym_b, length, out, start, stop):
    for i in range(start, stop):
        p, s = pos_a[i], sym_a[i]
        for j in range(pos_b.shape[0]):
            out[i, j] = length * popcount(p & pos_b[j]) + popcount(s & sym_b[j])


@njit(cache=True)
def _score_block_words(pos_a, sym_a, pos_b, sym_b, length, out, start, stop):
    for i in range(start, stop):
        for j in range(pos_b.shape[0]):
            out[i, j] = index_words(pos_a, sym_a, i, pos_b, sym_b, j, length)


@njit(cache=True, parallel=True)
def _score_parallel_1(pos_a, sym_a, pos_b, sym_b, length, out, blocks, taken, workers):
    for _ in prange(workers):
        start, stop = span(taken, blocks, pos_a.shape[0])
        while start < stop:
            _score_block_1(pos_a, sym_a, pos_b, sym_b, length, out, start, stop)
            start, stop = span(taken, blocks, pos_a.shape[0])


@njit(cache=True, parallel=True)
def _score_parallel_words(pos_a, sym_a, pos_b, sym_b, length, out, blocks, taken, workers):
    for _ in prange(workers):
        start, stop = span(taken, blocks, pos_a.shape[0])
        while start < stop:
            _score_block_words(pos_a, sym_a, pos_b, sym_b, length, out, start, stop)
            start, stop = span(taken, blocks, pos_a.shape[0])


#: A pair scored here is about this many times cheaper than the pairs ``drivers.SERIAL_PAIRS``
#: counts (a partition's): a matrix of up to 16M pairs (a few milliseconds on one thread, the
#: ``p4c9n`` search's 3024 x 3024 included) is scored on the calling thread, so that a process
#: with no other parallel work loads no parallel driver and starts no threads (tens of ms).
SCORE_PAIR_SHARE = 8


def score_matrix(
    pos_a: Masks, sym_a: Masks, pos_b: Masks, sym_b: Masks, length: int, out: npt.NDArray[np.uint8]
) -> None:
    """``out[i, j]`` = reply index of code ``i`` of a against code ``j`` of b."""
    rows, pairs = pos_a.shape[0], pos_a.shape[0] * pos_b.shape[0] // SCORE_PAIR_SHARE
    if one_word(pos_a, sym_a):
        args = (flat(pos_a), flat(sym_a), flat(pos_b), flat(sym_b), length, out)
        drivers.run_kernel(_score_block_1, _score_parallel_1, args, rows, pairs)
    else:
        args = (pos_a, sym_a, pos_b, sym_b, length, out)
        drivers.run_kernel(_score_block_words, _score_parallel_words, args, rows, pairs)
