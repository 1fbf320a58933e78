"""Two trees of one variant side by side: their figures, where they first part, and the
secrets whose number of guesses changes.

>>> from bullscows.outcomes import build_tree
>>> from bullscows.rules import Rules
>>> from bullscows.strategies import get_strategy
>>> rules = Rules.parse("p2c3r")
>>> a = build_tree(rules, get_strategy("simple"))
>>> b = build_tree(rules, get_strategy("entropy"))
>>> c = compare_trees(a, b)
>>> c.a.total, c.b.total, c.first_difference
(24, 21, 'at the root: the first guesses 00, the second 01')
>>> c.changed[:3]
[('00', 1, 3), ('01', 2, 1), ('02', 3, 2)]
>>> compare_trees(a, a).first_difference is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bullscows.errors import BullsCowsError
from bullscows.tree.model import DecisionTree, Node, TreeSummary, reply_key, trace_secrets
from bullscows.universe import universe


@dataclass(frozen=True, slots=True)
class Comparison:
    """``a`` and ``b``'s summaries, the first node (depth first, replies in order) where they
    differ, and every secret with its guess counts ``(code, in a, in b)`` where they differ."""

    a: TreeSummary
    b: TreeSummary
    first_difference: str | None
    changed: list[tuple[str, int, int]]

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a.to_json(), "b": self.b.to_json(),
            "first_difference": self.first_difference,
            "changed": [{"secret": s, "a": n, "b": m} for s, n, m in self.changed],
        }  # fmt: skip


def compare_trees(a: DecisionTree, b: DecisionTree) -> Comparison:
    """Compare two valid trees of one variant (another variant, or an invalid tree, is a
    ``BullsCowsError``)."""
    if a.rules != b.rules:
        raise BullsCowsError(
            f"the trees are of different variants ({a.rules.spec} and {b.rules.spec}): only "
            "trees of one variant can be compared"
        )
    counts = []
    for name, tree in (("first", a), ("second", b)):
        played, problems = trace_secrets(tree)
        if problems:
            raise BullsCowsError(f"the {name} tree is not valid: {problems[0]}")
        counts.append(played)
    u = universe(a.rules)
    changed = [
        (u.text(int(s)), int(n), int(m))
        for s, n, m in zip(u.secrets, counts[0], counts[1], strict=True)
        if n != m
    ]
    return Comparison(a.summary(), b.summary(), _first_difference(a, b), changed)


def _first_difference(a: DecisionTree, b: DecisionTree) -> str | None:
    """Where the trees first part, in words; ``None`` when they are the same."""
    u = universe(a.rules)
    length = a.rules.length
    stack: list[tuple[Node, Node, str]] = [(a.root, b.root, "")]
    while stack:
        x, y, path = stack.pop()
        where = f"after {path.strip()}" if path else "at the root"
        if x.guess != y.guess:
            return f"{where}: the first guesses {u.text(x.guess)}, the second {u.text(y.guess)}"
        if x.branches.keys() != y.branches.keys():
            return f"{where} {u.text(x.guess)}: the trees branch on different replies"
        for reply in sorted(x.branches, reverse=True):
            step = f"{path} {u.text(x.guess)} {reply_key(reply, length)!r}"
            stack.append((x.branches[reply], y.branches[reply], step))
    return None
