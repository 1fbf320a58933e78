"""The optimal search's memo, in plain arrays: an open-addressing hash table that compiled
code reads and writes, its state, and a read-only base table of the same layout that it
falls back on (empty but for the sets a stopped run kept, ``search.kept``); a module
compiled ahead of time takes them as they are (``search_calls`` makes memos and grows them;
docs/kernels.md describes the layout).

>>> import numpy as np
>>> from bullscows._kernels.search_calls import new_memo
>>> memo = new_memo(16)
>>> store(memo, (7, 8, 3), (120, 5, 0, 1))
>>> entry(memo, (7, 8, 3)), entry(memo, (7, 8, 2))[0], int(memo[1][0])
((120, 5, 0, 1), -1, 1)
>>> bigger = grow(memo[0], 64)
>>> entry((bigger, memo[1], memo[2]), (7, 8, 3))
(120, 5, 0, 1)
>>> on_base = (new_memo(16)[0], np.zeros(2, dtype=np.int64), bigger)
>>> entry(on_base, (7, 8, 3)), int(on_base[1][0])  # copied from the base
((120, 5, 0, 1), 1)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bullscows._kernels.tables import FLIGHT, TRAFFIC_DISPLACED, TRAFFIC_KEPT, TRAFFIC_WRITTEN

#: Integers a slot: the key (``_H1``, ``_H2``, ``_DEPTH``), then cost, guess, floor, looked.
SLOT = 7
_H1, _H2, _DEPTH, _COST = 0, 1, 2, 3
#: The most of its slots a table fills (numerator, denominator): past it, sets are dropped.
FULL_SHARE = (3, 4)
#: ``state[_DROPPED]`` is set once a set was dropped.
_COUNT, _DROPPED = 0, 1


@njit(cache=True)
def _slot(table, h1, h2, depth):
    """The slot holding the key, or the empty slot where it would go."""
    mask = len(table) // SLOT - 1
    i = h1 & mask
    while True:
        at = i * SLOT
        held = table[at + _DEPTH]
        if held < 0 or (held == depth and table[at + _H1] == h1 and table[at + _H2] == h2):
            return at
        i = (i + 1) & mask


@njit(cache=True)
def entry(memo, key):
    """What the memo knows of the set ``key``: (cost or -1, guess or -1, floor, looked). A
    set its table lacks is looked up in its base (read-only, shared by the memos of one
    search: the sets a stopped run kept) and, if there, copied into the table."""
    table, base = memo[0], memo[2]
    at = _slot(table, key[0], key[1], key[2])
    if table[at + _DEPTH] >= 0:
        return (table[at + 3], table[at + 4], table[at + 5], table[at + 6])
    if len(base):
        at = _slot(base, key[0], key[1], key[2])
        if base[at + _DEPTH] >= 0:
            known = (base[at + 3], base[at + 4], base[at + 5], base[at + 6])
            store(memo, key, known)
            return known
    return (np.int64(-1), np.int64(-1), np.int64(0), np.int64(0))


@njit(cache=True)
def store(memo, key, value):
    """Record ``value`` for the set ``key``; a new set is dropped (and ``state`` says so)
    when the table is full."""
    table, state = memo[0], memo[1]
    at = _slot(table, key[0], key[1], key[2])
    if table[at + _DEPTH] < 0:
        slots = len(table) // SLOT
        if (state[_COUNT] + 1) * FULL_SHARE[1] > slots * FULL_SHARE[0]:  # one stays empty
            state[_DROPPED] = 1
            return
        state[_COUNT] += 1
        table[at + _H1], table[at + _H2], table[at + _DEPTH] = key[0], key[1], key[2]
    table[at + 3], table[at + 4], table[at + 5], table[at + 6] = value


#: Integers a slot of a shared table (one cache line): the key, cost, guess, floor, the
#: set's codes, then a checksum of the seven before it, written last.
SHARED_SLOT = 8
#: Slots a bucket of a shared table: a set goes in either slot of its bucket.
WAYS = 2
#: Mixes a shared slot's words into its checksum (odd: SplitMix64's multipliers and seed).
_MIX = (-4658895280553007687, -7723592293110705685, 7046029254386353131)


@njit(cache=True, inline="always")
def _checksum(h1, h2, depth, cost, guess, floor, n):
    """The checksum of a shared slot's words (never 0 for an empty, all-zero slot)."""
    z = h1 ^ _MIX[2]
    for word in (h2, depth, cost, guess, floor, n):
        z = (z ^ (z >> 31)) * _MIX[0] + word
        z = (z ^ (z >> 29)) * _MIX[1]
    return z ^ (z >> 32)


