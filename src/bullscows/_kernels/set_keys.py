"""The canonical key of a set of codes under every relabelling of symbols and positions.

Two sets get the same key exactly when one is the other with its symbols renamed and its
positions reordered (in a variant whose every position allows every symbol). For each order
of the positions, the symbols are coloured by how they sit in the set (refined twice through
the codes they occur in), ordered by colour, and every order of symbols of equal colour is
tried; the key is the smallest sorted list of codes (mixed-radix numbers) so written. The
colours depend on the set's shape alone, never on the names, so every set of an orbit meets
the same candidates. Only the orders of positions that sort the positions' own colours (their
symbols' counts) are tried. More than ``cap`` orders of tied symbols: no key (``False``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

MIX = np.uint64(0x9E3779B97F4A7C15)
ROUNDS = 2


@njit(cache=True)
def _mix(value):
    value = (value ^ (value >> np.uint64(31))) * MIX
    return value ^ (value >> np.uint64(29))


@njit(cache=True)
def _next_in_groups(order, starts, stops):
    """Step ``order`` to the next arrangement, each group ``order[starts[g]:stops[g]]``
    permuted in lexicographic order like an odometer; ``False`` once every one was seen."""
    for g in range(len(starts) - 1, -1, -1):
        lo, hi = starts[g], stops[g]
        i = hi - 2
        while i >= lo and order[i] >= order[i + 1]:
            i -= 1
        if i >= lo:
            j = hi - 1
            while order[j] <= order[i]:
                j -= 1
            order[i], order[j] = order[j], order[i]
            order[i + 1 : hi] = order[i + 1 : hi][::-1].copy()
            return True
        order[lo:hi] = order[lo:hi][::-1].copy()  # back to its first arrangement
    return False


@njit(cache=True)
def set_key(digits, perms, base, cap, out):
    """Write the canonical key of the codes ``digits`` (one row each) into ``out``; ``perms``:
    the orders of the positions to try. ``False`` (``out`` unspecified) if some order of
    positions leaves more than ``cap`` arrangements of tied symbols."""
    n, length = digits.shape
    present = np.zeros(base, dtype=np.bool_)
    for i in range(n):
        for p in range(length):
            present[digits[i, p]] = True
    symbols = np.flatnonzero(present)
    m = len(symbols)
    shape = np.zeros(length, dtype=np.uint64)  # each position's colour: its symbols' counts
    counts = np.zeros(base, dtype=np.int64)
    for p in range(length):
        counts[:] = 0
        for i in range(n):
            counts[digits[i, p]] += 1
        for s in range(base):
            shape[p] += _mix(np.uint64(counts[s] + 1))
    placed = np.empty((n, length), dtype=np.int64)
    colour = np.zeros(base, dtype=np.uint64)
    fresh = np.zeros(base, dtype=np.uint64)
    code_hash = np.empty(n, dtype=np.uint64)
    label = np.zeros(base, dtype=np.int64)
    keys = np.empty(n, dtype=np.int64)
    found = False
    for e in range(perms.shape[0]):
        sorted_shape = True  # only the orders of positions that sort their colours
        for p in range(1, length):
            if shape[perms[e, p - 1]] > shape[perms[e, p]]:
                sorted_shape = False
        if not sorted_shape:
            continue
        for i in range(n):
            for p in range(length):
                placed[i, p] = digits[i, perms[e, p]]
        colour[:] = 0
        for i in range(n):
            for p in range(length):
                colour[placed[i, p]] += _mix(np.uint64(p + 1))
        for _ in range(ROUNDS):
            for i in range(n):
                h = np.uint64(length)
                for p in range(length):
                    h = _mix(h ^ colour[placed[i, p]])
                code_hash[i] = h
            fresh[:] = 0
            for i in range(n):
                for p in range(length):
                    fresh[placed[i, p]] += _mix(code_hash[i] + np.uint64(p + 1))
            for symbol in symbols:
                colour[symbol] = _mix(colour[symbol] ^ _mix(fresh[symbol]))
        shades = colour[symbols]
        order = symbols[np.argsort(shades, kind="mergesort")]
        starts, stops = [], []
        arrangements = 1
        a = 0
        while a < m:
            b = a + 1
            while b < m and colour[order[b]] == colour[order[a]]:
                b += 1
            if b - a > 1:
                starts.append(a)
                stops.append(b)
                for k in range(2, b - a + 1):
                    arrangements *= k
                    if arrangements > cap:
                        return False
                order[a:b] = np.sort(order[a:b])
            a = b
        starts_array = np.array(starts, dtype=np.int64)
        stops_array = np.array(stops, dtype=np.int64)
        while True:
            for j in range(m):
                label[order[j]] = j
            for i in range(n):
                key = 0
                for p in range(length):
                    key = key * base + label[placed[i, p]]
                keys[i] = key
            keys.sort()
            smaller = not found
            if found:
                for i in range(n):
                    if keys[i] != out[i]:
                        smaller = keys[i] < out[i]
                        break
            if smaller:
                out[:] = keys
                found = True
            if not _next_in_groups(order, starts_array, stops_array):
                break
    return True


def canonical_set(
    digits: npt.NDArray[np.int64], perms: npt.NDArray[np.int64], base: int, cap: int
) -> npt.NDArray[np.int64] | None:
    """``set_key`` as a new array, or ``None`` where there are too many tied symbols.

    >>> perms = np.array([[0, 1], [1, 0]])
    >>> canonical_set(np.array([[0, 1], [2, 1]]), perms, 3, 10).tolist()  # 01 and 21
    [3, 6]
    >>> canonical_set(np.array([[2, 0], [2, 1]]), perms, 3, 10).tolist()  # 20 and 21: the same
    [3, 6]
    """
    out = np.empty(len(digits), dtype=np.int64)
    return out if set_key(digits, perms, base, cap, out) else None
