"""A heuristic's tree of one part of a game: the codes a history leaves, settled by the
better of the ``entropy`` and ``expected-size`` trees from there. A search that cannot
settle a part in time (``search.opening``) puts this tree in its place: a valid tree, so
the whole tree's total is an upper bound.

>>> from bullscows.rules import Rules
>>> from bullscows.universe import universe
>>> mm = Rules.parse("mm")
>>> replies = universe(mm).score_row(0, universe(mm).secrets)
>>> part = universe(mm).secrets[replies == 5]  # 1111, one bull
>>> cost, tree = heuristic_part(mm, ((0, 5),), part)
>>> len(part), cost, tree.guess >= 0
(500, 1977, True)
"""

from __future__ import annotations

import random

import numpy as np

from bullscows.codes import Code
from bullscows.feedback import Feedback
from bullscows.knowledge import Knowledge, Step
from bullscows.rules import Rules
from bullscows.strategies.heuristic import Entropy, ExpectedSize, PartitionHeuristic
from bullscows.tree.model import Node
from bullscows.universe import IndexArray, universe

#: The heuristics tried on a part, the first kept among equal totals.
PART_HEURISTICS: tuple[type[PartitionHeuristic], ...] = (Entropy, ExpectedSize)


def heuristic_part(
    rules: Rules, history: tuple[tuple[int, int], ...], codes: IndexArray
) -> tuple[int, Node]:
    """The lower-total tree of ``PART_HEURISTICS`` over ``codes``, the codes left by
    ``history`` (guess index, reply index pairs), and its total: the guesses every code
    needs from here, this position's guess counting 1 (as the search counts a part's cost)."""
    steps = tuple(
        Step(Code.of_index(guess, rules), Feedback.from_index(reply, rules.length))
        for guess, reply in history
    )
    knowledge = Knowledge(rules, steps, np.sort(np.asarray(codes, dtype=np.int64)))
    best: tuple[int, Node] | None = None
    for heuristic in PART_HEURISTICS:
        found = _tree(heuristic(), knowledge)
        if best is None or found[0] < best[0]:
            best = found
    assert best is not None
    return best


def _tree(strategy: PartitionHeuristic, knowledge: Knowledge) -> tuple[int, Node]:
    """``strategy``'s tree from ``knowledge`` and its total: in one compiled pass when it
    can (``subtree``), else move by move."""
    whole = strategy.subtree(knowledge)
    if whole is not None:
        return int(whole.counts.sum()), whole.root
    u = universe(knowledge.rules)
    win = knowledge.rules.length * (knowledge.rules.length + 1)
    rng = random.Random(0)  # a heuristic's choice is deterministic: never drawn
    root = Node(strategy.choose(knowledge, rng))
    total = 0
    stack = [(root, knowledge, 1)]
    while stack:
        node, known, level = stack.pop()
        replies = u.score_row(node.guess, known.candidates)
        total += level * int(np.count_nonzero(replies == win))
        for reply in np.unique(replies[replies != win]).tolist():
            part = known.candidates[replies == reply]
            step = Step(Code.of_index(node.guess, known.rules),
                        Feedback.from_index(reply, known.rules.length))  # fmt: skip
            below = Knowledge(known.rules, (*known.history, step), part)
            guess = int(part[0]) if len(part) == 1 else strategy.choose(below, rng)
            node.branches[reply] = child = Node(guess)
            stack.append((child, below, level + 1))
    return total, root


__all__ = ["PART_HEURISTICS", "heuristic_part"]
