"""numba kernels of the optimal-tree search (``bullscows.search``): one pass over every guess
at a node, and the test for a candidate that splits the others into single codes.

They read code ``c``'s replies to every guess as ``scores[rows[c]]`` (a block of the rows a
search needs), or as ``scores[c]`` when ``rows`` is empty (the whole, symmetric matrix: the
loops over rows then read it as they always did, ``rows_of``). They bound each guess by
``len(codes)`` plus the ideal cost of each non-winning part (``search.bounds``); how the
counting is vectorised, and what each step saves, is in docs/kernels.md.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from bullscows._kernels.bits import add1, add4, popcount
from bullscows._kernels.tables import INFEASIBLE, USELESS

IntArray = npt.NDArray[np.int64]


#: Guesses counted per block: a block's counters (a byte or two per guess and reply) and the
#: replies of the four codes being added stay in the first-level cache, so each code's row is
#: read from further away once per block instead of once per reply.
BLOCK = 1024


@njit(cache=True)
def _count(scores, guesses, full, codes, valid, counts, lines, lo):  # type: ignore[no-untyped-def]
    """Per guess ``lo`` to ``lo + counts.shape[1]`` (positions in ``guesses``): codes per
    non-winning reply (``counts[q]`` for ``valid[q]``; the others win, since ``valid`` holds
    every reply but the winning one). ``counts`` may hold anything on entry: the first pass
    writes it.

    Four codes at a time: each pass over a row of counters adds the four codes' matches, so
    the counters are read and written a quarter as often.
    """
    n = len(codes)
    hi = lo + counts.shape[1]
    whole = n - n % 4
    if whole == 0:
        counts[:] = 0
    for j in range(0, whole, 4):
        if full:
            a, b = scores[codes[j], lo:hi], scores[codes[j + 1], lo:hi]
            c, d = scores[codes[j + 2], lo:hi], scores[codes[j + 3], lo:hi]
        else:
            for k in range(4):
                _gather(scores[codes[j + k]], guesses[lo:hi], lines[k])
            a, b, c, d = lines[0], lines[1], lines[2], lines[3]
        for q in range(len(valid)):
            if j == 0:
                _set4(counts[q], a, b, c, d, np.uint8(valid[q]))
            else:
                add4(counts[q], a, b, c, d, np.uint8(valid[q]))
    for j in range(whole, n):
        if full:
            line = scores[codes[j], lo:hi]
        else:
            line = lines[0]
            _gather(scores[codes[j]], guesses[lo:hi], line)
        for q in range(len(valid)):
            add1(counts[q], line, np.uint8(valid[q]))


@njit(cache=True, inline="always")
def _block(counts, lines, m, lo):  # type: ignore[no-untyped-def]
    """``(counts, lines)`` narrowed to the block of guesses from ``lo`` (of ``m``): the same
    arrays, or for a last, shorter block new ones of its width."""
    width = min(counts.shape[1], m - lo)
    if width == counts.shape[1]:
        return counts, lines
    return (
        np.empty((counts.shape[0], width), dtype=counts.dtype),
        np.empty((4, width if lines.shape[1] else 0), dtype=lines.dtype),
    )


@njit(cache=True)
def rows_of(rows, codes):  # type: ignore[no-untyped-def]
    """The rows of ``codes``' replies: the codes themselves in a whole matrix."""
    return codes if len(rows) == 0 else rows[codes]


@njit(cache=True)
def replies_to(scores, rows, guess, codes):  # type: ignore[no-untyped-def]
    """``(line, at)``: the reply of ``codes[j]`` to ``guess`` is ``line[at[j]]``. In a whole
    matrix, the guess's row and the codes themselves (nothing copied); in a block, the
    replies read down the codes' rows, in order."""
    if len(rows) == 0:
        return scores[guess], codes
    replies = np.empty(len(codes), dtype=np.uint8)
    for j in range(len(codes)):
        replies[j] = scores[rows[codes[j]], guess]
    return replies, np.arange(len(codes))


@njit(cache=True, inline="always")
def _set4(row, a, b, c, d, r):  # type: ignore[no-untyped-def]
    for i in range(len(row)):
        row[i] = (a[i] == r) + (b[i] == r) + (c[i] == r) + (d[i] == r)


@njit(cache=True, inline="always")
def _gather(source, guesses, line):  # type: ignore[no-untyped-def]
    for i in range(len(guesses)):
        line[i] = source[guesses[i]]


