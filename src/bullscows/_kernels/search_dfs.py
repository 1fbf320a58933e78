"""The depth-first branch and bound of ``bullscows.search``, compiled with numba.

``solve`` returns the optimal cost of a set of codes within a depth if it is below a limit,
storing every set it settles in a memo (``search_memo``), from which ``best_guess`` reads the
tree back. The context tuple, the set keys and the memo are described in docs/kernels.md; the
algorithm is the one ``search.optimal`` documents. The Python levels call it through
``search_calls``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bullscows._kernels.search_kernels import (
    _perfect_candidate,
    candidates_floor,
    lowest,
    replies_to,
    scan,
)
from bullscows._kernels.search_memo import (
    board,
    crowded,
    flying,
    land,
    publish,
    shared_entry,
    store,
)
from bullscows._kernels.search_memo import entry as _private
from bullscows._kernels.tables import (
    CTX_CAPPED,
    CTX_CAPS,
    CTX_CONSISTENT,
    CTX_EVERYTHING,
    CTX_KEYS,
    CTX_PENALTY,
    CTX_ROWS,
    CTX_SCORES,
    CTX_SHARE_FROM,
    CTX_SHARED,
    CTX_SLOTS,
    CTX_STATS,
    CTX_STOP,
    CTX_TRAFFIC,
    CTX_VALID,
    CTX_WEIGHT,
    CTX_WIN,
    FAIL,
    INFEASIBLE,
    MEMO_FULL,
    STOPPED,
    TRAFFIC_AGAIN,
    TRAFFIC_BESIDE,
    TRAFFIC_BESIDE_AHEAD,
    TRAFFIC_FLOORED,
    TRAFFIC_LOOKED,
    TRAFFIC_READ,
)

#: The most codes a set may have for ``_known`` to bound it from its candidates' splits.
_FLOOR_CODES = 255
#: Room for the sort key of a guess: bound, then sum of squared part sizes, then "may win".
_SQUARES_BITS = 28
#: Whether a set the table says was looked ahead at is not looked ahead at again (``_shared``).
SHARE_LOOKED = True


@njit(cache=True)
def _key(keys, codes, depth):
    h1 = np.int64(0)
    h2 = np.int64(0)
    for c in codes:
        h1 += keys[0, c]
        h2 += keys[1, c]
    return (h1, h2, np.int64(depth))


@njit(cache=True, inline="always")
def _entry(ctx, memo, key, limit, n):
    """What the search knows of the set ``key`` of ``n`` codes (``search_memo.entry``): its
    memo's entry, or on a miss (or a lower floor) what the table the threads share holds
    (``_shared``); and whether the table bettered the memo's. The table is not read when the
    memo's floor already reaches ``limit`` (the set fails), nor for a set of fewer than
    ``ctx[CTX_SHARE_FROM]`` codes."""
    entry = _private(memo, key)
    shared = ctx[CTX_SHARED]
    if entry[0] >= 0 or entry[2] >= limit or len(shared) == 0 or n < ctx[CTX_SHARE_FROM]:
        return entry, False
    ctx[CTX_TRAFFIC][TRAFFIC_READ] += 1
    return _shared(memo, shared, ctx[CTX_STATS], ctx[CTX_TRAFFIC], key, entry)


@njit(cache=True)
def _shared(memo, shared, stats, traffic, key, entry):
    """``entry``, the memo's, bettered by what ``shared`` knows of the set ``key``: a cost or
    a higher floor found there is copied into the memo (``stats[2]`` counts these); the set's
    parts are then in the memos of other threads (``search.state`` reads its tree back). And
    whether the table bettered it with a cost or a floor. A floor whose guess is -2 was
    looked ahead at (``_keep``): the set need not be again; a read adding only that flag is
    counted by ``traffic`` (TRAFFIC_LOOKED), not by ``stats[2]``."""
    cost, guess, floor = shared_entry(shared, key)
    looked = entry[3]
    if cost < 0:
        looked = max(looked, -1 - guess) if SHARE_LOOKED else looked
        guess = -1
        if floor <= entry[2] and looked == entry[3]:
            return entry, False
        traffic[TRAFFIC_LOOKED] += looked - entry[3]
    told = cost >= 0 or floor > entry[2]
    if told:
        stats[2] += 1
    known = (cost, guess, max(floor, entry[2]), looked)
    store(memo, key, known)
    return known, told


@njit(cache=True, inline="always")
def _keep(ctx, memo, key, value, n):
    """Store ``value`` (cost or -1, guess or -1, floor, looked) for the set ``key`` of ``n``
    codes in the memo and publish its cost, or a floor above 0, to the table the threads
    share (sets of ``ctx[CTX_SHARE_FROM]`` codes or more; ``ctx[CTX_TRAFFIC]`` counts it):
    a floor with guess -2 once the set was looked ahead at."""
    store(memo, key, value)
    shared = ctx[CTX_SHARED]
    if len(shared) and n >= ctx[CTX_SHARE_FROM] and (value[0] >= 0 or value[2] > 0):
        guess = value[1] if value[0] >= 0 else -1 - value[3]
        ctx[CTX_TRAFFIC][publish(shared, key, n, value[0], guess, value[2])] += 1


@njit(cache=True)
def ideal(n, depth, caps, weight, penalty):
    """The cost of a perfect tree over ``n`` codes within ``depth`` guesses (the bound of
    ``search.bounds``), times ``weight``, plus ``penalty`` for each code its last level must
    hold; ``INFEASIBLE`` if no tree fits."""
    if depth < len(caps) and n > caps[depth]:
        return INFEASIBLE
    if weight == 0:
        return 0
    total = 0
    k = 1
    while k <= depth and k - 1 < len(caps) and caps[k - 1] < n:
        total += n - caps[k - 1]
        k += 1
    if penalty and 1 <= depth <= len(caps):
        total += penalty * max(n - caps[depth - 1], 0)
    return total


@njit(cache=True)
def ideal_of(ctx, n, depth):
    """``ideal`` with the context's level capacities, weight and penalty."""
    return ideal(n, depth, ctx[CTX_CAPS], ctx[CTX_WEIGHT], ctx[CTX_PENALTY])


