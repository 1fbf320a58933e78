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

import numpy as np

from bullscows.codes import Code
from bullscows.feedback import Feedback
from bullscows.knowledge import Knowledge, Step
from bullscows.rules import Rules
from bullscows.strategies.heuristic import Entropy, ExpectedSize, PartitionHeuristic
from bullscows.strategies.walked import walk_strategy
from bullscows.tree.model import Node
from bullscows.universe import IndexArray

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
    found: list[tuple[int, Node]] = []
    for heuristic in PART_HEURISTICS:
        counts, root, _ = walk_strategy(knowledge, heuristic(), knowledge.candidates, 1, build=True)
        assert root is not None  # built
        found.append((int(counts.sum()), root))
    return min(found, key=lambda total_tree: total_tree[0])  # the first of equal totals


__all__ = ["PART_HEURISTICS", "heuristic_part"]
