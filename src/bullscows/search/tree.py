"""What a searched tree gives: the guesses every secret needs, by the search's score matrix.

The search's trees are ``tree.Node`` values (a guess, and a subtree per reply index other
than all bulls), as every other tree is.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from bullscows.figures import distribution as count_by_guesses
from bullscows.search.scores import WholeMatrix
from bullscows.tree.model import Node
from bullscows.tree.walk import walk_secrets
from bullscows.universe import IndexArray

#: Every code's reply to every guess: a matrix, or a search's ``scores`` (``search.scores``).
Scores = npt.NDArray[np.uint8] | WholeMatrix


def distribution(scores: Scores, win: int, tree: Node, candidates: IndexArray) -> dict[int, int]:
    """``{guesses: secrets}`` for the tree over ``candidates``; raises if a secret is lost.

    ``scores[g, s]`` is the reply index of guess ``g`` to secret ``s``; ``win`` is all bulls.

    >>> scores = np.array([[4, 1], [1, 4]], dtype=np.uint8)
    >>> distribution(scores, 4, Node(0, {1: Node(1)}), np.array([0, 1]))
    {1: 1, 2: 1}
    >>> distribution(scores, 4, Node(0), np.array([0, 1]))
    Traceback (most recent call last):
    ...
    ValueError: the tree has no branch for reply 1 at depth 1
    """

    def visit(
        node: Node, codes: IndexArray, depth: int
    ) -> tuple[int, Callable[[int, IndexArray, IndexArray], Node]]:
        def follow(reply: int, part: IndexArray, wanted: IndexArray) -> Node:
            child = node.branches.get(reply)
            if child is None:
                raise ValueError(f"the tree has no branch for reply {reply} at depth {depth}")
            return child

        return node.guess, follow

    def score(guess: int, codes: IndexArray) -> npt.NDArray[np.uint8]:
        replies: npt.NDArray[np.uint8] = scores[guess, codes]
        return replies

    return count_by_guesses(walk_secrets(tree, candidates, score, win, visit))


def tree_cost(
    scores: Scores, win: int, tree: Node, codes: IndexArray, depth: int,
    penalty: int = 0, weight: int = 1, consistent_only: bool = False,
) -> int | None:  # fmt: skip
    """The cost of ``tree`` over ``codes`` as the search counts it: the guesses every code
    needs, times ``weight``, plus ``penalty`` for each code the ``depth``-th guess settles;
    ``None`` if it loses a code, needs more than ``depth`` guesses, or (``consistent_only``)
    guesses a code that cannot be the secret.

    >>> scores = np.array([[4, 1], [1, 4]], dtype=np.uint8)
    >>> tree, codes = Node(0, {1: Node(1)}), np.array([0, 1])
    >>> tree_cost(scores, 4, tree, codes, 2), tree_cost(scores, 4, tree, codes, 1)
    (3, None)
    """
    total = at_depth = 0
    stack = [(tree, codes, 1)]
    while stack:
        node, part, level = stack.pop()
        if level > depth or (consistent_only and node.guess not in part):
            return None
        replies = scores[node.guess, part]
        open_ = replies != win
        won = len(part) - int(open_.sum())
        total += level * won
        at_depth += won if level == depth else 0
        rest, replies = part[open_], replies[open_]
        for reply in np.unique(replies).tolist():
            child = node.branches.get(reply)
            if child is None:
                return None
            stack.append((child, rest[replies == reply], level + 1))
    return weight * total + penalty * at_depth
