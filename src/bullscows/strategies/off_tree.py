"""Advice for a game that has left an optimal strategy's tree, and which source gave it.

A game the tree does not play is first mapped onto the tree by a symmetry of the variant (a
permutation of positions with a relabelling of symbols: ``9876`` opens as the tree's ``0123``
does), and the tree's guess mapped back. Failing that, the position search answers while few
codes are left (``search.position``: the lowest total from here, proven); beyond its bound, a
heuristic does, and ``Advice.source`` says so plainly.

>>> from bullscows.codes import Code
>>> from bullscows.feedback import Feedback
>>> from bullscows.tree.model import Node
>>> p3 = Rules.parse("p3c4n")
>>> root = Node(universe(p3).index([0, 1, 2]))
>>> k = Knowledge.start(p3).after(Code("321", p3), Feedback(0, 0))
>>> symmetric_guess(root, k) is None  # the tree's root has no branch for that reply
True
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bullscows.knowledge import Knowledge
from bullscows.rules import Rules
from bullscows.tree.model import Node
from bullscows.universe import Universe, universe

Digits = npt.NDArray[np.uint8]

#: Position permutations are tried up to this code length (720 orders at 6).
MAX_PERMUTED_LENGTH = 6
#: The heuristic that answers beyond the tree and the position search.
FALLBACK = "minimax"


@dataclass(frozen=True, slots=True)
class Advice:
    """A guess for a position off the tree, and a sentence on where it comes from."""

    guess: int
    source: str


def advise(root: Node, knowledge: Knowledge, label: str) -> Advice:
    """The next guess for ``knowledge``, which the tree at ``root`` (of strategy ``label``)
    does not play: the tree's by symmetry, else the position search's, else ``FALLBACK``'s."""
    from bullscows.search.position import MAX_POSITION_CODES, optimal_from, searchable
    from bullscows.strategies import get_strategy

    mapped = symmetric_guess(root, knowledge)
    if mapped is not None:
        return Advice(mapped, f"the {label} tree, by symmetry: this game is one of its own")
    codes = len(knowledge)
    if searchable(knowledge):
        found = optimal_from(knowledge).guess
        assert found is not None  # two or more codes are left: a guess is needed
        return Advice(
            found,
            f"the game left the {label} tree; the position search answered: the lowest total "
            f"from here, proven over the {codes:,} codes left",
        )
    guess = get_strategy(FALLBACK).next_guess(knowledge, random.Random(0))
    why = (
        f"{codes:,} codes are left, more than the position search takes ({MAX_POSITION_CODES:,})"
        if codes > MAX_POSITION_CODES
        else "its variant has too many codes to guess for the position search"
    )
    return Advice(guess, f"the game left the {label} tree and {why}: {FALLBACK} answered")


def symmetric_guess(root: Node, knowledge: Knowledge) -> int | None:
    """The tree's next guess for a game that maps onto one of the tree's own by a symmetry of
    the variant (positions permuted, symbols relabelled), mapped back into the game; ``None``
    when no symmetry does (or the variant restricts positions, or its codes are long)."""
    rules: Rules = knowledge.rules
    if rules.allowed is not None or rules.guess_rules.allowed is not None:
        return None
    if rules.length > MAX_PERMUTED_LENGTH or not knowledge.history:
        return None
    u = universe(rules)
    length = rules.length
    for order in itertools.permutations(range(length)):
        node: Node | None = root
        relabel: dict[int, int] = {}  # game symbol -> tree symbol
        for step in knowledge.history:
            game, tree = u.codes[step.guess.index], u.codes[node.guess] if node else None
            if node is None or tree is None or not _extend(relabel, game, tree, order):
                node = None
                break
            node = node.branches.get(step.feedback.index(length))
        if node is not None:
            return _mapped_back(u, u.codes[node.guess].tolist(), relabel, order)
    return None


def _extend(relabel: dict[int, int], game: Digits, tree: Digits, order: tuple[int, ...]) -> bool:
    """Extend ``relabel`` so that the game's guess, permuted by ``order``, is the tree's
    (``tree[i] == relabel[game[order[i]]]``), keeping it one to one; whether it could."""
    taken = {v: k for k, v in relabel.items()}
    for i, position in enumerate(order):
        a, b = int(game[position]), int(tree[i])
        if relabel.get(a, b) != b or taken.get(b, a) != a:
            return False
        relabel[a], taken[b] = b, a
    return True


def _mapped_back(
    u: Universe, tree: list[int], relabel: dict[int, int], order: tuple[int, ...]
) -> int:
    """The game's code for the tree's code ``tree``: symbols the game has not played are
    free, so a tree symbol not yet relabelled takes the lowest game symbol still unused."""
    back = {v: k for k, v in relabel.items()}
    unused = iter(sorted(set(range(len(u.rules.symbols))) - set(relabel)))
    game = [0] * len(tree)
    for i, symbol in enumerate(tree):
        if symbol not in back:
            back[symbol] = next(unused)
        game[order[i]] = back[symbol]
    return u.index(game)
