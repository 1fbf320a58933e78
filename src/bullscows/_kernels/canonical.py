"""The canonical key of each code under a group of symmetries (``bullscows.symmetry``)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from bullscows._kernels import drivers
from bullscows._kernels.bits import span


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
    drivers.run_kernel(_canonical_block, _canonical_parallel, args, codes.shape[0], pairs)
    return keys


@njit(cache=True, parallel=True)
def _canonical_parallel(codes, perms, tables, free_group, free_labels, base, keys, blocks, taken,
                        workers):  # fmt: skip
    for _ in prange(workers):
        start, stop = span(taken, blocks, codes.shape[0])
        while start < stop:
            _canonical_block(codes, perms, tables, free_group, free_labels, base, keys, start, stop)
            start, stop = span(taken, blocks, codes.shape[0])


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