@njit(cache=True)
def _bounds(ctx, codes, guesses, depth):
    scores, valid, win, caps = ctx[CTX_SCORES], ctx[CTX_VALID], ctx[CTX_WIN], ctx[CTX_CAPS]
    weight, penalty = ctx[CTX_WEIGHT], ctx[CTX_PENALTY]
    return scan(scores, ctx[CTX_ROWS], guesses, codes, valid, win, caps, depth, weight, penalty)


@njit(cache=True)
def _child_guesses(ctx, part):
    return part if ctx[CTX_CONSISTENT] else ctx[CTX_EVERYTHING]


@njit(cache=True)
def lookahead(ctx, memo, codes, depth, guesses):
    """A lower bound on the cost of ``codes`` within ``depth``: the lowest bound over every
    guess, or what the memo knows better.

    When the bound is exact it goes into the memo with the guess ``solve`` would choose (so
    a tree does not depend on which of the two met a set first): a candidate splitting the
    others into single codes; else the first guess in ``solve``'s order, if its parts have at
    most two codes each (they cost exactly their bound, and no guess bounds lower)."""
    key = _key(ctx[CTX_KEYS], codes, depth)
    n = len(codes)
    entry, _ = _entry(ctx, memo, key, INFEASIBLE, n)
    if entry[0] >= 0:
        return entry[0]
    if entry[3]:
        return entry[2]
    ctx[CTX_STATS][1] += 1
    if flying(ctx[CTX_SHARED], key):
        ctx[CTX_TRAFFIC][TRAFFIC_BESIDE_AHEAD] += 1
    at = _perfect(ctx, codes)
    cost = ideal_of(ctx, n, depth)  # what a perfect candidate costs
    if at >= 0 and cost < INFEASIBLE:
        _keep(ctx, memo, key, (cost, codes[at], entry[2], 1), n)
        return cost
    child = _child_depth(ctx, depth)
    least, first = _lowest(ctx, codes, guesses, child)
    if least < INFEASIBLE and first >= 0:
        _keep(ctx, memo, key, (least, guesses[first], entry[2], 1), n)
        return least
    floor = max(entry[2], least)
    _keep(ctx, memo, key, (-1, -1, floor, 1), n)
    return floor


