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
>>> from bullscows.strategies import get_strategy
>>> tree = build_tree(Rules.parse("p2c3n"), get_strategy("minimax"))
>>> tree.summary().total, tree.summary().nodes
(13, 6)
>>> load_tree(tree.to_json()) == tree
True
>>> check_tree(tree).problems
[]
"""

from __future__ import annotations

import gzip
import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bullscows.codes import Code
from bullscows.errors import BullsCowsError, StrategyError
from bullscows.feedback import Feedback, read_count
from bullscows.knowledge import Knowledge
from bullscows.readers import (
    MAX_FILE_BYTES,
    load_json,
    quote,
    quote_path,
    quote_value,
    read_file,
    read_text,
    unpack,
)
from bullscows.rules import Rules
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
        values, times = np.unique(counts, return_counts=True)
        spread = {int(v): int(t) for v, t in zip(values, times, strict=True)}
        total = int(counts.sum())
        worst = max(spread, default=0)
        average = total / len(counts) if len(counts) else 0.0
        return cls(total, average, worst, spread.get(worst, 0), spread, len(counts), nodes)

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
        spread = data.get("distribution") if isinstance(data, dict) else None
        valid = (
            isinstance(data, dict)
            and isinstance(spread, dict)
            and all(type(data.get(k)) is int for k in ints)
            and type(data.get("average")) in (int, float)
            and all(isinstance(k, str) and k.isascii() and k.isdigit() and len(k) <= 6
                    and type(v) is int for k, v in spread.items())
        )  # fmt: skip
        if not valid:
            raise BullsCowsError(
                f"tree summary {quote(json.dumps(data), 200)}: expected total, average, worst, "
                "at_worst, distribution, secrets and nodes"
            )
        assert isinstance(data, dict) and isinstance(spread, dict)  # for the type checker
        return cls(
            data["total"], float(data["average"]), data["worst"], data["at_worst"],
            {int(k): v for k, v in spread.items()}, data["secrets"], data["nodes"],
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
    #: Optional: what binds a cached tree to the search that made it (see ``optimal_strategy``).
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
        counts, problems = _trace(self)
        if problems:
            raise BullsCowsError(f"the tree is not valid: {problems[0]}")
        return TreeSummary.from_counts(counts, sum(1 for _ in self.nodes()))

    def to_dict(self) -> dict[str, Any]:
        """The tree as JSON values (see the module docstring for the schema)."""
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
        keyed = {} if self.key is None else {"key": self.key}
        return {
            "format": FORMAT, "version": VERSION, "rules": self.rules.spec,
            "strategy": self.strategy, "objective": self.objective,
            "summary": self.summary().to_json(), **keyed, "tree": top,
        }  # fmt: skip

    def to_json(self, indent: int | None = None, *, sort_keys: bool = False) -> str:
        """The tree as JSON text; compact unless ``indent`` is given.

        A tree deeper than ``MAX_DEPTH`` guesses, or longer than a file may be, is refused:
        it could not be read back.
        """
        depth = max(d for d, _ in self.nodes())
        if depth > MAX_DEPTH:
            raise BullsCowsError(
                f"the tree is {depth:,} guesses deep: a tree file holds at most {MAX_DEPTH}"
            )
        data = self.to_dict()
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

    def save(self, path: str | Path, *, sort_keys: bool = False) -> None:
        """Write the tree as compact JSON to ``path``, gzip-compressed when it ends in ``.gz``.

        The gzip header carries no time stamp or name, so the same tree makes the same bytes.
        """
        text = (self.to_json(sort_keys=sort_keys) + "\n").encode("utf-8")
        data = gzip.compress(text, mtime=0) if str(path).endswith(".gz") else text
        try:
            Path(path).write_bytes(data)
        except OSError as error:
            raise BullsCowsError(
                f"cannot write the tree to {quote_path(path)}: {error.strerror or error}"
            ) from None


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


def load_tree(source: str | Path | bytes) -> DecisionTree:
    """A tree from a file (a path), JSON text, or a file's bytes; checked for form, not for play.

    Text that starts with ``{`` or ``[`` is read as JSON, any other text as a path. A file or
    bytes may be gzip-compressed (``.json.gz``): they are recognised by their first bytes.

    >>> load_tree('{"format": "bullscows-tree", "version": 2}')
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: tree: version 2 is not supported (this program reads version 1)
    >>> from bullscows.outcomes import build_tree
    >>> from bullscows.strategies import get_strategy
    >>> tree = build_tree(Rules.parse("p2c3n"), get_strategy("minimax"))
    >>> load_tree(gzip.compress(tree.to_json().encode())) == tree
    True
    """
    if isinstance(source, bytes):
        where = "tree"
        text = read_text(unpack(source, where), where)
    elif isinstance(source, Path) or source.lstrip()[:1] not in ("{", "["):
        where = f"tree file {quote_path(source)}"
        text = read_text(read_file(source, where), where)
    else:
        where, text = "tree", source
    return _from_dict(load_json(text, where, 2 * MAX_DEPTH + 2), where)


def _from_dict(data: object, where: str) -> DecisionTree:
    if not isinstance(data, dict):
        raise BullsCowsError(f"{where}: expected a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise BullsCowsError(
            f"{where}: format {quote_value(data.get('format'))} is not {FORMAT!r}; "
            "not a decision tree"
        )
    if data.get("version") != VERSION:
        raise BullsCowsError(
            f"{where}: version {quote_value(data.get('version'))} is not supported "
            f"(this program reads version {VERSION})"
        )
    spec = data.get("rules")
    if not isinstance(spec, str):
        raise BullsCowsError(
            f"{where}: 'rules' must be a rules spec such as 'mm', got {quote_value(spec)}"
        )
    try:
        rules = Rules.parse(spec)
    except BullsCowsError as error:
        raise BullsCowsError(f"{where}: unknown rules: {error}") from None
    strategy, objective = data.get("strategy"), data.get("objective")
    for key, value in (("strategy", strategy), ("objective", objective)):
        if not isinstance(value, str):
            raise BullsCowsError(f"{where}: {key!r} must be text, got {quote_value(value)}")
    assert isinstance(strategy, str) and isinstance(objective, str)
    stated = None if data.get("summary") is None else TreeSummary.from_json(data["summary"])
    root = _read_nodes(data.get("tree"), rules, where)
    cache_key = data.get("key")
    if cache_key is not None and not isinstance(cache_key, str):
        raise BullsCowsError(f"{where}: 'key' must be text, got {quote_value(cache_key)}")
    return DecisionTree(rules, strategy, objective, root, stated, cache_key)


def _read_nodes(top: object, rules: Rules, where: str) -> Node:
    """The nodes under ``top``, read without recursion (a tree may be thousands deep)."""
    root = _read_node(top, rules, where, "the root")
    stack = [(top, root, "the root")]
    while stack:
        raw, node, path = stack.pop()
        assert isinstance(raw, dict)
        replies = raw.get("replies") or {}
        if not isinstance(replies, dict):
            raise BullsCowsError(f"{where}: 'replies' at {path} must be an object")
        for key, child_raw in replies.items():
            reply = _read_reply(key, rules, where, path)
            guess = universe(rules).text(node.guess)
            child_path = f"{'' if path == 'the root' else path + ' '}{guess} {quote(key)}"
            child = _read_node(child_raw, rules, where, child_path)
            node.branches[reply] = child
            stack.append((child_raw, child, child_path))
    return root


def _read_node(raw: object, rules: Rules, where: str, path: str) -> Node:
    if not isinstance(raw, dict) or not isinstance(raw.get("guess"), str):
        raise BullsCowsError(f"{where}: the node at {path} needs a 'guess' (a code as text)")
    unknown = set(raw) - {"guess", "replies"}
    if unknown:
        raise BullsCowsError(
            f"{where}: the node at {path} has unknown keys "
            f"[{', '.join(quote(key) for key in sorted(unknown)[:5])}]"
        )
    try:
        return Node(Code(raw["guess"], rules).index)
    except BullsCowsError as error:
        raise BullsCowsError(f"{where}: at {path}: {error}") from None


def _read_reply(key: str, rules: Rules, where: str, path: str) -> int:
    match = _REPLY_KEY.fullmatch(key)
    if match is None:
        raise BullsCowsError(
            f"{where}: reply key {quote(key)} at {path} cannot be read; write bulls, a space, "
            "then cows, e.g. '1 2'"
        )
    try:
        feedback = Feedback(read_count(match[1], key), read_count(match[2], key))
    except BullsCowsError as error:
        raise BullsCowsError(f"{where}: at {path}: {error}") from None
    problem = feedback.problem(rules)
    if problem is None and feedback.is_win(rules.length):
        problem = "all bulls ends the game and has no branch"
    if problem is not None:
        raise BullsCowsError(f"{where}: reply key {quote(key)} at {path}: {problem}")
    return feedback.index(rules.length)


# --- checking -----------------------------------------------------------------------------------


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


#: ``check_tree`` lists at most this many problems of each kind.
SHOWN = 10


def check_tree(tree: DecisionTree, consistent_only: bool = False) -> CheckReport:
    """Play every secret of the variant down the tree, scoring each guess afresh.

    Problems: a secret that leaves the tree (its true reply has no branch), a branch no secret
    reaches, a code that is a leaf twice, a stated summary that differs from the real one, and
    with ``consistent_only`` a guess that no secret reaching it could be.
    """
    counts, problems = _trace(tree, consistent_only)
    leaves: dict[int, int] = {}
    nodes = 0
    for _, node in tree.nodes():
        nodes += 1
        if node.is_leaf:
            leaves[node.guess] = leaves.get(node.guess, 0) + 1
    u = universe(tree.rules)
    twice = [f"{u.text(g)} ({n} leaves)" for g, n in leaves.items() if n > 1]
    if twice:
        problems.append("codes that are a leaf more than once: " + _listed(twice))
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
    spread = " ".join(f"{k}:{v}" for k, v in sorted(s.distribution.items()))
    return (
        f"(total {s.total}, worst {s.worst}, at worst {s.at_worst}, secrets {s.secrets}, "
        f"nodes {s.nodes}, distribution {spread}, average {s.average:.6g})"
    )


def _listed(items: list[str]) -> str:
    more = f" and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
    return ", ".join(items[:SHOWN]) + more


def _trace(
    tree: DecisionTree, consistent_only: bool = False
) -> tuple[npt.NDArray[np.int64], list[str]]:
    """Guesses per secret (0 for a secret that leaves the tree) and the problems met (with
    ``consistent_only``, guesses that cannot be the secret too)."""
    rules = tree.rules
    u = universe(rules)
    win = Feedback.win(rules.length).index(rules.length)
    counts = np.zeros(len(u), dtype=np.int64)
    lost: list[str] = []
    unreachable: list[str] = []
    outside: list[str] = []
    stack: list[tuple[Node, IndexArray, int, str]] = [(tree.root, u.secrets, 1, "")]
    while stack:
        node, secrets, depth, path = stack.pop()
        here = f"{path} {u.text(node.guess)}".strip()
        if consistent_only and not np.isin(node.guess, secrets):
            outside.append(here)
        replies = u.score_row(node.guess, secrets)
        counts[secrets[replies == win]] = depth
        given = set(np.unique(replies).tolist()) - {win}
        for reply in sorted(given - set(node.branches)):
            who = secrets[replies == reply]
            key = _key(reply, rules.length)
            lost.append(
                f"after {here}, reply {key!r} (secrets {', '.join(u.text(s) for s in who[:3])}"
                f"{', ...' if len(who) > 3 else ''}) has no branch"
            )
        for reply, child in sorted(node.branches.items()):
            if reply not in given:
                unreachable.append(f"after {here}, reply {_key(reply, rules.length)!r}")
                continue
            key = _key(reply, rules.length)
            stack.append((child, secrets[replies == reply], depth + 1, f"{here} {key!r}"))
    problems = []
    if lost:
        problems.append(f"{len(lost)} replies leave the tree: " + _listed(lost))
    if unreachable:
        problems.append(f"{len(unreachable)} branches no secret reaches: " + _listed(unreachable))
    if outside:
        problems.append(f"{len(outside)} guesses cannot be the secret: " + _listed(outside))
    return counts[u.secrets], problems


def _key(reply: int, length: int) -> str:
    b, c = divmod(reply, length + 1)
    return f"{b} {c}"


# --- text -------------------------------------------------------------------------------------


def render_text(tree: DecisionTree, style: str = "pair", max_depth: int | None = None) -> list[str]:
    """The tree as indented lines: a guess, then each reply (in ``style``) and what follows it.

    A leaf reads ``reply -> code``; subtrees below ``max_depth`` guesses are cut (``...``).

    >>> from bullscows.outcomes import build_tree
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
