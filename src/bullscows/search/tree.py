"""What a searched tree gives: the guesses every secret needs, by the search's score matrix.

The search's trees are ``tree.Node`` values (a guess, and a subtree per reply index other
than all bulls), as every other tree is.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from bullscows.figures import distribution as count_by_guesses
from bullscows.tree.model import Node
from bullscows.tree.walk import walk_secrets
from bullscows.universe import IndexArray


def distribution(
    scores: npt.NDArray[np.uint8], win: int, tree: Node, candidates: IndexArray
) -> dict[int, int]:
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
