"""A tree as indented text."""

from __future__ import annotations

from bullscows.feedback import Feedback
from bullscows.tree.model import DecisionTree, Node
from bullscows.universe import universe


def render_text(tree: DecisionTree, style: str = "pair", max_depth: int | None = None) -> list[str]:
    """The tree as indented lines: a guess, then each reply (in ``style``) and what follows it.

    A leaf reads ``reply -> code``; subtrees below ``max_depth`` guesses are cut (``...``).

    >>> from bullscows.outcomes import build_tree
    >>> from bullscows.rules import Rules
    >>> from bullscows.strategies import get_strategy
    >>> tree = build_tree(Rules.parse("p2c3n"), get_strategy("simple"))
    >>> print("\\n".join(render_text(tree, "bc")))
    01
      0B1C: 12
        0B1C -> 20
      0B2C -> 10
      1B0C: 02
        0B1C -> 21
    """
    u = universe(tree.rules)
    n = tree.rules.length
    lines: list[str] = []
    # Items to print, last first: a ready line, or a node whose replies come next.
    stack: list[str | tuple[Node, int]] = [(tree.root, 1)]
    lines.append(u.text(tree.root.guess))
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            lines.append(item)
            continue
        node, depth = item
        if not node.branches:
            continue
        indent = "  " * depth
        if max_depth is not None and depth >= max_depth:
            lines.append(indent + "...")
            continue
        todo: list[str | tuple[Node, int]] = []
        for reply, child in sorted(node.branches.items()):
            said = Feedback.from_index(reply, n).format(style)
            if child.is_leaf:
                todo.append(f"{indent}{said} -> {u.text(child.guess)}")
            else:
                todo.append(f"{indent}{said}: {u.text(child.guess)}")
                todo.append((child, depth + 1))
        stack.extend(reversed(todo))
    return lines
