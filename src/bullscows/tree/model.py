"""Decision trees as values: nodes, summaries, the tree of a whole game, its JSON form, and
the play of every secret down it (``trace_secrets``, by ``tree.walk``), which every check and
summary uses.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bullscows.atomic import write_file
from bullscows.errors import BullsCowsError, StrategyError
from bullscows.feedback import Feedback, counted
from bullscows.figures import figures
from bullscows.knowledge import Knowledge
from bullscows.readers import (
    MAX_FILE_BYTES,
    quote,
)
from bullscows.rules import Rules
from bullscows.tree.walk import walk_secrets
from bullscows.universe import IndexArray, universe

FORMAT = "bullscows-tree"
VERSION = 1
#: A tree with more nodes than this is not built (brute force on a large variant would be).
MAX_NODES = 2_000_000
#: A tree is at most this many guesses deep (its JSON nests twice as deep).
MAX_DEPTH = 300
_REPLY_KEY = re.compile(r"(\d+) (\d+)")


@dataclass(frozen=True, slots=True)
class Node:
    """A guess (universe index) and the subtree after each reply index other than all bulls.

    ``branches`` is not to be changed once the tree is built.
    """

    guess: int
    branches: dict[int, Node] = field(default_factory=dict)

    @property
    def is_leaf(self) -> bool:
        return not self.branches


@dataclass(frozen=True, slots=True)
class TreeSummary:
    """What a tree gives over every secret, with the field names of ``bench``'s JSON."""

    total: int
    average: float
    worst: int
    at_worst: int
    distribution: dict[int, int]
    secrets: int
    nodes: int

    @classmethod
    def from_counts(cls, counts: npt.NDArray[np.int64], nodes: int) -> TreeSummary:
        """The summary of ``counts[i]`` guesses for secret ``i`` (every count at least 1)."""
        f = figures(counts)
        return cls(f.total, f.average or 0.0, f.worst, f.at_worst, f.distribution, f.secrets, nodes)

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.total, "average": self.average, "worst": self.worst,
            "at_worst": self.at_worst,
            "distribution": {str(k): v for k, v in sorted(self.distribution.items())},
            "secrets": self.secrets, "nodes": self.nodes,
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: object) -> TreeSummary:
        """Read a stored summary; a malformed one is a ``BullsCowsError``.

        >>> TreeSummary.from_json({"total": 3})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        bullscows.errors.BullsCowsError: tree summary '{"total": 3}': expected total, average, ...
        """
        ints = ("total", "worst", "at_worst", "secrets", "nodes")
        distribution = data.get("distribution") if isinstance(data, dict) else None
        valid = (
            isinstance(data, dict)
            and isinstance(distribution, dict)
            and all(type(data.get(k)) is int for k in ints)
            and type(data.get("average")) in (int, float)
            and all(isinstance(k, str) and k.isascii() and k.isdigit() and len(k) <= 6
                    and type(v) is int for k, v in distribution.items())
        )  # fmt: skip
        if not valid:
            raise BullsCowsError(
                f"tree summary {quote(json.dumps(data), 200)}: expected total, average, worst, "
                "at_worst, distribution, secrets and nodes"
            )
        assert isinstance(data, dict) and isinstance(distribution, dict)  # for the type checker
        return cls(
            data["total"], float(data["average"]), data["worst"], data["at_worst"],
            {int(k): v for k, v in distribution.items()}, data["secrets"], data["nodes"],
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class DecisionTree:
    """A strategy's whole play on one variant.

    ``stated`` is the summary the tree came with (from its file, or from the build); it is what
    ``check_tree`` compares with what the tree really gives, and is left out of equality.
    """

    rules: Rules
    strategy: str
    objective: str
    root: Node
    stated: TreeSummary | None = field(default=None, compare=False)
    #: Optional: what binds a cached tree to the search that made it (see ``tree.store.cache_key``).
    key: str | None = field(default=None, compare=False)

    def nodes(self) -> Iterator[tuple[int, Node]]:
        """Every node with its depth (the root is at depth 1), depth first."""
        stack = [(1, self.root)]
        while stack:
            depth, node = stack.pop()
            yield depth, node
            stack.extend((depth + 1, child) for _, child in sorted(node.branches.items())[::-1])

    def summary(self) -> TreeSummary:
        """Total, average and worst number of guesses over every secret, and the node count.

        Worked out by playing every secret down the tree; a tree that does not break every
        secret has no summary (``check_tree`` says why).
        """
        counts, problems = trace_secrets(self)
        if problems:
            raise BullsCowsError(f"the tree is not valid: {problems[0]}")
        return TreeSummary.from_counts(counts, sum(1 for _ in self.nodes()))

    def to_dict(self, figures: TreeSummary | None = None) -> dict[str, Any]:
        """The tree as JSON values (see the module docstring for the schema), its summary
        ``figures`` when the caller has them (its build or its search counted them), else
        worked out by playing every secret down the tree (``summary``)."""
        keyed = {} if self.key is None else {"key": self.key}
        summary = self.summary() if figures is None else figures
        return {
            "format": FORMAT, "version": VERSION, "rules": self.rules.spec,
            "strategy": self.strategy, "objective": self.objective,
            "summary": summary.to_json(), **keyed, "tree": self.nodes_dict(),
        }  # fmt: skip

    def nodes_dict(self) -> dict[str, Any]:
        """The nodes alone as JSON values (the ``tree`` of ``to_dict``), without working out
        the summary.

        >>> from bullscows.rules import Rules
        >>> DecisionTree(Rules.parse("p2c3n"), "any", "strategy", Node(0)).nodes_dict()
        {'guess': '01'}
        """
        u = universe(self.rules)
        n = self.rules.length

        def encode(node: Node) -> dict[str, Any]:
            out: dict[str, Any] = {"guess": u.text(node.guess)}
            if node.branches:
                out["replies"] = {}
            return out

        top = encode(self.root)
        stack = [(self.root, top)]
        while stack:
            node, out = stack.pop()
            for reply, child in sorted(node.branches.items()):
                b, c = divmod(reply, n + 1)
                out["replies"][f"{b} {c}"] = encoded = encode(child)
                stack.append((child, encoded))
        return top

    def to_json(
        self,
        indent: int | None = None,
        *,
        sort_keys: bool = False,
        figures: TreeSummary | None = None,
    ) -> str:
        """The tree as JSON text; compact unless ``indent`` is given (``figures`` as for
        ``to_dict``).

        A tree deeper than ``MAX_DEPTH`` guesses, or longer than a file may be, is refused:
        it could not be read back.
        """
        depth = max(d for d, _ in self.nodes())
        if depth > MAX_DEPTH:
            raise BullsCowsError(
                f"the tree is {depth:,} guesses deep: a tree file holds at most {MAX_DEPTH}"
            )
        data = self.to_dict(figures)
        separators = (",", ":") if indent is None else None
        text = json.dumps(
            data, indent=indent, separators=separators, sort_keys=sort_keys, allow_nan=False
        )
        if len(text) > MAX_FILE_BYTES:
            raise BullsCowsError(
                f"the tree takes {len(text):,} bytes as JSON: a tree file holds at most "
                f"{MAX_FILE_BYTES:,}"
            )
        return text

    def save(
        self, path: str | Path, *, sort_keys: bool = False, figures: TreeSummary | None = None
    ) -> None:
        """Write the tree as compact JSON to ``path``, gzip-compressed when it ends in ``.gz``
        (``tree.irving.save_tree`` writes Irving notation too); ``figures`` as for ``to_dict``.

        The gzip header carries no time stamp or name, so the same tree makes the same bytes.
        """
        write_tree_file(path, self.file_bytes(path, sort_keys=sort_keys, figures=figures))

    def file_bytes(
        self, path: str | Path, *, sort_keys: bool = False, figures: TreeSummary | None = None
    ) -> bytes:
        """The bytes ``save`` writes to ``path``: JSON, gzip-compressed when it ends in ``.gz``."""
        text = (self.to_json(sort_keys=sort_keys, figures=figures) + "\n").encode("utf-8")
        return gzip.compress(text, mtime=0) if str(path).endswith(".gz") else text


def write_tree_file(path: str | Path, data: bytes) -> None:
    """Write a tree file's bytes whole (``atomic.write_atomic``: a failure leaves the file that
    was there as it was); a failure is a ``BullsCowsError`` naming the file."""
    write_file(path, data, "the tree")


def follow(root: Node, knowledge: Knowledge, source: str) -> int:
    """The guess ``root``'s tree makes after the history's guesses and replies.

    ``source`` names the tree in errors (``"the tree mm.json"``): a history that leaves the
    tree, with a guess the tree does not make or a reply it has no branch for, is refused.
    """
    node, length = root, knowledge.rules.length
    for number, step in enumerate(knowledge.history, start=1):
        if step.guess.index != node.guess:
            raise StrategyError(
                f"guess #{number} was {step.guess}, but {source} plays "
                f"{knowledge.code(node.guess)} there; it can only continue its own games"
            )
        if step.feedback.is_win(length):
            raise StrategyError(f"guess #{number} {step.guess} won: the game is over")
        following = node.branches.get(step.feedback.index(length))
        if following is None:
            raise StrategyError(
                f"{source} has no branch for reply {step.feedback} to guess #{number} {step.guess}"
            )
        node = following
    return node.guess


# --- reading ------------------------------------------------------------------------------------


#: ``check_tree`` lists at most this many problems of each kind.
SHOWN = 10


def listed(items: list[str]) -> str:
    more = f" and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
    return ", ".join(items[:SHOWN]) + more


#: The way to a node: the way to its parent, the parent's guess and the reply (``None``: the
#: root).
_Path = tuple["_Path", int, int] | None


def trace_secrets(
    tree: DecisionTree, consistent_only: bool = False
) -> tuple[npt.NDArray[np.int64], list[str]]:
    """Guesses per secret (0 for a secret that leaves the tree) and the problems met (with
    ``consistent_only``, guesses that cannot be the secret too)."""
    rules = tree.rules
    u = universe(rules)
    lost: list[str] = []
    outside: list[str] = []
    visited: list[tuple[Node, _Path, set[int]]] = []  # each node reached, the replies followed

    def where(path: _Path, guess: int) -> str:
        """The guesses and replies on the way to a node, and its guess, in words."""
        words = [u.text(guess)]
        while path is not None:
            path, parent, reply = path
            words += [repr(reply_key(reply, rules.length)), u.text(parent)]
        return " ".join(words[::-1])

    def visit(
        position: tuple[Node, _Path], codes: IndexArray, depth: int
    ) -> tuple[int, Callable[[int, IndexArray, IndexArray], tuple[Node, _Path] | None]]:
        node, path = position
        followed: set[int] = set()
        visited.append((node, path, followed))
        if consistent_only and not (codes == node.guess).any():
            outside.append(where(path, node.guess))

        def follow(reply: int, part: IndexArray, wanted: IndexArray) -> tuple[Node, _Path] | None:
            child = node.branches.get(reply)
            if child is None:
                lost.append(
                    f"after {where(path, node.guess)}, reply {reply_key(reply, rules.length)!r} "
                    f"(secrets {', '.join(u.text(s) for s in part[:3])}"
                    f"{', ...' if len(part) > 3 else ''}) has no branch"
                )
                return None
            followed.add(reply)
            return child, (path, node.guess, reply)

        return node.guess, follow

    win = Feedback.win(rules.length).index(rules.length)
    root: tuple[Node, _Path] = (tree.root, None)
    counts = walk_secrets(root, u.secrets, u.score_row, win, visit)
    unreachable = [
        f"after {where(path, node.guess)}, reply {reply_key(reply, rules.length)!r}"
        for node, path, followed in visited
        for reply in sorted(node.branches)
        if reply not in followed
    ]
    problems = []
    if lost:
        leave = "leaves" if len(lost) == 1 else "leave"
        problems.append(f"{counted(len(lost), 'reply')} {leave} the tree: " + listed(lost))
    if unreachable:
        unreached = counted(len(unreachable), "branch")
        problems.append(f"{unreached} no secret reaches: " + listed(unreachable))
    if outside:
        impossible = counted(len(outside), "guess")
        problems.append(f"{impossible} cannot be the secret: " + listed(outside))
    return counts, problems


def reply_key(reply: int, length: int) -> str:
    b, c = divmod(reply, length + 1)
    return f"{b} {c}"


# --- text -------------------------------------------------------------------------------------