@njit(cache=True, inline="always")
def _levels(caps, depth, n):  # type: ignore[no-untyped-def]
    """The level past the second up to which capacities can matter (below ``n`` codes, within
    ``depth`` guesses), and the most codes a part may hold to be settled within ``depth``."""
    top = 2
    while top < depth and top < len(caps) and caps[top] < n:
        top += 1
    return top, caps[depth] if depth < len(caps) else n


@njit(cache=True)
def scan(scores, rows, guesses, codes, valid, win, caps, depth, weight, penalty):  # type: ignore[no-untyped-def]
    """``guess_bounds``, callable from compiled code."""
    n = len(codes)
    m = len(guesses)
    bounds = np.empty(m, dtype=np.int64)
    squares = np.empty(m, dtype=np.int64)
    solved = np.empty(m, dtype=np.int64)
    largest = np.empty(m, dtype=np.int64)
    full = m == scores.shape[1]  # every column, in order: each code's row is read as it is
    wide = n > 255
    width = min(m, BLOCK)
    counts8 = np.empty((len(valid), width if not wide else 0), dtype=np.uint8)
    counts16 = np.empty((len(valid), width if wide else 0), dtype=np.uint16)
    lines = np.empty((4, width if not full else 0), dtype=np.uint8)
    at = rows_of(rows, codes)
    top, limit = _levels(caps, depth, n)
    # A part's codes beyond what ``depth - 1`` guesses settle end at its last level.
    last = caps[depth - 1] if penalty and 1 <= depth <= len(caps) else -1
    options = (n, caps, top, limit, weight, penalty, last)
    for lo in range(0, m, BLOCK):
        hi = min(lo + BLOCK, m)
        figures = (bounds[lo:hi], squares[lo:hi], solved[lo:hi], largest[lo:hi])
        if wide:
            counts16, lines = _block(counts16, lines, m, lo)
            _count(scores, guesses, full, at, valid, counts16, lines, lo)
            _figures(counts16, options, figures, np.int32, np.int32)
        else:
            counts8, lines = _block(counts8, lines, m, lo)
            _count(scores, guesses, full, at, valid, counts8, lines, lo)
            # Narrow sums, as many in a vector as can be: at most 13 parts, the largest 255
            # codes, squares summing to 255 ** 2 at most, and a few levels' excess of 255 each.
            _figures(counts8, options, figures, np.uint8, np.uint16)
    return bounds, squares, solved, largest


@njit(cache=True)
def _figures(counts, options, figures, kind, square):  # type: ignore[no-untyped-def]
    """The figures of every guess from its part sizes, summed in ``kind`` and ``square``."""
    n, caps, top, limit, weight, penalty, last = options
    m = counts.shape[1]
    sums = (np.zeros(m, kind), np.zeros(m, square), np.zeros(m, kind), np.zeros(m, square))
    lost = np.zeros(m, kind)  # codes the guess does not win
    _sizes(counts, caps, top, sums, lost, kind, square)
    _summarise(lost, n, limit, weight, penalty, last, counts, figures, sums)


@njit(cache=True)
def _sizes(counts, caps, top, sums, lost, kind, square):  # type: ignore[no-untyped-def]
    """Per guess, from its part sizes: how many parts, the sum of their squares, the largest,
    and the codes beyond each level's capacity past the second up to ``top``; in the narrow
    types ``kind`` (sizes) and ``square`` (squares), loops kept simple to vectorise."""
    parts, square_sum, big, extra = sums
    m = counts.shape[1]
    for q in range(counts.shape[0]):
        row = counts[q]
        for i in range(m):
            c = row[i]
            parts[i] += c > 0
            big[i] = max(big[i], c)
            lost[i] += c
        for i in range(m):
            c = square(row[i])
            square_sum[i] += c * c
        for level in range(2, top):
            cap = kind(caps[level])  # below the number of codes, so within ``kind``
            for i in range(m):
                c = row[i]
                extra[i] += c - cap if c > cap else kind(0)


