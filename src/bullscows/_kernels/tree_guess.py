"""How a heuristic's compiled tree builder (``_kernels.trees``) chooses the guess at a node.

The guess is the lowest-cost one, among equals a candidate, then the lowest code
(``strategies.heuristic``); the three shortcuts that change no guess, only the work (early
exit, the even-split bound, symmetry and dead symbols) are explained in
docs/explanation/heuristics.md.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bullscows._kernels.bits import popcount
from bullscows._kernels.partitions import strip_costs
from bullscows._kernels.tables import (  # the parameters' places in ``params``
    CONSISTENT,
    HEURISTIC,
    LENGTH,
    REPLIES,
    SLOTS,
    SYMMETRIC,
)

#: Candidates below which a cost is kept up to date code by code (one histogram), rather
#: than tallied in four interleaved histograms.
_FEW = 64
#: Codes tallied between two looks at the cost so far.
_BLOCK = 512
#: Nodes with at most this many candidates are scored a strip of guesses at a time
#: (``strip_costs``: replies compared pairwise, or counted reply by reply once the candidates
#: outnumber the replies), in vector steps over byte counts (so at most 255). It was 96 before
#: the counts reply by reply: with them and 255, the whole ``p5c10n`` ``entropy`` command takes
#: a quarter less CPU time (README, "Performance").
PAIRWISE = 255
#: Guesses scored at once by ``strip_costs``.
STRIP = 256
#: Nodes with fewer candidates than this score every code rather than one per class.
_CLASSES_FROM = 97
#: Nodes with fewer candidates than this score every code rather than one per class of codes
#: that differ by their dead symbols: scoring a code there costs little more than looking at
#: its symbols.
_DEAD_FROM = 16
_HUGE = np.iinfo(np.int64).max


@njit(cache=True)
def lowest_cost(m, replies, heuristic, logs):
    """The cost of the most even split of ``m`` codes over ``replies`` replies (``logs``:
    ``partitions.log_table``)."""
    parts = min(m, replies)
    q, r = m // parts, m % parts
    if heuristic == 0:
        return q + 1 if r else q
    if heuristic == 1:
        return r * (q + 1) * (q + 1) + (parts - r) * q * q
    if heuristic == 2:
        return r * (q + 1) * logs[q + 1] + (parts - r) * q * logs[q]
    return -parts


@njit(cache=True, inline="always")
def _part_cost(n, cost, heuristic, logs):
    if heuristic == 0:
        return max(cost, n)
    if heuristic == 1:
        return cost + n * n
    if heuristic == 2:
        return cost + n * logs[n]
    return cost - 1 if n > 0 else cost


@njit(cache=True, inline="always")
def _replies(p, s, pc, sc, length, out):
    """The replies of the code with masks ``p``, ``s`` to each code of ``pc``, ``sc``: views
    from index 0, so that the loop vectorises (an offset index is checked for wrapping)."""
    for j in range(len(pc)):
        out[j] = length * popcount(p & pc[j]) + popcount(s & sc[j])


@njit(cache=True)
def _cost(p, s, pc, sc, m, params, logs, buf, row, lanes, limit):
    """The heuristic's cost of the guess with masks ``p``, ``s`` against the ``m`` candidates
    with masks ``pc``, ``sc``; or, once the cost so far reaches ``limit`` (it only grows), that
    cost so far. ``row`` comes in and goes out all zero."""
    length, heuristic, slots = params[LENGTH], params[HEURISTIC], params[SLOTS]
    if m < _FEW:
        _replies(p, s, pc[:m], sc[:m], length, buf)
        cost = 0
        if heuristic == 0:
            for j in range(m):
                b = buf[j]
                row[b] += 1
                cost = max(cost, row[b])
                if cost >= limit:
                    break
        elif heuristic == 1:
            for j in range(m):
                b = buf[j]
                cost += 2 * row[b] + 1
                row[b] += 1
                if cost >= limit:
                    break
        elif heuristic == 2:
            for j in range(m):
                b = buf[j]
                n = row[b]
                cost += (n + 1) * logs[n + 1] - n * logs[n]
                row[b] += 1
                if cost >= limit:
                    break
        else:
            for j in range(m):
                b = buf[j]
                if row[b] == 0:
                    cost -= 1
                row[b] += 1
        for j in range(m):
            row[buf[j]] = 0
        return cost
    lanes[:, :slots] = 0
    start = 0
    cost = 0
    while start < m:
        stop = min(start + _BLOCK, m)
        _replies(p, s, pc[start:stop], sc[start:stop], length, buf[start:stop])
        j = start
        while j + 4 <= stop:
            lanes[0, buf[j]] += 1
            lanes[1, buf[j + 1]] += 1
            lanes[2, buf[j + 2]] += 1
            lanes[3, buf[j + 3]] += 1
            j += 4
        while j < stop:
            lanes[0, buf[j]] += 1
            j += 1
        start = stop
        if heuristic == 3 and start < m:
            continue  # the count of parts only falls as codes come: no bound before the end
        cost = 0
        for r in range(slots):
            cost = _part_cost(lanes[0, r] + lanes[1, r] + lanes[2, r] + lanes[3, r], cost,
                              heuristic, logs)  # fmt: skip
        if cost >= limit:
            return cost
    return cost


@njit(cache=True)
def _symmetries(digits, path, played, perms, sym_group, group_symbols, scratch):
    """The symmetries of the guesses ``path[:played]``: (permutation, relabelling table) pairs
    into ``scratch``, and the free symbols of each group (in order); how many pairs."""
    used, tables, chosen, free, inverse = scratch
    k = sym_group.shape[0]
    length = digits.shape[1]
    used[:] = False
    for t in range(played):
        for i in range(length):
            used[digits[path[t], i]] = True
    free[:, :] = -1
    for g in range(group_symbols.shape[0]):
        n = 0
        for s in group_symbols[g]:
            if s >= 0 and not used[s]:
                free[g, n] = s
                n += 1
    count = 0
    for e in range(perms.shape[0]):
        table = tables[count]
        table[:] = -1
        inverse[:] = -1
        ok = True
        for t in range(played):
            for i in range(length):
                a = digits[path[t], perms[e, i]]
                b = digits[path[t], i]
                if table[a] < 0:
                    if inverse[b] >= 0 or sym_group[a] != sym_group[b]:
                        ok = False
                        break
                    table[a] = b
                    inverse[b] = a
                elif table[a] != b:
                    ok = False
                    break
            if not ok:
                break
        if ok:
            for s in range(k):
                if table[s] < 0:
                    table[s] = s
            chosen[count] = e
            count += 1
    return count


@njit(cache=True)
def _worth_classes(count, free):
    """Whether the symmetries found can make two codes equivalent at all."""
    return count > 1 or (free[:, 1] >= 0).any()


@njit(cache=True)
def _lowest_of_class(code, digits, count, perms, sym_group, scratch, renamed, stamp, taken):
    """Whether ``code`` is the lowest code of its class under the symmetries in ``scratch``."""
    used, tables, chosen, free, _ = scratch
    length = digits.shape[1]
    for e in range(count):
        stamp[0] += 1
        mark = stamp[0]
        taken[:] = 0
        pi = perms[chosen[e]]
        table = tables[e]
        for i in range(length):
            x = table[digits[code, pi[i]]]
            if not used[x]:
                if renamed[0, x] != mark:
                    g = sym_group[x]
                    renamed[0, x] = mark
                    renamed[1, x] = free[g, taken[g]]
                    taken[g] += 1
                x = renamed[1, x]
            d = digits[code, i]
            if x < d:
                return False
            if x > d:
                break
    return True


@njit(cache=True)
def _dead_symbols(cands, m, digits, sym_group, present, dead, taken):
    """Mark the symbols of the candidates ``cands[:m]`` in ``present``; list the others (dead)
    of each group, in order, in ``dead``'s rows (padded with -1); whether a group has two."""
    length, k = digits.shape[1], present.shape[0]
    present[:] = False
    for j in range(m):
        for i in range(length):
            present[digits[cands[j], i]] = True
    dead[:, :] = -1
    taken[:] = 0
    two = False
    for x in range(k):
        if not present[x]:
            g = sym_group[x]
            dead[g, taken[g]] = x
            taken[g] += 1
            two = two or taken[g] == 2
    return two


