"""Decision trees as nested plain data, and what they cost.

A tree node is ``{"guess": universe_index, "replies": {reply_index: subtree}}``. The all-bulls
reply is implicit: when the guess is still possible, the secret equal to it ends there. A leaf
(``replies`` empty) is a guess that is the only code left.
"""

from __future__ import annotations

from typing import TypedDict

import numpy as np
import numpy.typing as npt

from bullscows.universe import IndexArray


class Tree(TypedDict):
    """One node of a decision tree (see the module docstring)."""

    guess: int
    replies: dict[int, Tree]


def leaf(code: int) -> Tree:
    """The tree for a single remaining code: guess it."""
    return {"guess": code, "replies": {}}


def distribution(
    scores: npt.NDArray[np.uint8], win: int, tree: Tree, candidates: IndexArray
) -> dict[int, int]:
    """``{guesses: secrets}`` for the tree over ``candidates``; raises if a secret is lost.

    ``scores[g, s]`` is the reply index of guess ``g`` to secret ``s``; ``win`` is all bulls.
    """
    found: dict[int, int] = {}
    stack: list[tuple[Tree, IndexArray, int]] = [(tree, candidates, 1)]
    while stack:
        node, codes, depth = stack.pop()
        replies = scores[node["guess"], codes]
        for reply in np.unique(replies).tolist():
            part = codes[replies == reply]
            if reply == win:
                found[depth] = found.get(depth, 0) + 1
            elif reply in node["replies"]:
                stack.append((node["replies"][reply], part, depth + 1))
            else:
                raise ValueError(f"the tree has no branch for reply {reply} at depth {depth}")
    return dict(sorted(found.items()))