@njit(cache=True)
def _lowest(ctx, codes, guesses, depth):
    """The lowest bound over ``guesses`` at ``codes`` within ``depth``, and the first guess in
    ``solve``'s order if its parts have at most two codes (else -1): ``lowest`` (which counts
    only the guesses whose floor may be lowest where it can) up to 255 codes with weight 1 and
    no penalty, else every guess's figures."""
    if len(codes) <= 255 and ctx[CTX_WEIGHT] == 1 and ctx[CTX_PENALTY] == 0:
        scores, rows, valid, caps = ctx[CTX_SCORES], ctx[CTX_ROWS], ctx[CTX_VALID], ctx[CTX_CAPS]
        return lowest(scores, rows, guesses, codes, valid, caps, depth)
    bounds, squares, solved, largest = _bounds(ctx, codes, guesses, depth)
    first = _first(bounds, squares, solved)
    return bounds[first], (first if largest[first] <= 2 else -1)


@njit(cache=True)
def _first(bounds, squares, solved):
    """The first guess in ``solve``'s order: lowest bound, most even split, may win, index."""
    first = 0
    for i in range(1, len(bounds)):
        if bounds[i] < bounds[first] or (
            bounds[i] == bounds[first]
            and (squares[i], -solved[i]) < (squares[first], -solved[first])
        ):
            first = i
    return first


@njit(cache=True)
def _parts(ctx, codes, guess):
    """The codes grouped by reply to ``guess``, and each group's start, size and reply,
    largest group first (the winning reply left out)."""
    win, slots = ctx[CTX_WIN], ctx[CTX_SLOTS]
    n = len(codes)
    line, at = replies_to(ctx[CTX_SCORES], ctx[CTX_ROWS], guess, codes)
    counts = np.zeros(slots + 1, dtype=np.int64)
    for j in range(n):
        counts[line[at[j]] + 1] += 1
    starts = np.cumsum(counts)
    ordered = np.empty(n, dtype=np.int64)
    fill = starts[:-1].copy()
    for j in range(n):
        r = line[at[j]]
        ordered[fill[r]] = codes[j]
        fill[r] += 1
    sizes = counts[1:].copy()
    sizes[win] = 0
    order = np.argsort(-sizes, kind="mergesort")
    k = 0
    while k < slots and sizes[order[k]] > 0:
        k += 1
    replies = order[:k]
    return ordered, starts[replies], sizes[replies], replies


# The fields of a frame of the explicit stack (one row of ``frames``): where its codes are in
# the arena and how many; its depth, limit and memo key; the guesses to try (``_ORDER``: the
# guesses, then their bounds, then a table of the splits tried of ``_TRIED`` slots,
# ``_first_split``) and how far it got; the best so far; and the guess being tried: its
# parts (codes in ``_ORDERED``; starts, sizes, bounds and settled flags at ``_PARTS``), the
# part being solved, the running total, how many parts were open when the round began and
# the window the part was given (``_settle_part``); and the frame's mark in the team's sets
# in flight (``search_memo.board``).
(_CODES, _N, _DEPTH, _LIMIT, _H1, _H2, _FLOOR, _LOOKED, _CHILD, _ORDER, _K, _POS, _BEST,
 _BEST_GUESS, _ORDERED, _PARTS, _NPARTS, _PART, _TOTAL, _TRYING, _TRIED, _GUESS, _FREE, _OPEN,
 _SHARE, _MARK, _FIELDS) = range(27)  # fmt: skip
#: ``_open``'s answer when it pushed a frame instead of settling the set at once.
_PENDING = -2