@njit(cache=True)
def _lowest_dead(code, digits, present, sym_group, dead, taken):
    """Whether ``code`` is the lowest of the codes it becomes when the dead symbols are
    relabelled among themselves: its dead symbols come, in order of first appearance, as the
    lowest of their group, in order."""
    taken[:] = 0
    for i in range(digits.shape[1]):
        x = digits[code, i]
        if not present[x]:
            g = sym_group[x]
            lowest = dead[g, taken[g]]  # the lowest one not met yet (-1: all met)
            if x == lowest:
                taken[g] += 1
            elif x > lowest >= 0:  # a new one, not the lowest left
                return False
    return True


@njit(cache=True)
def choose(cands, m, pos, sym, pc, sc, params, logs, work, symmetry, path, played):
    """The heuristic's guess for the candidates ``cands[:m]`` (sorted), whose masks are in
    ``pc``, ``sc``: the guesses are scanned in the order of the tie-break (candidates, then the
    other codes), one per class of equivalent codes; with at most ``PAIRWISE`` candidates they
    are scored a strip at a time (``strip_costs``), else one by one, each given up once its
    cost so far reaches the best (``_cost``)."""
    if m == 1:
        return cands[0]
    buf, row, lanes, picked, gp, gs = work[0], work[1], work[2], work[3], work[4], work[5]
    bound = lowest_cost(m, params[REPLIES], params[HEURISTIC], logs)
    digits, perms, sym_group, group_symbols, scratch, renamed, stamp, taken, present, dead = (
        symmetry
    )
    count = 0
    classes = False
    if params[SYMMETRIC] and m >= _CLASSES_FROM:
        count = _symmetries(digits, path, played, perms, sym_group, group_symbols, scratch)
        classes = _worth_classes(count, scratch[3])
    deadly = False  # one guess per class of codes that differ by their dead symbols
    if params[SYMMETRIC] and not classes and not params[CONSISTENT] and m >= _DEAD_FROM:
        deadly = _dead_symbols(cands, m, digits, sym_group, present, dead, taken)
    pairwise = m <= PAIRWISE
    # Scored pairwise, every code: straight from the universe's strips (none to pick).
    strips = pairwise and not classes and not deadly
    best, best_cost, queued = -1, _HUGE, 0
    for phase in range(1 if params[CONSISTENT] else 2):
        if phase == 1 and strips:
            if queued:
                best, best_cost = _scored(queued, pc, sc, m, params, logs, work, best, best_cost)
                queued = 0
            if best_cost == bound:
                return best
            return _strips(cands, m, pos, sym, pc, sc, params, logs, work, best, best_cost)
        c = 0
        for i in range(m if phase == 0 else pos.shape[0]):
            g = cands[i] if phase == 0 else i
            if phase == 1 and c < m and cands[c] == g:
                c += 1
                continue
            if classes and not _lowest_of_class(
                g, digits, count, perms, sym_group, scratch, renamed, stamp, taken
            ):
                continue
            if deadly and phase == 1 and not _lowest_dead(g, digits, present, sym_group, dead,
                                                           taken):  # fmt: skip
                continue
            if pairwise:
                picked[queued], gp[queued], gs[queued] = g, pos[g], sym[g]
                queued += 1
                if queued == STRIP:
                    best, best_cost = _scored(queued, pc, sc, m, params, logs, work, best,
                                              best_cost)  # fmt: skip
                    if best_cost == bound:
                        return best
                    queued = 0
                continue
            cost = _cost(pos[g], sym[g], pc, sc, m, params, logs, buf, row, lanes, best_cost)
            if cost < best_cost:
                best, best_cost = g, cost
                if cost == bound:
                    return best
    if queued:
        best, best_cost = _scored(queued, pc, sc, m, params, logs, work, best, best_cost)
    return best


