"""Codes as bit masks: two popcounts score a pair.

numba kernels: score codes held as bit masks, two popcounts a pair.

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
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

#: Masks are given as rows of ``uint64`` words, or (one word each) as a flat array.
Masks = npt.NDArray[np.uint64]


@intrinsic
def popcount(typingctx: object, value: types.Type) -> tuple[object, object]:
    """LLVM's ``ctpop``: one ``popcnt`` instruction on the host CPU."""
    signature = types.uint64(types.uint64)

    def codegen(context: object, builder: ir.IRBuilder, sig: object, args: list[ir.Value]):
        return builder.ctpop(args[0])

    return signature, codegen


@intrinsic
def claim(typingctx: object, counter: types.Type) -> tuple[object, object]:
    """Atomically add 1 to ``counter[0]``; the value before: the number of the next block of
    work, which no other thread then takes."""
    signature = types.int64(counter)

    def codegen(context, builder: ir.IRBuilder, sig, args: list[ir.Value]):
        arrayty = sig.args[0]
        array = context.make_array(arrayty)(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        pointer = cgutils.get_item_pointer(context, builder, arrayty, array, [zero])
        return builder.atomic_rmw("add", pointer, context.get_constant(types.int64, 1), "seq_cst")

    return signature, codegen


@njit(cache=True, inline="always")
def span(counter, blocks, rows):
    """The rows ``start, stop`` of the next of ``blocks`` equal blocks of ``rows`` that no other
    thread has taken (``claim``); an empty span once none is left."""
    b = min(claim(counter), blocks)
    return b * rows // blocks, min(b + 1, blocks) * rows // blocks


def counter() -> npt.NDArray[np.int64]:
    """A counter for ``claim``, at 0."""
    return np.zeros(1, dtype=np.int64)


@njit(cache=True, inline="always")
def index_words(pos_a, sym_a, i, pos_b, sym_b, j, length):
    bulls = 0
    for w in range(pos_a.shape[1]):
        bulls += popcount(pos_a[i, w] & pos_b[j, w])
    common = 0
    for w in range(sym_a.shape[1]):
        common += popcount(sym_a[i, w] & sym_b[j, w])
    return length * bulls + common


def one_word(*masks: Masks) -> bool:
    """Masks are given as rows of words, or (one word each) as a flat array."""
    return all(m.ndim == 1 or m.shape[1] == 1 for m in masks)


def flat(masks: Masks) -> Masks:
    return masks if masks.ndim == 1 else np.ascontiguousarray(masks[:, 0])


@njit(cache=True, inline="always")
def add4(row, a, b, c, d, r):
    """``row[i] += (a[i] == r) + (b[i] == r) + (c[i] == r) + (d[i] == r)``: four rows of
    replies counted in one pass over a row of counters (a loop that vectorises)."""
    for i in range(len(row)):
        x = row[i]
        x += a[i] == r
        x += b[i] == r
        x += c[i] == r
        x += d[i] == r
        row[i] = x


@njit(cache=True, inline="always")
def add1(row, line, r):
    """``row[i] += line[i] == r``."""
    for i in range(len(row)):
        row[i] += line[i] == r
