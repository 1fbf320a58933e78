"""A large universe's arrays built in compiled loops that let go of Python's lock (``nogil``):
its codes, their keys and their bit masks (``universe`` calls these for variants of
``universe.COMPILED_CODES`` codes or more; its numpy twins build the smaller ones, and a test
holds the two to the same arrays). A server's other requests run on while one of its threads
builds a universe of millions of codes.

>>> codes = enumerate_codes([np.array([0, 1]), np.array([0, 1, 2])], repeats=False)
>>> codes.tolist()
[[0, 1], [0, 2], [1, 0], [1, 2]]
>>> code_keys(codes, 3).tolist()
[1, 2, 3, 5]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from numba import njit

Codes = npt.NDArray[np.uint8]
Masks = npt.NDArray[np.uint64]


@njit(cache=True, nogil=True)
def _walk(allowed, counts, repeats, out, write):
    """Every code in lexicographic order (position ``p`` takes ``allowed[p, :counts[p]]``,
    each symbol once unless ``repeats``), written as rows of ``out`` if ``write``; their count.
    A depth-first walk: ``choice[p]`` is the place in ``allowed[p]`` of the symbol at ``p``."""
    length = counts.shape[0]
    choice = np.zeros(length, dtype=np.int64)
    current = np.zeros(length, dtype=np.uint8)
    used = np.uint64(0)
    one = np.uint64(1)
    rows = 0
    p = 0
    while p >= 0:
        if choice[p] == counts[p]:  # every symbol tried here: back to the position before
            p -= 1
            if p >= 0:
                used &= ~(one << np.uint64(allowed[p, choice[p]]))
                choice[p] += 1
            continue
        symbol = allowed[p, choice[p]]
        if not repeats and (used >> np.uint64(symbol)) & one:
            choice[p] += 1
            continue
        current[p] = symbol
        if p == length - 1:
            if write:
                out[rows, :] = current
            rows += 1
            choice[p] += 1
        else:
            used |= one << np.uint64(symbol)
            p += 1
            choice[p] = 0
    return rows


def enumerate_codes(
    allowed: Sequence[npt.NDArray[np.integer]], repeats: bool, count: int | None = None
) -> Codes:
    """Every code whose position ``p`` holds a symbol of ``allowed[p]`` (alphabet indices in
    increasing order), each symbol at most once unless ``repeats``: rows in lexicographic
    order, as ``universe.enumerate_codes`` gives them. ``count``, the number of such codes
    when known (``Rules.size``), saves the walk that counts them; it must be exact."""
    counts = np.array([len(a) for a in allowed], dtype=np.int64)
    table = np.zeros((len(allowed), max(1, int(counts.max()))), dtype=np.int64)
    for position, symbols in enumerate(allowed):
        table[position, : len(symbols)] = symbols
    if count is None:
        empty = np.zeros((0, len(allowed)), dtype=np.uint8)
        count = _walk(table, counts, repeats, empty, False)
    out = np.empty((count, len(allowed)), dtype=np.uint8)
    _walk(table, counts, repeats, out, True)
    return out


@njit(cache=True, nogil=True)
def _keys(codes, base, keys):
    for i in range(codes.shape[0]):
        key = 0
        for p in range(codes.shape[1]):
            key = key * base + codes[i, p]
        keys[i] = key


def code_keys(codes: npt.NDArray[np.integer], base: int) -> npt.NDArray[np.int64]:
    """Each code read as a number in base ``base`` (``universe.code_keys``)."""
    keys = np.empty(len(codes), dtype=np.int64)
    _keys(np.ascontiguousarray(codes), base, keys)
    return keys


@njit(cache=True, nogil=True)
def _set_masks(codes, symbols, width, pos_masks, sym_masks):
    length = codes.shape[1]
    one = np.uint64(1)
    for i in range(codes.shape[0]):
        for p in range(length):
            symbol = np.int64(codes[i, p])
            bit = p * symbols + symbol
            pos_masks[i, bit >> 6] |= one << np.uint64(bit & 63)
            occurrence = 0  # earlier places with this symbol
            if width > 1:
                for earlier in range(p):
                    occurrence += codes[i, earlier] == codes[i, p]
            bit = symbol * width + occurrence
            sym_masks[i, bit >> 6] |= one << np.uint64(bit & 63)


def set_masks(codes: Codes, symbols: int, width: int, pos_masks: Masks, sym_masks: Masks) -> None:
    """Set the bits of each code's masks (``universe.build_masks`` says which) in the zeroed
    ``pos_masks`` and ``sym_masks``."""
    _set_masks(np.ascontiguousarray(codes), symbols, width, pos_masks, sym_masks)


def warm_up() -> None:
    """Compile the kernels (or load them from numba's cache) on tiny inputs."""
    codes = enumerate_codes([np.array([0, 1]), np.array([0, 1])], repeats=True)
    code_keys(codes, 2)
    masks = np.zeros((len(codes), 1), dtype=np.uint64)
    set_masks(codes, 2, 2, masks, masks.copy())