@njit(cache=True, inline="always")
def _held(shared, at):
    """The words of the shared slot at ``at`` (key, cost, guess, floor, the set's codes) and
    whether they agree with their checksum (not an empty slot, nor one torn by racing
    writers)."""
    h1, h2, depth = shared[at], shared[at + 1], shared[at + 2]
    cost, guess, floor, n = shared[at + 3], shared[at + 4], shared[at + 5], shared[at + 6]
    whole = shared[at + 7] == _checksum(h1, h2, depth, cost, guess, floor, n)
    return h1, h2, depth, cost, guess, floor, n, whole


@njit(cache=True, inline="always")
def _bucket(shared, key):
    """Where the bucket of the set ``key`` (``WAYS`` slots) starts in ``shared`` (its
    buckets, then ``FLIGHT`` integers of sets in flight)."""
    buckets = (len(shared) - FLIGHT) // (WAYS * SHARED_SLOT)
    return (key[0] & (buckets - 1)) * (WAYS * SHARED_SLOT)


@njit(cache=True)
def shared_entry(shared, key):
    """What the shared table ``shared`` knows of the set ``key``: (cost or -1, guess or -1,
    floor); a miss when neither slot of its bucket holds it whole (another set there, or the
    slot's words do not agree with their checksum: another thread writing it, a torn write,
    reads as a miss)."""
    if len(shared) == 0:
        return (np.int64(-1), np.int64(-1), np.int64(0))
    bucket = _bucket(shared, key)
    for at in range(bucket, bucket + WAYS * SHARED_SLOT, SHARED_SLOT):
        if shared[at] != key[0] or shared[at + 1] != key[1] or shared[at + 2] != key[2]:
            continue  # another set's slot (most reads): no checksum to compute
        h1, h2, depth, cost, guess, floor, _, whole = _held(shared, at)
        if whole and h1 == key[0] and h2 == key[1] and depth == key[2]:
            return (cost, guess, floor)
    return (np.int64(-1), np.int64(-1), np.int64(0))


@njit(cache=True)
def publish(shared, key, n, cost, guess, floor):
    """Write what is known of the set ``key`` of ``n`` codes (its exact cost and guess, or -1
    and a proven floor, the guess then -2 once the set was looked ahead at: the floor is at
    least its lookahead's bound) to its bucket of ``shared``: over its own slot, unless that
    holds as much already (an exact cost, or a floor as high, looked ahead at if this one
    is; kept: the exact cost, the higher floor, and -2); else over an empty or torn slot,
    else over the smaller set's (the larger costs more to search again). The checksum last.
    No lock: a reader takes a slot whose words were mixed by racing writers for a miss.
    Returns ``TRAFFIC_KEPT`` (nothing written), ``TRAFFIC_WRITTEN``, or
    ``TRAFFIC_DISPLACED`` (written over another set's entry)."""
    if len(shared) == 0:
        return TRAFFIC_KEPT
    bucket = _bucket(shared, key)
    to, done, least = -1, TRAFFIC_WRITTEN, np.int64(1) << 62
    for at in range(bucket, bucket + WAYS * SHARED_SLOT, SHARED_SLOT):
        h1, h2, depth, held_cost, held_guess, held_floor, held_n, whole = _held(shared, at)
        if whole and h1 == key[0] and h2 == key[1] and depth == key[2]:
            if held_cost >= 0 or (cost < 0 and held_floor >= floor and held_guess <= guess):
                return TRAFFIC_KEPT  # a write would cost the other cores a miss, for nothing
            floor = max(floor, held_floor)
            if cost < 0:
                guess = min(guess, held_guess)  # -2: looked ahead at
            to, done = at, TRAFFIC_WRITTEN
            break
        size = held_n if whole else np.int64(-1)  # an empty or torn slot first
        if size < least:
            to, least = at, size
            done = TRAFFIC_DISPLACED if whole else TRAFFIC_WRITTEN
    shared[to], shared[to + 1], shared[to + 2] = key[0], key[1], key[2]
    shared[to + 3], shared[to + 4], shared[to + 5], shared[to + 6] = cost, guess, floor, n
    shared[to + 7] = _checksum(key[0], key[1], key[2], cost, guess, floor, n)
    return done