@njit(cache=True, nogil=True)
def solve(ctx, memo, codes, depth, limit, guesses):
    """The optimal cost of ``codes`` within ``depth`` guesses if below ``limit``, else FAIL
    (then no tree costs less than ``limit``). ``guesses`` are the guesses worth trying at
    ``codes`` itself (below it: every code, or the candidates when consistent only).

    Depth first with an explicit stack (numba cannot cache recursive functions): frames live in
    ``frames`` and their arrays in one ``arena``. Gives ``STOPPED`` once ``ctx[CTX_STOP][0]``
    is set, and ``MEMO_FULL`` once the memo is crowded (``search_memo.crowded``), leaving the
    frames under way out of the memo.
    """
    slots = ctx[CTX_SLOTS]
    arena = np.empty(max(8 * len(codes), 1 << 14), dtype=np.int64)
    frames = np.zeros((16, _FIELDS), dtype=np.int64)
    arena[: len(codes)] = codes
    value, arena, frames = _open(ctx, memo, arena, frames, 0, len(codes), 0, len(codes), depth,
                                 limit, guesses)  # fmt: skip
    if value != _PENDING:
        return _answer(memo, value)
    stacked = 1
    settled = _PENDING  # the cost (or FAIL) of the part the top frame is waiting for
    stop = ctx[CTX_STOP]
    while True:
        stopped = stop[0] != 0  # read once: another thread may set it meanwhile
        if stopped or crowded(memo):
            _land_all(ctx, frames, stacked)
            return STOPPED if stopped else MEMO_FULL
        top = stacked - 1
        if settled != _PENDING:
            _settle_part(arena, frames[top], slots, settled)
            settled = _PENDING
        value = _step(ctx, memo, arena, frames, top)
        if value == _PENDING:
            settled, arena, frames = _push_part(ctx, memo, arena, frames, top)
            if settled == _PENDING:
                stacked += 1
            continue
        stacked -= 1
        if stacked == 0:
            return _answer(memo, value)
        settled = value


@njit(cache=True)
def _land_all(ctx, frames, stacked):
    """Clear the marks in flight of the ``stacked`` frames left open (the search stops)."""
    for level in range(stacked):
        f = frames[level]
        land(ctx[CTX_SHARED], f[_MARK], (f[_H1], f[_H2], f[_DEPTH]))


@njit(cache=True)
def _answer(memo, value):
    """``value``, unless the memo dropped a set on the way (the tree could not be read back)."""
    return MEMO_FULL if memo[1][1] else value


@njit(cache=True)
def _settle_part(arena, f, slots, cost):
    """Tell the frame ``f`` what its part cost, or (FAIL) that it costs its window or more."""
    owns = f[_PARTS] + 2 * slots
    part = f[_PART]
    if cost == FAIL:
        f[_TOTAL] += f[_SHARE]
        arena[owns + part] += f[_SHARE]
    else:
        f[_TOTAL] += cost - arena[owns + part]
        arena[owns + part] = cost
        arena[owns + slots + part] = 1
    f[_PART] = part + 1


