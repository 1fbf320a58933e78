"""numba kernels of the deep lower bound (``search.deep_bound``): a part's bound two guesses
deep, by branch and bound over its second guesses.

A part ``P`` of a first guess is read as a block: ``block[c, g]`` is the reply of ``P``'s code
``c`` to guess ``g`` (every guess a column). The *lookahead* of a set ``Q`` is the lowest, over
its guesses, of ``len(Q)`` plus the ideal cost of each part the guess leaves
(``search_kernels``' bound); the *deep bound* of ``P`` the lowest, over its second guesses
``h``, of ``len(P)`` plus the lookahead of each part ``h`` leaves; the *deeper bound* the same
with each of those parts charged its own deep bound. Each entry point releases the GIL, so
parts are bounded on threads at once.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bullscows._kernels.search_dfs import ideal
from bullscows._kernels.search_kernels import lowest, scan

#: ``lowest`` counts part sizes in bytes: sets up to this many codes.
_BYTE_SET = 255


@njit(cache=True)
def lookahead(block, guesses, codes, valid, win, caps):  # type: ignore[no-untyped-def]
    """The lookahead of ``codes`` (rows of ``block``) over ``guesses`` (columns): exact, the
    ideal cost, for one or two codes."""
    n = len(codes)
    depth = n + 1  # no depth cap
    if n <= 2:
        return ideal(n, depth, caps, 1, 0)
    none = np.empty(0, dtype=np.int64)  # rows: the block's own, code ``c`` is row ``c``
    if n <= _BYTE_SET:
        return lowest(block, none, guesses, codes, valid, caps, depth)[0]
    return scan(block, none, guesses, codes, valid, win, caps, depth, 1, 0)[0].min()


@njit(cache=True)
def _by_reply(block, column, codes, members, count):  # type: ignore[no-untyped-def]
    """``codes`` by their reply to guess ``column`` (a counting sort): reply ``r``'s codes are
    ``members[count[r]:count[r + 1]]``."""
    slots = len(count) - 1
    count[:] = 0
    for c in codes:
        count[block[c, column] + 1] += 1
    for r in range(slots):
        count[r + 1] += count[r]
    fill = count[:slots].copy()
    for c in codes:
        r = block[c, column]
        members[fill[r]] = c
        fill[r] += 1


@njit(cache=True)
def _deep(block, codes, guesses, cheap, after, begin, end, valid, win, caps, slots, limit):  # type: ignore[no-untyped-def]
    """The lowest, over ``guesses`` (``cheap``: their bounds one guess shallower), of
    ``len(codes)`` plus the lookahead of each part, guess ``i``'s parts looking ahead over
    ``after[begin[i]:end[i]]``, if below ``limit``, else ``limit``; the index of a guess of
    that bound (-1 at ``limit``)."""
    best, arg = limit, -1
    members = np.empty(len(codes), dtype=np.int64)
    count = np.zeros(slots + 1, dtype=np.int64)
    for i in np.argsort(cheap, kind="mergesort"):
        if cheap[i] >= best:  # nor any guess after it: its deep bound is at least this
            break
        _by_reply(block, guesses[i], codes, members, count)
        sum_ = cheap[i]
        nexts = after[begin[i] : end[i]]
        for r in range(slots):
            size = count[r + 1] - count[r]
            if r == win or size < 3:  # a part of one or two codes: its ideal cost is exact
                continue
            part = members[count[r] : count[r + 1]]
            sum_ += lookahead(block, nexts, part, valid, win, caps)
            sum_ -= ideal(size, size + 1, caps, 1, 0)  # the ideal cost, no depth cap
            if sum_ >= best:
                break
        if sum_ < best:
            best, arg = sum_, i
    return best, arg


@njit(cache=True, nogil=True)
def part_bound(block, seconds, cheap, thirds, starts, valid, win, caps, slots, limit):  # type: ignore[no-untyped-def]
    """The deep bound of the part whose codes are ``block``'s rows, if below ``limit``, else
    ``limit``, and the index (into ``seconds``) of a second guess of that bound (-1 at
    ``limit``).

    ``seconds`` are the second guesses (columns), ``cheap`` their bounds one guess shallower
    (``search_kernels``' bound of the part); ``thirds[starts[i]:starts[i + 1]]`` the third
    guesses after ``seconds[i]`` (columns, in increasing order). Second guesses are bounded in
    the order of ``cheap``: one whose cheap bound reaches the best found so far is never
    better (the deep bound of a guess is at least its cheap bound), so the scan stops there;
    within a guess, each part's lookahead replaces its ideal cost in turn, and the guess is
    dropped once the sum reaches the best.
    """
    codes = np.arange(block.shape[0])
    return _deep(block, codes, seconds, cheap, thirds, starts[:-1], starts[1:], valid, win,
                 caps, slots, limit)  # fmt: skip


@njit(cache=True, nogil=True)
def part_bound3(block, seconds, cheap, thirds, starts, valid, win, caps, slots, limit):  # type: ignore[no-untyped-def]
    """``part_bound`` one guess deeper: each part a second guess leaves charged its own deep
    bound (third guesses ``thirds[starts[i]:starts[i + 1]]``, fourth guesses every column)
    rather than its lookahead.

    Every second guess is first bounded one level less deep (its parts' lookaheads, as in
    ``part_bound``); they are then bounded deeper in that order, until that bound reaches the
    best found, each part's deep bound replacing its lookahead in turn, largest part first.
    """
    n, m = block.shape
    codes = np.arange(n)
    every = np.arange(m)
    members = np.empty(n, dtype=np.int64)
    count = np.zeros(slots + 1, dtype=np.int64)
    middle = cheap.copy()  # each second guess's deep bound, or at least ``limit``
    for i in range(len(seconds)):
        if cheap[i] >= limit:
            continue
        _by_reply(block, seconds[i], codes, members, count)
        nexts = thirds[starts[i] : starts[i + 1]]
        for r in range(slots):
            size = count[r + 1] - count[r]
            if r == win or size < 3:
                continue
            part = members[count[r] : count[r + 1]]
            middle[i] += lookahead(block, nexts, part, valid, win, caps)
            middle[i] -= ideal(size, size + 1, caps, 1, 0)
            if middle[i] >= limit:
                break
    best, arg = limit, -1
    for i in np.argsort(middle, kind="mergesort"):
        if middle[i] >= best:
            break
        _by_reply(block, seconds[i], codes, members, count)
        sum_ = middle[i]
        nexts = thirds[starts[i] : starts[i + 1]]
        begin = np.zeros(len(nexts), dtype=np.int64)
        end = np.full(len(nexts), m, dtype=np.int64)
        sizes = count[1:] - count[:-1]
        for r in np.argsort(-sizes, kind="mergesort"):  # the largest parts gain most
            size = sizes[r]
            if size < 3:
                break
            if r == win:
                continue
            part = members[count[r] : count[r + 1]]
            below = scan(block, np.empty(0, dtype=np.int64), nexts, part, valid, win, caps,
                         size + 1, 1, 0)[0]  # fmt: skip
            ahead = below.min()
            deep = _deep(block, part, nexts, below, every, begin, end, valid, win, caps, slots,
                         ahead + best - sum_)[0]  # fmt: skip
            sum_ += deep - ahead
            if sum_ >= best:
                break
        if sum_ < best:
            best, arg = sum_, i
    return best, arg
