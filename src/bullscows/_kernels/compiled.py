"""numba kernels: score codes held as bit masks, two popcounts a pair.

Each code carries two masks (rows of ``uint64`` words):

* a positional one-hot mask, bit ``position * k + symbol``, so ``popcount(a & b)`` is the bulls;
* a per-symbol "thermometer", where a symbol present ``m`` times sets ``m`` bits of its own
  field, so ``popcount(a & b)`` is the multiset intersection: bulls plus cows.

The reply index ``bulls * (length + 1) + cows`` is then ``length * bulls + common``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from llvmlite import ir
from numba import njit, prange, types
from numba.extending import intrinsic


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


@njit(cache=True, parallel=True)
def _score_matrix_1(pos_a, sym_a, pos_b, sym_b, length, out):
    for i in prange(pos_a.shape[0]):
        p, s = pos_a[i], sym_a[i]
        for j in range(pos_b.shape[0]):
            out[i, j] = length * _popcount(p & pos_b[j]) + _popcount(s & sym_b[j])


@njit(cache=True, parallel=True)
def _score_matrix_words(pos_a, sym_a, pos_b, sym_b, length, out):
    for i in prange(pos_a.shape[0]):
        for j in range(pos_b.shape[0]):
            out[i, j] = _index_words(pos_a, sym_a, i, pos_b, sym_b, j, length)


@njit(cache=True, parallel=True)
def _partition_sizes_1(pos_g, sym_g, pos_c, sym_c, length, slots):
    sizes = np.zeros((pos_g.shape[0], slots), dtype=np.int32)
    for i in prange(pos_g.shape[0]):
        p, s = pos_g[i], sym_g[i]
        for j in range(pos_c.shape[0]):
            sizes[i, length * _popcount(p & pos_c[j]) + _popcount(s & sym_c[j])] += 1
    return sizes


@njit(cache=True, parallel=True)
def _partition_sizes_words(pos_g, sym_g, pos_c, sym_c, length, slots):
    sizes = np.zeros((pos_g.shape[0], slots), dtype=np.int32)
    for i in prange(pos_g.shape[0]):
        for j in range(pos_c.shape[0]):
            sizes[i, _index_words(pos_g, sym_g, i, pos_c, sym_c, j, length)] += 1
    return sizes


Masks = npt.NDArray[np.uint64]


def _one_word(*masks: Masks) -> bool:
    return all(m.shape[1] == 1 for m in masks)


def score_matrix(
    pos_a: Masks, sym_a: Masks, pos_b: Masks, sym_b: Masks, length: int, out: npt.NDArray[np.uint8]
) -> None:
    """``out[i, j]`` = reply index of code ``i`` of a against code ``j`` of b."""
    if _one_word(pos_a, sym_a):
        _score_matrix_1(
            np.ascontiguousarray(pos_a[:, 0]), np.ascontiguousarray(sym_a[:, 0]),
            np.ascontiguousarray(pos_b[:, 0]), np.ascontiguousarray(sym_b[:, 0]),
            length, out,
        )  # fmt: skip
    else:
        _score_matrix_words(pos_a, sym_a, pos_b, sym_b, length, out)


def partition_sizes(
    pos_g: Masks, sym_g: Masks, pos_c: Masks, sym_c: Masks, length: int, slots: int
) -> npt.NDArray[np.int32]:
    """``sizes[i, r]`` = how many candidates give reply index ``r`` to guess ``i``."""
    if _one_word(pos_g, sym_g):
        sizes: npt.NDArray[np.int32] = _partition_sizes_1(
            np.ascontiguousarray(pos_g[:, 0]), np.ascontiguousarray(sym_g[:, 0]),
            np.ascontiguousarray(pos_c[:, 0]), np.ascontiguousarray(sym_c[:, 0]),
            length, slots,
        )  # fmt: skip
        return sizes
    sizes = _partition_sizes_words(pos_g, sym_g, pos_c, sym_c, length, slots)
    return sizes