@njit(cache=True)
def _step(ctx, memo, arena, frames, level):
    """Advance the frame at ``level`` until it needs a part solved (``_PENDING``) or is done
    (its cost, or FAIL; then it is popped and the memo told).

    The parts of a guess are solved in rounds of narrow windows, as ``search.optimal``
    explains: each open part is asked for a tree within its bound plus an even share of the
    slack, and one that has none gets a higher bound, until the parts are all settled or the
    guess is refuted."""
    f = frames[level]
    k = f[_K]
    settled = f[_PARTS] + 3 * ctx[CTX_SLOTS]
    while True:
        if f[_TRYING]:
            if f[_TOTAL] >= f[_BEST]:
                f[_TRYING] = 0  # the guess cannot beat the best
                continue
            while f[_PART] < f[_NPARTS] and arena[settled + f[_PART]]:
                f[_PART] += 1
            if f[_PART] < f[_NPARTS]:
                return _PENDING
            f[_OPEN] = f[_NPARTS] - np.sum(arena[settled : settled + f[_NPARTS]])
            if f[_OPEN] == 0:
                f[_BEST], f[_BEST_GUESS], f[_TRYING] = f[_TOTAL], f[_GUESS], 0
            f[_PART] = 0
            continue
        pos = f[_POS]
        if pos >= k or arena[f[_ORDER] + k + pos] >= f[_BEST]:
            break
        f[_POS] = pos + 1
        guess = arena[f[_ORDER] + pos]
        codes = arena[f[_CODES] : f[_CODES] + f[_N]]
        if not _first_split(arena, f[_ORDER] + 2 * k, f[_TRIED], _split_key(ctx, codes, guess)):
            continue  # a guess splitting the codes alike was tried
        ordered, starts, sizes, owns, total, _ = _ahead(
            ctx, memo, codes, guess, arena[f[_ORDER] + k + pos], f[_CHILD], f[_BEST]
        )
        slots = ctx[CTX_SLOTS]
        arena[f[_ORDERED] : f[_ORDERED] + f[_N]] = ordered
        parts = len(sizes)
        arena[f[_PARTS] : f[_PARTS] + parts] = starts[:parts]
        arena[f[_PARTS] + slots : f[_PARTS] + slots + parts] = sizes
        arena[f[_PARTS] + 2 * slots : f[_PARTS] + 2 * slots + parts] = owns[:parts]
        arena[f[_PARTS] + 3 * slots : f[_PARTS] + 3 * slots + parts] = 0
        f[_NPARTS], f[_PART], f[_TOTAL], f[_GUESS], f[_TRYING] = parts, 0, total, guess, 1
        f[_OPEN] = parts
    key = (f[_H1], f[_H2], f[_DEPTH])
    if f[_BEST_GUESS] >= 0:
        _keep(ctx, memo, key, (f[_BEST], f[_BEST_GUESS], f[_FLOOR], f[_LOOKED]), f[_N])
        land(ctx[CTX_SHARED], f[_MARK], key)  # once the table holds it
        return f[_BEST]
    floor = max(f[_FLOOR], f[_LIMIT])
    _keep(ctx, memo, key, (np.int64(-1), np.int64(-1), floor, f[_LOOKED]), f[_N])
    land(ctx[CTX_SHARED], f[_MARK], key)
    return FAIL


