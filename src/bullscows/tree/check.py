"""Checking a tree: every secret played down it, scoring each guess afresh."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from bullscows.tree.model import DecisionTree, TreeSummary, listed, trace_secrets
from bullscows.universe import universe


@dataclass(frozen=True, slots=True)
class CheckReport:
    """What ``check_tree`` found: the problems (none for a valid tree) and the real summary."""

    problems: list[str]
    summary: TreeSummary | None

    @property
    def valid(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "problems": self.problems,
            "summary": None if self.summary is None else self.summary.to_json(),
        }


def check_tree(tree: DecisionTree, consistent_only: bool = False) -> CheckReport:
    """Play every secret of the variant down the tree, scoring each guess afresh.

    Problems: a secret that leaves the tree (its true reply has no branch), a branch no secret
    reaches, a code that is a leaf twice, a stated summary that differs from the real one, and
    with ``consistent_only`` a guess that no secret reaching it could be.
    """
    counts, problems = trace_secrets(tree, consistent_only)
    leaves: dict[int, int] = {}
    nodes = 0
    for _, node in tree.nodes():
        nodes += 1
        if node.is_leaf:
            leaves[node.guess] = leaves.get(node.guess, 0) + 1
    u = universe(tree.rules)
    twice = [f"{u.text(g)} ({n} leaves)" for g, n in leaves.items() if n > 1]
    if twice:
        problems.append("codes that are a leaf more than once: " + listed(twice))
    if problems:
        return CheckReport(problems, None)
    real = TreeSummary.from_counts(counts, nodes)
    if tree.stated is not None and not _same(tree.stated, real):
        problems.append(
            f"the stated summary {_figures(tree.stated)} differs from the tree's {_figures(real)}"
        )
    return CheckReport(problems, real)


def _same(stated: TreeSummary, real: TreeSummary) -> bool:
    """Equal figures; the average only to within rounding (a file may hold a rounded one)."""
    close = math.isclose(stated.average, real.average, rel_tol=1e-9)
    return close and replace(stated, average=real.average) == real


def _figures(s: TreeSummary) -> str:
    shown = " ".join(f"{k}:{v}" for k, v in sorted(s.distribution.items()))
    return (
        f"(total {s.total}, worst {s.worst}, at worst {s.at_worst}, secrets {s.secrets}, "
        f"nodes {s.nodes}, distribution {shown}, average {s.average:.6g})"
    )