@njit(cache=True)
def _summarise(lost, n, limit, weight, penalty, last, counts, figures, sums):  # type: ignore[no-untyped-def]
    """Bounds and figures of every guess from its sums (``_sizes``); ``weight`` 0 makes every
    feasible bound 0 (the search then asks only whether a tree fits); ``penalty`` is charged
    for each code beyond ``last`` in a part (unless ``last`` < 0)."""
    bounds, squares, solved, largest = figures
    parts, square_sum, big, extra = sums
    m = len(lost)
    beyond = np.zeros(m if last >= 0 else 0, dtype=np.int64)
    if last >= 0:
        for q in range(counts.shape[0]):
            row = counts[q]
            for i in range(m):
                beyond[i] += max(np.int64(row[i]) - last, np.int64(0))
    for i in range(m):  # branch-free, to vectorise
        w = n - np.int64(lost[i])
        b = np.int64(big[i])
        solved[i] = w
        squares[i] = square_sum[i]
        largest[i] = b
        bound = (3 * n - 2 * w - np.int64(parts[i]) + np.int64(extra[i])) * weight
        bound = bound if b <= limit else INFEASIBLE
        bounds[i] = bound if w != 0 or b != n else USELESS
    if last >= 0 and weight:
        for i in range(m):
            if bounds[i] < INFEASIBLE:
                bounds[i] += penalty * beyond[i]


#: The keys of ``lowest`` for a guess leaving a part too large for the depth, and for one
#: leaving every code in one part.
_TOO_DEEP = np.uint16(0xFFFE)
#: The most codes, in second levels, for which ``lowest`` counts only the guesses whose
#: floor may be lowest.
_FEW_LEVELS = 5
_SPLITS_NOTHING = np.uint16(0xFFFF)


@njit(cache=True)
def _keys(counts, n, caps, top, limit, keys):  # type: ignore[no-untyped-def]
    """``lowest``'s key of each guess of a block from its part sizes (``counts``)."""
    m = counts.shape[1]
    ideal = np.zeros(m, dtype=np.uint16)  # the ideal costs of the parts, summed
    big = np.zeros(m, dtype=np.uint8)  # the largest part
    for q in range(counts.shape[0]):
        row = counts[q]
        for i in range(m):
            c = row[i]
            ideal[i] += np.uint16(c) + np.uint16(c) - np.uint16(c > 0)
            big[i] = max(big[i], c)
        for level in range(2, top):
            cap = np.uint8(caps[level])  # below the number of codes, so within a byte
            for i in range(m):
                c = row[i]
                ideal[i] += np.uint16(c - cap if c > cap else np.uint8(0))
    for i in range(m):
        b = big[i]
        key = (np.uint16(n) + ideal[i]) * np.uint16(2) + np.uint16(b > 2)
        key = _TOO_DEEP if b > np.uint8(limit) else key
        keys[i] = _SPLITS_NOTHING if b == np.uint8(n) else key


@njit(cache=True)
def _all_keys(scores, guesses, at, valid, caps, top, limit):  # type: ignore[no-untyped-def]
    """``lowest``'s key of every guess, from its part sizes counted block by block."""
    n, m = len(at), len(guesses)
    full = m == scores.shape[1]
    counts = np.empty((len(valid), min(m, BLOCK)), dtype=np.uint8)
    lines = np.empty((4, min(m, BLOCK) if not full else 0), dtype=np.uint8)
    keys = np.empty(m, dtype=np.uint16)  # (bound, a part of three codes or more); sentinels last
    for lo in range(0, m, BLOCK):
        counts, lines = _block(counts, lines, m, lo)
        _count(scores, guesses, full, at, valid, counts, lines, lo)
        _keys(counts, n, caps, top, limit, keys[lo : lo + counts.shape[1]])
    return keys


@njit(cache=True)
def _few_keys(scores, guesses, at, valid, caps, top, limit):  # type: ignore[no-untyped-def]
    """``lowest``'s key of each guess that may have the lowest, the others ``_SPLITS_NOTHING``;
    none (an empty array) if that is more than a sixty-fourth of the guesses (a guess
    counted alone reads its column, some 50 times the cost per code of a pass).

    A guess's bound is at least three per code, less one per part and two if it may win
    (``_floors``: which replies each guess gets, as the bits of a word, a pass a third as
    costly as a count). The guesses of the least floor are always counted one by one (the
    sixty-fourth does not limit them), then those whose floor is at most the lowest key so
    found (keys are twice the bound, plus one): no other guess can reach it.
    """
    m = len(guesses)
    floors = _floors(scores, guesses, at, valid)
    keys = np.full(m, _SPLITS_NOTHING, dtype=np.uint16)
    sizes = np.zeros(256, dtype=np.int64)  # codes per reply (a byte)
    least = floors.min()
    best = np.int64(_SPLITS_NOTHING)
    for i in range(m):
        if floors[i] == least:
            keys[i] = _key_of(scores, at, guesses[i], valid, caps, top, limit, sizes)
            best = min(best, np.int64(keys[i]))
    threshold = best // 2
    chosen = 0
    for i in range(m):
        if floors[i] <= threshold and floors[i] != least:
            chosen += 1
            if chosen > m // 64 + 16:
                return np.empty(0, dtype=np.uint16)
            keys[i] = _key_of(scores, at, guesses[i], valid, caps, top, limit, sizes)
    return keys


