"""A deterministic strategy walked as a decision tree: the one walk that counts the guesses
each secret needs (``outcomes.walk``, ``bench``) and builds the strategy's tree
(``outcomes.build_tree``, a heuristic's tree of one part of a game: ``part_trees``).

>>> from bullscows.rules import Rules
>>> from bullscows.strategies.heuristic import Minimax
>>> start = Knowledge.start(Rules.parse("p2c3n"))
>>> counts, root, nodes = walk_strategy(start, Minimax(), start.candidates, 1, build=True)
>>> counts.tolist(), nodes
([1, 2, 2, 2, 3, 3], 6)
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt

from bullscows.errors import BullsCowsError
from bullscows.feedback import Feedback
from bullscows.knowledge import Knowledge, Step
from bullscows.strategies.base import Strategy
from bullscows.tree.model import MAX_NODES, Node
from bullscows.tree.walk import Follow, Next, walk_secrets
from bullscows.universe import IndexArray


def walk_strategy(
    knowledge: Knowledge, strategy: Strategy, targets: IndexArray, depth: int, build: bool
) -> tuple[npt.NDArray[np.int64], Node | None, int]:
    """Guess counts for ``targets`` from ``knowledge`` on; with ``build``, also the tree's
    root and its number of nodes (``targets`` must then be every candidate).

    Only the branches that lead to one of ``targets`` are walked (``tree.walk``), iteratively,
    so that a strategy needing thousands of guesses does not exhaust the stack.
    """
    rules = knowledge.rules
    rng = random.Random(0)
    settles = strategy.plays_sole_candidate
    made: list[Node] = []  # the root first
    nodes = 0
    # A position: what is known there, and the branch of the tree it hangs from.
    Position = tuple[Knowledge, tuple[Node, int] | None]

    def count_node(more: int = 1) -> None:
        nonlocal nodes
        nodes += more
        if nodes > MAX_NODES and build:
            raise BullsCowsError(
                f"the tree of {strategy.label} on {rules.spec} has more than "
                f"{MAX_NODES:,} nodes; it is not built"
            )

    def visit(position: Position, codes: IndexArray, level: int) -> tuple[int, Follow[Position]]:
        here, branch = position
        guess = strategy.next_guess(here, rng)
        count_node()
        node = _attach(branch, guess) if build else None
        if node is not None and branch is None:
            made.append(node)
        code = here.code(guess)

        def follow(reply: int, part: IndexArray, wanted: IndexArray) -> Position | Next:
            if settles and len(part) == 1:  # the next guess is that code: it wins
                count_node()
                if node is not None:
                    _attach((node, reply), int(part[0]))
                return Next.WINS
            step = Step(code, Feedback.from_index(reply, rules.length))
            after = Knowledge(rules, (*here.history, step), part)
            return after, None if node is None else (node, reply)

        return guess, follow

    def settle(position: Position, codes: IndexArray) -> npt.NDArray[np.int64] | None:
        here, branch = position
        whole = strategy.subtree(here)  # the whole play from here at once, if it can
        if whole is None:
            return None
        count_node(whole.nodes)
        if build:
            if branch is None:
                made.append(whole.root)
            else:
                branch[0].branches[branch[1]] = whole.root
        return whole.counts

    win = Feedback.win(rules.length).index(rules.length)
    start: Position = (knowledge, None)
    codes = knowledge.candidates
    every = np.array_equal(targets, codes)  # then the walk need not look the secrets up
    counts = walk_secrets(
        start,
        codes,
        knowledge.universe.score_row,
        win,
        visit,
        None if every else targets,
        depth,
        settle=settle,
    )
    return counts, made[0] if made else None, nodes


def _attach(branch: tuple[Node, int] | None, guess: int) -> Node:
    """A new node for ``guess``, hung on ``branch`` (a parent node and a reply) if any."""
    node = Node(guess)
    if branch is not None:
        parent, reply = branch
        parent.branches[reply] = node
    return node


__all__ = ["walk_strategy"]