#: Integers a bucket of the sets in flight: one cache line.
_FLIGHT_WAYS = 8


@njit(cache=True, inline="always")
def _tag(key):
    """The word marking the set ``key`` in flight (never 0, an empty word)."""
    tag = key[0] ^ (key[2] * _MIX[0])
    return tag if tag != 0 else np.int64(1)


@njit(cache=True)
def flying(shared, key):
    """Whether a search sharing ``shared`` has the set ``key``'s frame open (``board``)."""
    if len(shared) == 0:
        return False
    tag = _tag(key)
    bucket = len(shared) - FLIGHT + (key[1] & (FLIGHT // _FLIGHT_WAYS - 1)) * _FLIGHT_WAYS
    seen = False
    for at in range(bucket, bucket + _FLIGHT_WAYS):  # one cache line
        seen |= shared[at] == tag
    return seen


@njit(cache=True)
def board(shared, key):
    """Mark the set ``key`` in flight in ``shared``'s last ``FLIGHT`` integers: its frame is
    open. Returns the mark for ``land`` (0: its bucket was full, nothing marked). No lock:
    two searches racing for one word may lose a mark (a set then reads as not in flight),
    never leave one behind; what the marks say only counts the sets searched twice at once
    (``search_dfs``), never what a set costs or the order sets are searched in."""
    if len(shared) == 0:
        return np.int64(0)
    bucket = len(shared) - FLIGHT + (key[1] & (FLIGHT // _FLIGHT_WAYS - 1)) * _FLIGHT_WAYS
    for at in range(bucket, bucket + _FLIGHT_WAYS):
        if shared[at] == 0:
            shared[at] = _tag(key)
            return np.int64(at + 1)
    return np.int64(0)


@njit(cache=True)
def land(shared, mark, key):
    """Clear ``board``'s ``mark`` of the set ``key`` (the set's frame is closed), unless
    another search wrote over it since."""
    if mark > 0 and shared[mark - 1] == _tag(key):
        shared[mark - 1] = 0


@njit(cache=True)
def grow(table, slots):
    """A table of ``slots`` slots (a power of two) holding every set of ``table``."""
    grown = np.full(slots * SLOT, -1, dtype=np.int64)
    for at in range(0, len(table), SLOT):
        if table[at + _DEPTH] >= 0:
            to = _slot(grown, table[at + _H1], table[at + _H2], table[at + _DEPTH])
            grown[to : to + SLOT] = table[at : at + SLOT]
    return grown


@njit(cache=True)
def crowded(memo):
    """Whether the search should give up and have the table grown: a set was dropped, or
    the table is half full (so a search rarely runs into a full one)."""
    table, state = memo[0], memo[1]
    return state[_DROPPED] != 0 or 2 * state[_COUNT] * SLOT > len(table)


__all__ = [
    "FULL_SHARE", "SHARED_SLOT", "SLOT", "WAYS", "board", "crowded", "entry", "flying", "grow",
    "land", "publish", "shared_entry", "store",
]  # fmt: skip