@njit(cache=True)
def _floors(scores, guesses, at, valid):  # type: ignore[no-untyped-def]
    """Per guess, a floor of its bound at the codes of rows ``at``: ``3 n - 2 w - parts``
    from the replies it gets, as the bits of a word (every reply below 64)."""
    n, m = len(at), len(guesses)
    full = m == scores.shape[1]
    one, zero = np.uint64(1), np.uint64(0)
    plain = zero
    for q in range(len(valid)):
        plain |= one << valid[q]
    seen = np.full(min(m, BLOCK), zero)
    line = np.empty(min(m, BLOCK) if not full else 0, dtype=np.uint8)
    floors = np.empty(m, dtype=np.uint16)
    for lo in range(0, m, BLOCK):
        hi = min(lo + BLOCK, m)
        seen[:] = zero
        whole = n - n % 4 if full else 0
        for j in range(0, whole, 4):  # four codes a pass over the bits, as ``_count`` does
            a, b = scores[at[j], lo:hi], scores[at[j + 1], lo:hi]
            c, d = scores[at[j + 2], lo:hi], scores[at[j + 3], lo:hi]
            for i in range(hi - lo):
                seen[i] |= (one << a[i]) | (one << b[i]) | (one << c[i]) | (one << d[i])
        for j in range(whole, n):
            if full:
                replies = scores[at[j], lo:hi]
            else:
                replies = line[: hi - lo]
                _gather(scores[at[j]], guesses[lo:hi], replies)
            for i in range(hi - lo):
                seen[i] |= one << replies[i]
        for i in range(hi - lo):
            x = seen[i]
            wins = np.int64((x & ~plain) != zero)
            floors[lo + i] = 3 * n - 2 * wins - np.int64(popcount(x & plain))  # type: ignore[call-arg]
    return floors


@njit(cache=True)
def _key_of(scores, at, guess, valid, caps, top, limit, sizes):  # type: ignore[no-untyped-def]
    """``_keys``' key of one guess, its parts counted down its column."""
    n = len(at)
    for q in range(len(valid)):
        sizes[valid[q]] = 0
    for j in range(n):
        sizes[scores[at[j], guess]] += 1
    bound, big = _bound_of(sizes, n, valid, caps, top)
    if big == n:
        return _SPLITS_NOTHING
    if big > limit:
        return _TOO_DEEP
    return np.uint16(bound * 2 + (big > 2))


@njit(cache=True, inline="always")
def _bound_of(sizes, n, valid, caps, top):  # type: ignore[no-untyped-def]
    """``(bound, largest part)`` of a guess whose parts hold ``sizes[valid[q]]`` of ``n``
    codes: ``n`` plus, per part of ``c`` codes, ``2 c - 1`` and what the depth caps add."""
    bound = np.int64(n)
    big = np.int64(0)
    for q in range(len(valid)):
        c = sizes[valid[q]]
        bound += 2 * c - (c > 0)
        big = max(big, c)
        for level in range(2, top):
            bound += max(c - caps[level], 0)
    return bound, big


@njit(cache=True)
def lowest(scores, rows, guesses, codes, valid, caps, depth):  # type: ignore[no-untyped-def]
    """The lowest bound of ``scan`` over the guesses at ``codes`` (at most 255 of them; weight
    1, no penalty), and the index of the first guess of the search's order (lowest bound,
    most even split, may win) if its parts have at most two codes and fit ``depth``, else -1.

    A lookahead needs no more, so the figures are summed per guess in one pass: the bound
    (``codes`` plus each part's ideal cost) and whether a part has three codes or more, as
    one 16-bit key. The first guess follows from the key: among guesses of the lowest bound
    whose parts have at most two codes each, the sum of squared part sizes is twice the
    bound, less three times the codes, plus one for a guess that may win; any guess of that
    bound with a larger part has a larger sum. So the first is the first such guess outside
    ``codes``, else the first inside.
    """
    n = len(codes)
    m = len(guesses)
    at = rows_of(rows, codes)
    top, limit = _levels(caps, depth, n)
    limit = min(limit, 255)
    keys = np.empty(0, dtype=np.uint16)
    widest = max(valid.max(), scores[at[0], codes[0]]) if n and len(valid) else 64
    # Each reply a bit of a 64-bit word; past a few times the second level, parts beyond its
    # capacity weigh in the keys and the floors leave too many guesses to count one by one.
    if widest < 64 and len(caps) > 2 and n <= _FEW_LEVELS * caps[2]:
        keys = _few_keys(scores, guesses, at, valid, caps, top, limit)
    if len(keys) == 0 and m:
        keys = _all_keys(scores, guesses, at, valid, caps, top, limit)
    least = keys.min()
    if least >= _TOO_DEEP:
        return (INFEASIBLE if least == _TOO_DEEP else USELESS), -1
    bound = np.int64(least >> 1)
    if least & 1:
        return bound, -1
    inside = -1
    for i in range(m):
        if keys[i] == least:
            if not np.any(codes == guesses[i]):
                return bound, i
            if inside < 0:
                inside = i
    return bound, inside


