"""Decision trees: a deterministic strategy written out once, guess by guess, reply by reply.

A tree has one node per position the strategy can reach: the node's guess, and one branch per
reply that some secret gives to it. The all-bulls reply has no branch (the game is over), so a
leaf is a node whose guess is the only secret that reaches it.

Trees are saved as strict JSON (``DecisionTree.to_json``) in this schema, version 1::

    {
      "format": "bullscows-tree",
      "version": 1,
      "rules": "mm",                   # a rules spec, as Rules.parse reads it
      "strategy": "minimax",           # the label of the strategy the tree was built from
      "objective": "strategy",         # how it was made: "strategy" is a strategy's own play
                                       # (a search may write e.g. "optimal-total")
      "summary": {"total": 5801, "average": 4.476, "worst": 5, "at_worst": 694,
                  "distribution": {"1": 1, "2": 6, ...}, "secrets": 1296, "nodes": 1378},
      "tree": {"guess": "1122",
               "replies": {"0 0": {"guess": "3345", "replies": {...}},
                           "0 1": ...,
                           ...}}
    }

Codes are written as text of the variant; a reply key is bulls, a space, then cows (``"1 2"``);
a leaf is ``{"guess": "1234"}`` (``"replies"`` absent or empty). An optional ``"key"`` (text)
binds a cached optimal tree to the search that made it. The summary uses the field
names of ``bullscows bench --json``; ``nodes`` counts the guess nodes, leaves included. The
summary is optional when reading; ``check_tree`` compares a stated one with the tree's play.
A file may be gzip-compressed (``.json.gz``): ``save`` compresses when the name ends in
``.gz``, and ``load_tree`` reads either.
A tree is at most ``MAX_DEPTH`` guesses deep (brute force on a large variant is deeper: it is
refused before it is built), and a file at most ``readers.MAX_FILE_BYTES`` long, so that every
tree written reads back.

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
