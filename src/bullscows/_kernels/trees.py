"""The decision tree of a one-guess-ahead heuristic, built in one compiled pass.

Each node's candidates are a slice of one array, sorted in place by reply, and each node is
written to flat arrays (its guess, its parent, the reply leading to it); each guess is chosen
as ``_kernels.tree_guess`` says. Large trees are split into subtrees below the first levels
(``open_parts``) that threads take one at a time (``build_parts``); see
docs/explanation/heuristics.md.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bullscows._kernels.bits import claim, popcount
from bullscows._kernels.tables import (
    LENGTH,
    LEVEL_AT_ROOT,
    SLOTS,
    TREE_HISTORY,
    TREE_LOGS,
    TREE_PARAMS,
    TREE_POS,
    TREE_SYM,
    TREE_SYMMETRY,
    WIN,
)
from bullscows._kernels.tree_guess import PAIRWISE, STRIP, choose


@njit(cache=True)
def _expand(order, start, stop, level, node, params, pos, sym, tree, counts, sorting, stack):
    """Sort the slice ``order[start:stop]`` by reply to node ``node``'s guess: the winning code
    gets ``level`` guesses, a part of one code becomes a leaf (a node written at ``tree``'s
    next free row), a larger part is pushed on ``stack``."""
    length, slots, win = params[LENGTH], params[SLOTS], params[WIN]
    guesses, parents, links, emit = tree
    replies, counting, ordered = sorting
    guess = guesses[node]
    p, s = pos[guess], sym[guess]
    counting[: slots + 1] = 0
    for j in range(start, stop):
        r = length * popcount(p & pos[order[j]]) + popcount(s & sym[order[j]])
        replies[j - start] = r
        counting[r + 1] += 1
    for r in range(slots):
        counting[r + 1] += counting[r]
    for j in range(start, stop):
        r = replies[j - start]
        ordered[counting[r]] = order[j]
        counting[r] += 1
    order[start:stop] = ordered[: stop - start]
    # counting[r] is now where part r ends (from start), and counting[r - 1] where it begins.
    begin = 0
    for r in range(slots):
        end = counting[r]
        if end - begin == 1 and r != win:
            at = emit[0]
            emit[0] += 1
            guesses[at], parents[at], links[at] = order[start + begin], node, r
            counts[order[start + begin]] = level + 1
        elif end > begin and r == win:
            counts[order[start + begin]] = level
        elif end > begin:
            _push(stack, start + begin, start + end, level + 1, node, r)
        begin = end


@njit(cache=True, inline="always")
def _push(stack, start, stop, level, parent, reply):
    rows, top = stack
    at = top[0]
    rows[at, 0], rows[at, 1], rows[at, 2], rows[at, 3], rows[at, 4] = (
        start, stop, level, parent, reply,
    )  # fmt: skip
    top[0] += 1


@njit(cache=True)
def _node(order, start, stop, parent, reply, ctx, tree, work):
    """Choose the guess of a node (candidates ``order[start:stop]``) and write it at ``tree``'s
    next free row; its row."""
    pos, sym, params = ctx[TREE_POS], ctx[TREE_SYM], ctx[TREE_PARAMS]
    logs, history = ctx[TREE_LOGS], ctx[TREE_HISTORY]
    guesses, parents, links, emit = tree
    scores, symmetry, gathered, path = work
    m = stop - start
    cands = order[start:stop]
    pc, sc = gathered
    for j in range(m):
        pc[j] = pos[cands[j]]
        sc[j] = sym[cands[j]]
    played = _path(history, parents, guesses, parent, path)
    guess = choose(cands, m, pos, sym, pc, sc, params, logs, scores, symmetry, path, played)
    at = emit[0]
    emit[0] += 1
    guesses[at], parents[at], links[at] = guess, parent, reply
    return at


@njit(cache=True)
def _path(history, parents, guesses, parent, out):
    """The guesses played before a node whose parent is ``parent`` into ``out``; how many."""
    k = 0
    for h in history:
        out[k] = h
        k += 1
    at = parent
    while at >= 0:
        out[k] = guesses[at]
        k += 1
        at = parents[at]
    return k


@njit(cache=True)
def _work(m, ctx):
    """Work arrays for nodes of at most ``m`` candidates."""
    params, symmetry = ctx[TREE_PARAMS], ctx[TREE_SYMMETRY]
    digits, perms, sym_group, group_symbols = symmetry
    slots = params[SLOTS]
    k = sym_group.shape[0]
    groups = group_symbols.shape[0]
    few = min(m, PAIRWISE)
    scores = (
        np.empty(max(m, 1), dtype=np.uint8),
        np.zeros(slots, dtype=np.int64),
        np.zeros((4, slots), dtype=np.int64),
        np.empty(STRIP, dtype=np.int64),
        np.empty(STRIP, dtype=np.uint64),
        np.empty(STRIP, dtype=np.uint64),
        np.empty((few, STRIP), dtype=np.uint8),
        np.empty(STRIP, dtype=np.uint8),
        np.empty(STRIP, dtype=np.int64),
    )
    scratch = (
        np.zeros(k, dtype=np.bool_),
        np.empty((perms.shape[0], k), dtype=np.int64),
        np.empty(perms.shape[0], dtype=np.int64),
        np.full((groups, k + 1), -1, dtype=np.int64),
        np.empty(k, dtype=np.int64),
    )
    classes = (
        digits, perms, sym_group, group_symbols, scratch,
        np.zeros((2, k), dtype=np.int64), np.zeros(1, dtype=np.int64),
        np.zeros(groups, dtype=np.int64),
        np.zeros(k, dtype=np.bool_), np.full((groups, k + 1), -1, dtype=np.int64),
    )  # fmt: skip
    gathered = (np.empty(max(m, 1), dtype=np.uint64), np.empty(max(m, 1), dtype=np.uint64))
    path = np.empty(len(ctx[TREE_HISTORY]) + m + 1, dtype=np.int64)
    sorting = (
        np.empty(max(m, 1), dtype=np.int64),
        np.zeros(slots + 1, dtype=np.int64),
        np.empty(max(m, 1), dtype=np.int64),
    )
    return (scores, classes, gathered, path), sorting


@njit(cache=True)
def _subtree(order, task, ctx, tree, counts, region):
    """The subtree of one task, a (start, stop, level, parent, reply) row, depth first, its
    nodes written from row ``region`` on."""
    start, stop = task[0], task[1]
    m = stop - start
    work, sorting = _work(m, ctx)
    local = (tree[0], tree[1], tree[2], np.array([region], dtype=np.int64))
    stack = (np.empty((2 * m + 2, 5), dtype=np.int64), np.zeros(1, dtype=np.int64))
    _push(stack, task[0], task[1], task[2], task[3], task[4])
    rows, top = stack
    params, pos, sym = ctx[TREE_PARAMS], ctx[TREE_POS], ctx[TREE_SYM]
    while top[0] > 0:
        top[0] -= 1
        a, b, level, parent, reply = rows[top[0]]
        node = _node(order, a, b, parent, reply, ctx, local, work)
        _expand(order, a, b, level, node, params, pos, sym, local, counts, sorting, stack)
    return local[3][0] - region


@njit(cache=True)
def open_parts(order, ctx, tree, counts, wanted):
    """Expand the largest open parts on this thread until ``wanted`` parts are open; the open
    parts, as (start, stop, level, parent, reply) rows."""
    m = len(order)
    work, sorting = _work(m, ctx)
    stack = (np.empty((2 * m + 2, 5), dtype=np.int64), np.zeros(1, dtype=np.int64))
    _push(stack, 0, m, ctx[TREE_PARAMS][LEVEL_AT_ROOT], -1, -1)
    rows, top = stack
    params, pos, sym = ctx[TREE_PARAMS], ctx[TREE_POS], ctx[TREE_SYM]
    while 0 < top[0] < wanted:
        largest = 0
        for t in range(top[0]):
            if rows[t, 1] - rows[t, 0] > rows[largest, 1] - rows[largest, 0]:
                largest = t
        a, b, level, parent, reply = rows[largest]
        top[0] -= 1
        rows[largest] = rows[top[0]]
        node = _node(order, a, b, parent, reply, ctx, tree, work)
        _expand(order, a, b, level, node, params, pos, sym, tree, counts, sorting, stack)
    return rows[: top[0]].copy()


@njit(cache=True)
def build_serial(order, ctx, tree, counts):
    """The tree below the root of ``order`` (every candidate, sorted) on this thread."""
    _subtree(order, np.array([0, len(order), ctx[TREE_PARAMS][LEVEL_AT_ROOT], -1, -1]), ctx, tree,
             counts, 0)  # fmt: skip


@njit(cache=True, nogil=True)
def build_parts(order, tasks, regions, taken, ctx, tree, counts):
    """Take the next part left (a row of ``tasks``, from ``open_parts``) and build its subtree
    into its rows (from ``regions[t]``), until none is left: each of several threads calls
    this at once (``tree_build``), sharing the counter ``taken``."""
    while True:
        t = claim(taken)
        if t >= len(tasks):
            return
        _subtree(order, tasks[t], ctx, tree, counts, regions[t])