@njit(cache=True)
def _strips(cands, m, pos, sym, pc, sc, params, logs, work, best, best_cost):
    """The best guess after scoring every code that is not a candidate, pairwise, a strip of
    the universe at a time, stopping at one of the lowest possible cost."""
    replies, shared, costs = work[6], work[7], work[8]
    length, heuristic = params[LENGTH], params[HEURISTIC]
    bound = lowest_cost(m, params[REPLIES], heuristic, logs)
    c = 0
    n = pos.shape[0]
    for first in range(0, n, STRIP):
        width = min(STRIP, n - first)
        strip_costs(pos, sym, first, width, pc, sc, m, length, heuristic, logs, replies, shared,
                    costs)  # fmt: skip
        for i in range(width):
            if c < m and cands[c] == first + i:
                c += 1
            elif costs[i] < best_cost:
                best, best_cost = first + i, costs[i]
                if best_cost == bound:
                    return best
    return best


@njit(cache=True)
def _scored(queued, pc, sc, m, params, logs, work, best, best_cost):
    """Score the ``queued`` guesses of ``work`` (in the tie-break's order) pairwise: the best
    so far after them, stopping at one of the lowest possible cost."""
    picked, gp, gs, replies, shared, costs = work[3], work[4], work[5], work[6], work[7], work[8]
    heuristic = params[HEURISTIC]
    strip_costs(gp, gs, 0, queued, pc, sc, m, params[LENGTH], heuristic, logs, replies, shared,
                costs)  # fmt: skip
    bound = lowest_cost(m, params[REPLIES], heuristic, logs)
    for i in range(queued):
        if costs[i] < best_cost:
            best, best_cost = picked[i], costs[i]
            if best_cost == bound:
                break
    return best, best_cost