@njit(cache=True)
def _push_part(ctx, memo, arena, frames, level):
    """Open the part being solved by the frame at ``level``, with the window of its round: its
    bound plus an even share of the slack the open parts leave below the best."""
    f = frames[level]
    slots = ctx[CTX_SLOTS]
    part = f[_PART]
    start = f[_ORDERED] + arena[f[_PARTS] + part]
    size = arena[f[_PARTS] + slots + part]
    f[_SHARE] = max(1, (f[_BEST] - f[_TOTAL]) // f[_OPEN])
    budget = arena[f[_PARTS] + 2 * slots + part] + f[_SHARE]
    guesses = _child_guesses(ctx, arena[start : start + size])
    return _open(ctx, memo, arena, frames, level + 1, f[_FREE], start, size, f[_CHILD], budget,
                 guesses)  # fmt: skip


@njit(cache=True)
def _open(ctx, memo, arena, frames, level, free, start, n, depth, limit, guesses):
    """Settle the set ``arena[start:start + n]`` at once if the memo or a shortcut can (its
    cost, or FAIL), else push its frame at ``level`` (arrays from ``free`` on), mark it in
    flight and say ``_PENDING``. Returns the answer with the arena and frames (reallocated
    when they grew). ``ctx[CTX_TRAFFIC]`` counts the sets searched while another thread of
    the team searched them, and those whose floor did not settle them."""
    codes = arena[start : start + n]
    perfect = ideal_of(ctx, n, depth)  # exact for one or two codes
    if perfect >= limit:
        return FAIL, arena, frames
    if n <= 2:
        return perfect, arena, frames
    key = _key(ctx[CTX_KEYS], codes, depth)
    entry, told = _entry(ctx, memo, key, limit, n)
    if entry[0] >= 0:
        return (entry[0] if entry[0] < limit else FAIL), arena, frames
    if entry[2] >= limit:
        return FAIL, arena, frames
    ctx[CTX_STATS][0] += 1
    traffic = ctx[CTX_TRAFFIC]
    if flying(ctx[CTX_SHARED], key):
        traffic[TRAFFIC_BESIDE] += 1
    if entry[2] > 0:
        traffic[TRAFFIC_FLOORED if told else TRAFFIC_AGAIN] += 1
    at = _perfect(ctx, codes)
    if at >= 0:  # it costs the ideal: optimal
        _keep(ctx, memo, key, (perfect, codes[at], entry[2], entry[3]), n)
        return perfect, arena, frames
    child = _child_depth(ctx, depth)
    order, bounds, exact = _order(ctx, codes, guesses, child, limit)
    if exact >= 0:
        _keep(ctx, memo, key, (bounds[exact], guesses[exact], entry[2], entry[3]), n)
        return bounds[exact], arena, frames
    if len(order) == 0:
        _keep(ctx, memo, key, (np.int64(-1), np.int64(-1), max(entry[2], limit), entry[3]), n)
        return FAIL, arena, frames
    k = len(order)
    chosen = guesses[order]
    chosen_bounds = bounds[order]
    slots = ctx[CTX_SLOTS]
    table = _table_size(k)
    end = free + 2 * k + table + n + 4 * slots
    if end > len(arena):
        grown = np.empty(2 * end, dtype=np.int64)
        grown[:free] = arena[:free]
        arena = grown
    if level >= len(frames):
        more = np.zeros((2 * len(frames), _FIELDS), dtype=np.int64)
        more[: len(frames)] = frames
        frames = more
    arena[free : free + k] = chosen
    arena[free + k : free + 2 * k] = chosen_bounds
    arena[free + 2 * k : free + 2 * k + table] = 0
    f = frames[level]
    f[:] = 0
    f[_CODES], f[_N], f[_DEPTH], f[_LIMIT] = start, n, depth, limit
    f[_H1], f[_H2], f[_FLOOR], f[_LOOKED] = key[0], key[1], entry[2], entry[3]
    f[_CHILD], f[_ORDER], f[_K], f[_BEST], f[_BEST_GUESS] = child, free, k, limit, -1
    f[_ORDERED], f[_PARTS], f[_FREE] = free + 2 * k + table, free + 2 * k + table + n, end
    f[_TRIED] = table
    f[_MARK] = board(ctx[CTX_SHARED], key)
    return _PENDING, arena, frames


@njit(cache=True)
def _order(ctx, codes, guesses, depth, limit):
    """The guesses of bound below ``limit``, lowest bound first, then the most even split,
    then one that may win; and the first if its bound is exact (parts of at most two codes
    cost exactly their bound, and no guess bounds lower), else -1."""
    bounds, squares, solved, largest = _bounds(ctx, codes, guesses, depth)
    hopeful = np.flatnonzero(bounds < limit)
    keys = (
        (bounds[hopeful] << (_SQUARES_BITS + 1)) | (squares[hopeful] << 1) | (1 - solved[hopeful])
    )
    order = hopeful[np.argsort(keys, kind="mergesort")]
    exact = order[0] if len(order) and largest[order[0]] <= 2 else -1
    return order, bounds, exact


@njit(cache=True)
def _table_size(k):
    """The slots of a frame's table of the splits tried among ``k`` guesses: a power of two,
    at least twice ``k``."""
    size = 2
    while size < 2 * k:
        size *= 2
    return size


@njit(cache=True)
def _first_split(arena, table, size, split):
    """Whether no guess tried before split the codes as ``split`` says (then it is added to
    the open-addressing table of ``size`` slots at ``arena[table]``, 0 marking a free slot)."""
    key = split if split != 0 else np.int64(1)
    mask = size - 1
    at = key & mask
    while arena[table + at] != 0:
        if arena[table + at] == key:
            return False
        at = (at + 1) & mask
    arena[table + at] = key
    return True


@njit(cache=True)
def _split_key(ctx, codes, guess):
    """A key of how ``guess`` splits ``codes``: equal for guesses splitting them alike."""
    hashes = ctx[CTX_KEYS]
    line, at = replies_to(ctx[CTX_SCORES], ctx[CTX_ROWS], guess, codes)
    split = np.int64(0)
    for j in range(len(codes)):
        split += hashes[0, codes[j]] * (np.int64(line[at[j]]) + 1)
    return split


@njit(cache=True)
def _ahead(ctx, memo, codes, guess, bound, depth, limit):
    """The parts of ``guess`` (largest first), each part's bound one guess ahead, and the
    guess's bound with them: ``limit`` or more once the guess cannot beat ``limit``; and the
    parts' replies."""
    ordered, starts, sizes, replies = _parts(ctx, codes, guess)
    total = bound
    owns = np.empty(len(sizes), dtype=np.int64)
    looked = np.ones(len(sizes), dtype=np.bool_)
    for p in range(len(sizes)):  # first what is known or cheap: it refutes most guesses
        owns[p] = ideal_of(ctx, sizes[p], depth)
        if sizes[p] >= 3 and total < limit:
            part = ordered[starts[p] : starts[p] + sizes[p]]
            known, looked[p] = _known(ctx, memo, part, depth, owns[p])
            total += known - owns[p]
            owns[p] = known
    for p in range(len(sizes)):  # then the lookaheads, largest part first
        if total >= limit:
            return ordered, starts, sizes[:0], owns, total, replies
        if not looked[p]:
            part = ordered[starts[p] : starts[p] + sizes[p]]
            ahead = lookahead(ctx, memo, part, depth, _child_guesses(ctx, part))
            total += ahead - owns[p]
            owns[p] = ahead
    if total >= limit:
        return ordered, starts, sizes[:0], owns, total, replies
    return ordered, starts, sizes, owns, total, replies


@njit(cache=True, inline="always")
def _child_depth(ctx, depth):
    """The depth a guess's parts are searched to: one less where the depth is capped."""
    return depth - 1 if ctx[CTX_CAPPED] else depth


@njit(cache=True)
def _known(ctx, memo, codes, depth, own):
    """A bound on the cost of ``codes`` (of ideal cost ``own``) without scoring every guess,
    and whether it is their ``lookahead``: what the memo knows, else (with weight 1 and no
    penalty, up to 255 codes) the larger of the ideal and ``candidates_floor``, the
    lookahead's bound over the candidates alone and the least any other guess may have; a
    pass over each candidate's replies to the others instead of over every guess's. For a
    set no wider than the second level it is one more than the ideal when no candidate
    splits the others into single codes; wider, it charges candidates their splits and
    other guesses a code they cannot win."""
    entry, _ = _entry(ctx, memo, _key(ctx[CTX_KEYS], codes, depth), INFEASIBLE, len(codes))
    if entry[0] >= 0:
        return entry[0], True
    if entry[3]:
        return entry[2], True
    plain = ctx[CTX_WEIGHT] == 1 and ctx[CTX_PENALTY] == 0
    if plain and own < INFEASIBLE and len(codes) <= _FLOOR_CODES:
        child = _child_depth(ctx, depth)
        scores, rows, valid, caps = ctx[CTX_SCORES], ctx[CTX_ROWS], ctx[CTX_VALID], ctx[CTX_CAPS]
        floor = candidates_floor(scores, rows, codes, valid, caps, child, ctx[CTX_CONSISTENT])
        return max(own, floor, entry[2]), False
    return max(own, entry[2]), False


@njit(cache=True)
def _perfect(ctx, codes):
    """``search_kernels.perfect_candidate`` with the context's scores and replies."""
    return _perfect_candidate(ctx[CTX_SCORES], ctx[CTX_ROWS], codes, ctx[CTX_SLOTS])


@njit(cache=True)
def _best_guess(ctx, memo, codes, depth):
    entry = _private(memo, _key(ctx[CTX_KEYS], codes, depth))
    return entry[1] if entry[0] >= 0 else -1


__all__ = ["ideal", "lookahead", "solve"]