def guess_bounds(
    scores: npt.NDArray[np.uint8],
    guesses: IntArray,
    codes: IntArray,
    valid: npt.NDArray[np.uint8],
    win: int,
    caps: IntArray,
    depth: int,
    weight: int = 1,
    penalty: int = 0,
    rows: IntArray | None = None,
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """For each guess: the bound of ``codes`` when each part has ``depth`` guesses left
    (``USELESS`` if it splits nothing off, ``INFEASIBLE`` if a part cannot be settled in time),
    the sum of squared part sizes, whether it wins, and its largest non-winning part.

    ``guesses`` are distinct and in increasing order. ``valid`` lists the non-winning replies;
    ``caps`` comes from ``level_caps``. With ``weight`` 0 every bound that is not ``USELESS``
    or ``INFEASIBLE`` is 0. ``penalty`` is added for each code a part must leave to its last
    guess (the lexicographic objective of ``search_dfs``). Code ``c``'s replies are
    ``scores[rows[c]]`` (``rows``: the whole matrix's, empty, unless given).
    """
    found: tuple[IntArray, IntArray, IntArray, IntArray] = scan(
        scores, identity(scores) if rows is None else rows, guesses, codes, valid, win, caps,
        depth, weight, penalty,
    )  # fmt: skip
    return found


@njit(cache=True)
def _perfect_candidate(scores, rows, codes, slots):  # type: ignore[no-untyped-def]
    n = len(codes)
    seen = np.zeros(slots, dtype=np.int64)
    at = rows_of(rows, codes)
    for i in range(n):
        line = scores[at[i]]  # a candidate's row (scoring is symmetric)
        seen[:] = 0
        ok = True
        for j in range(n):
            r = line[codes[j]]
            if seen[r]:
                ok = False
                break
            seen[r] = 1
        if ok:
            return i
    return -1


@njit(cache=True)
def candidates_floor(scores, rows, codes, valid, caps, depth, consistent):  # type: ignore[no-untyped-def]
    """A lower bound on ``lowest``'s bound at ``codes`` (each part ``depth`` guesses left)
    from the candidates alone, in about ``len(codes) ** 2`` reads instead of a pass over every
    guess: each candidate's bound exactly (its replies to the others, as ``lowest`` sums
    them, a part too large for the depth not told apart), and for any other guess (unless
    only candidates are guessed, ``consistent``) the least a guess that cannot win may have:
    every code in a part of its own as far as the replies go, ``3 n - min(n, replies)``.
    """
    n = len(codes)
    top = _levels(caps, depth, n)[0]
    at = rows_of(rows, codes)
    sizes = np.zeros(256, dtype=np.int64)  # codes per reply (a byte)
    # Any other guess wins no code: at best one part per reply.
    best = np.int64(1 << 62) if consistent else np.int64(3 * n - min(n, len(valid)))
    for i in range(n):
        line = scores[at[i]]  # a candidate's row (scoring is symmetric)
        for q in range(len(valid)):
            sizes[valid[q]] = 0
        for j in range(n):
            sizes[line[codes[j]]] += 1
        best = min(best, _bound_of(sizes, n, valid, caps, top)[0])
    return best


def perfect_candidate(
    scores: npt.NDArray[np.uint8], codes: IntArray, slots: int, rows: IntArray | None = None
) -> int:
    """The position in ``codes`` of the first code whose replies to all of them differ, or -1
    (code ``c``'s replies are ``scores[rows[c]]``; ``rows``: the whole matrix's unless given)."""
    return int(_perfect_candidate(scores, identity(scores) if rows is None else rows, codes, slots))


def identity(scores: npt.NDArray[np.uint8]) -> IntArray:
    """The ``rows`` of a whole, symmetric matrix (none: code ``c``'s replies are row ``c``)."""
    return np.empty(0, dtype=np.int64)
