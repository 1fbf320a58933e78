"""Decision trees: a deterministic strategy written out once, guess by guess, reply by reply.

A tree has one node per position the strategy can reach; the all-bulls reply has no branch, so
a leaf is a node whose guess is the only secret that reaches it. Trees are saved as strict JSON
(``DecisionTree.to_json``, version 1 of the format; gzip when the name ends in ``.gz``), or in
Irving notation (``tree.irving``); the format is described in docs/reference/tree-format.md.

>>> from bullscows.outcomes import build_tree
>>> from bullscows.rules import Rules
>>> from bullscows.strategies import get_strategy
>>> tree = build_tree(Rules.parse("p2c3n"), get_strategy("minimax"))
>>> tree.summary().total, tree.summary().nodes
(13, 6)
>>> load_tree(tree.to_json()) == tree
True
>>> check_tree(tree).problems
[]
"""

from bullscows.tree.check import CheckReport, check_tree
from bullscows.tree.files import load_tree
from bullscows.tree.model import (
    FORMAT,
    MAX_DEPTH,
    MAX_NODES,
    VERSION,
    DecisionTree,
    Node,
    TreeSummary,
    follow,
)
from bullscows.tree.text import render_text

__all__ = [
    "FORMAT",
    "MAX_DEPTH",
    "MAX_NODES",
    "VERSION",
    "CheckReport",
    "DecisionTree",
    "Node",
    "TreeSummary",
    "check_tree",
    "follow",
    "load_tree",
    "render_text",
]
