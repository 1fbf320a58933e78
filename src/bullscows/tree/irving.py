"""Decision trees in Irving notation, the text of the literature (Knuth 1976, Irving 1979,
Koyama and Lai 1993) and of mastermind-strategy's ``mmstrat``.

Each situation is a count of codes and how it is played (``(GUESS: s, ...; ...)``: the
situation after each reply, bulls 0 first, most cows first); lines ``# rules: SPEC`` before the
tree name its variant. The notation is described in docs/how-to/trees.md; every count is
checked against the codes that really reach its situation.

>>> from bullscows.outcomes import build_tree
>>> from bullscows.strategies import get_strategy
>>> tree = build_tree(Rules.parse("p2c3n"), get_strategy("simple"))
>>> print(to_irving(tree, header=False), end="")
6 (01: 1, 2 (12), 0; 2 (02); 1)
>>> read_irving(to_irving(tree)).root == tree.root
True
>>> read_irving("6 (01: 1, 3, 0; 2 (02); 1)", Rules.parse("p2c3n"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bullscows.errors.BullsCowsError: tree line 1: the situation at 01 '0 1' has 2 codes, not 3
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bullscows.codes import Code
from bullscows.errors import BullsCowsError
from bullscows.feedback import Feedback
from bullscows.readers import quote
from bullscows.rules import Rules
from bullscows.tree.model import (
    MAX_DEPTH,
    DecisionTree,
    Node,
    TreeSummary,
    reply_key,
    trace_secrets,
    write_tree_file,
)
from bullscows.universe import IndexArray, distinct, universe

#: Lines of this form before the tree say what the notation does not (``# rules: mm``).
_HEADER = re.compile(r"#\s*(rules|strategy|objective)\s*:\s*(\S.*?)\s*$")
#: The line length ``to_irving`` wraps at.
WIDTH = 100


class VariantNotNamed(BullsCowsError):
    """A tree in Irving notation that does not say its variant, read without one."""


def is_irving(text: str) -> bool:
    """Whether ``text`` looks like Irving notation (a count or a header line first), not JSON.

    >>> is_irving("# rules: mm\\n1296 (1122: ...)"), is_irving('{"format": ...}')
    (True, False)
    """
    return text.lstrip()[:1].isdigit() or text.lstrip().startswith("#")


def replies_in_order(length: int) -> list[tuple[int, int]]:
    """The replies of a ``(GUESS: ...)`` list, in order (all bulls but one and a cow left out).

    >>> replies_in_order(2)
    [(0, 2), (0, 1), (0, 0), (1, 0), (2, 0)]
    """
    return [
        (b, c)
        for b in range(length + 1)
        for c in range(length - b, -1, -1)
        if not (b == length - 1 and c == 1)
    ]


# --- reading ------------------------------------------------------------------------------------


@dataclass
class _Scanner:
    """Characters of the text, with the line of each for errors."""

    text: str
    where: str
    at: int = 0

    def skip(self) -> None:
        while self.at < len(self.text) and self.text[self.at].isspace():
            self.at += 1

    def peek(self) -> str:
        self.skip()
        return self.text[self.at : self.at + 1]

    def fail(self, message: str) -> BullsCowsError:
        line = self.text.count("\n", 0, self.at) + 1
        return BullsCowsError(f"{self.where} line {line}: {message}")

    def expect(self, wanted: str, after: str) -> None:
        got = self.peek()
        if got != wanted:
            shown = quote(got) if got else "the end"
            raise self.fail(f"expected {wanted!r} {after}, found {shown}")
        self.at += 1

    def match(self, pattern: re.Pattern[str]) -> str | None:
        self.skip()
        found = pattern.match(self.text, self.at)
        if found is None:
            return None
        self.at = found.end()
        return found.group()


_COUNT = re.compile(r"[0-9]{1,9}")
_LABEL = re.compile(r"[A-Z][A-Za-z0-9]*")
_KNUTHS_ZERO = re.compile(r"0\s*,")


@dataclass
class _Reader:
    rules: Rules
    scan: _Scanner
    #: Labels met and not yet defined: the codes of the situation and where its node goes.
    pending: dict[str, tuple[IndexArray, int, str, Callable[[Node], None]]] = field(
        default_factory=dict
    )

    def situation(self, secrets: IndexArray, depth: int, path: str) -> Node | str | None:
        """A count and its play: a node, ``None`` for no code, or a label to define later."""
        count = self.scan.match(_COUNT)
        if count is None:
            raise self.scan.fail(f"expected the number of codes at {path}")
        if int(count) != len(secrets):
            raise self.scan.fail(
                f"the situation at {path} has {len(secrets):,} codes, not {int(count):,}"
            )
        if self.scan.peek() == "(":
            return self.play(secrets, depth, path)
        if self.scan.text[self.scan.at : self.scan.at + 1].isalpha():
            label = self.scan.match(_LABEL)
            if label is not None:
                return label
        if len(secrets) > 2:
            raise self.scan.fail(
                f"the situation at {path} has {len(secrets):,} codes, but no guess for it"
            )
        return self.in_order(secrets.tolist()) if len(secrets) else None

    def in_order(self, cell: list[int]) -> Node:
        """The play of one or two codes left: each guessed in the variant's order."""
        first, *rest = sorted(cell)
        node = Node(first)
        for other in rest:
            reply = int(universe(self.rules).score_row(first, np.array([other]))[0])
            node.branches[reply] = Node(other)
        return node

    def play(self, secrets: IndexArray, depth: int, path: str) -> Node:
        """``(GUESS)`` or ``(GUESS: ...)`` for the codes ``secrets``."""
        if depth > MAX_DEPTH:
            raise self.scan.fail(f"the tree is more than {MAX_DEPTH} guesses deep")
        self.scan.expect("(", f"at {path}")
        self.scan.skip()
        start = self.scan.at
        text = self.scan.text[start : start + self.rules.length]
        try:
            guess = Code(text, self.rules).index
        except BullsCowsError as error:
            raise self.scan.fail(f"at {path}: {error}") from None
        self.scan.at = start + self.rules.length
        u = universe(self.rules)
        node = Node(guess)
        replies = u.score_row(guess, secrets)
        while self.scan.peek() in ("*", "x"):  # marks for people: the counts tell the play
            self.scan.at += 1
        here = f"{'' if path == 'the root' else path + ' '}{u.text(guess)}"
        if self.scan.peek() == ")":
            self.scan.at += 1
            self.trivial(node, secrets, replies, here)
            return node
        self.scan.expect(":", f"after the guess {u.text(guess)}")
        length = self.rules.length
        order = replies_in_order(length)
        for i, (b, c) in enumerate(order):
            if (b, c) == (length - 1, 0) and self._knuths_zero():
                pass  # Knuth's explicit '0,' for all bulls but one and one cow, now read
            reply = Feedback(b, c).index(length)
            key = f"{b} {c}"
            cell = secrets[replies == reply]
            if b == length:
                self._all_bulls(cell, here)
            else:
                child = self.situation(cell, depth + 1, f"{here} {key!r}")
                self._place(node, reply, child, cell, depth + 1, f"{here} {key!r}")
            last = i == len(order) - 1
            self.scan.expect(")" if last else "," if c > 0 else ";", f"after reply {key!r}")
        return node

    def _knuths_zero(self) -> bool:
        """Read an explicit ``0,`` for the impossible reply, if it stands here."""
        self.scan.skip()
        found = _KNUTHS_ZERO.match(self.scan.text, self.scan.at)
        if found is None:
            return False
        self.scan.at = found.end()
        return True

    def _all_bulls(self, cell: IndexArray, here: str) -> None:
        count = self.scan.match(_COUNT)
        if count is None or int(count) != len(cell):
            raise self.scan.fail(
                f"all bulls after {here} happens for {len(cell)} code, not {count or 'nothing'}"
            )

    def _place(
        self, node: Node, reply: int, child: Node | str | None, cell: IndexArray, depth: int,
        path: str,
    ) -> None:  # fmt: skip
        if isinstance(child, str):
            if child in self.pending:
                raise self.scan.fail(f"label {child!r} is used twice")

            def put(made: Node) -> None:
                node.branches[reply] = made

            self.pending[child] = (cell, depth, path, put)
        elif child is not None:
            node.branches[reply] = child

    def trivial(
        self, node: Node, secrets: IndexArray, replies: npt.NDArray[Any], here: str
    ) -> None:
        """``(GUESS)``: the one code left after each reply is guessed next (two in order)."""
        win = Feedback.win(self.rules.length).index(self.rules.length)
        for reply in distinct(replies).tolist():
            if reply == win:
                continue
            cell = secrets[replies == reply].tolist()
            if len(cell) > 2:
                key = reply_key(reply, self.rules.length)
                raise self.scan.fail(
                    f"after {here}, reply {key!r} leaves {len(cell)} codes: the play of "
                    "that situation must be written out"
                )
            node.branches[reply] = self.in_order(cell)

    def definitions(self) -> None:
        """``LABEL = (GUESS: ...)`` for every label used, after the tree."""
        while self.scan.peek():
            label = self.scan.match(_LABEL)
            if label is None:
                raise self.scan.fail(
                    f"expected a label definition such as 'A = (...)', found "
                    f"{quote(self.scan.text[self.scan.at : self.scan.at + 20])}"
                )
            if label not in self.pending:
                raise self.scan.fail(f"label {label!r} is defined but not used (or defined twice)")
            self.scan.expect("=", f"after label {label!r}")
            cell, depth, path, put = self.pending.pop(label)
            put(self.play(cell, depth, f"{path} ({label})"))
        if self.pending:
            raise self.scan.fail(f"labels used but not defined: {', '.join(sorted(self.pending))}")


def read_irving(
    text: str, rules: Rules | None = None, where: str = "tree", strategy: str = "irving"
) -> DecisionTree:
    """The tree written in Irving notation in ``text``; the variant is the file's own
    (``# rules:``) or else ``rules``. Counts and replies are checked as it is read."""
    said = {}
    for line in text.splitlines():
        header = _HEADER.fullmatch(line.strip())
        if header:
            said[header[1]] = header[2]
    if "rules" in said:
        try:
            rules = Rules.parse(said["rules"])
        except BullsCowsError as error:
            raise BullsCowsError(f"{where}: unknown rules: {error}") from None
    if rules is None:
        raise VariantNotNamed(
            f"{where}: Irving notation does not name its variant; give it (--rules SPEC) or "
            "start the file with a line '# rules: SPEC'"
        )
    body = "\n".join("" if line.lstrip().startswith("#") else line for line in text.splitlines())
    reader = _Reader(rules, _Scanner(body, where))
    root = reader.situation(universe(rules).secrets, 1, "the root")
    if not isinstance(root, Node):
        raise reader.scan.fail("the root situation needs its guess, written in place")
    reader.definitions()
    return DecisionTree(
        rules, said.get("strategy", strategy), said.get("objective", "imported"), root
    )


# --- writing ------------------------------------------------------------------------------------


def to_irving(tree: DecisionTree, header: bool = True, width: int = WIDTH) -> str:
    """The tree in Irving notation, the root's large situations given as labels after it.

    A tree that does not break every secret is refused (the notation counts the codes of
    each situation).
    """
    _, problems = trace_secrets(tree)
    if problems:
        raise BullsCowsError(f"the tree is not valid: {problems[0]}")
    rules = tree.rules
    u = universe(rules)
    length = rules.length
    order = [Feedback(b, c).index(length) for b, c in replies_in_order(length)]
    win = order[-1]
    labels: list[tuple[str, str]] = []

    def situation(node: Node | None, secrets: IndexArray, level: int) -> str:
        count = str(len(secrets))
        if node is None:
            return count
        if node.is_leaf and len(secrets) == 1:
            return count
        return count + play(node, secrets, level)

    def play(node: Node, secrets: IndexArray, level: int) -> str:
        guess = u.text(node.guess)
        replies = u.score_row(node.guess, secrets)
        candidate = bool(np.isin(node.guess, secrets))
        if all(
            child.is_leaf and int(np.count_nonzero(replies == r)) == 1
            for r, child in node.branches.items()
        ):
            return f" ({guess}{'' if candidate else '*'})"
        parts = []
        for reply in order:
            if reply == win:
                parts.append(str(int(candidate)))
                continue
            cell = secrets[replies == reply]
            child = node.branches.get(reply)
            big = len(cell) >= length * (length + 3) // 2
            if level == 0 and big and child is not None and not child.is_leaf and len(order) <= 27:
                label = chr(ord("A") + len(labels))
                labels.append((label, play(child, cell, level + 1).strip()))
                parts.append(f"{len(cell)}{label}")
            else:
                parts.append(situation(child, cell, level + 1))
        text = ""
        for reply, part in zip(order, parts, strict=True):
            c = reply % (length + 1)
            end = ")" if reply == win else "," if c > 0 else ";"
            text += f" {part}{end}"
        return f" ({guess}:{text}"

    body = situation(tree.root, u.secrets, 0)
    lines = []
    if header:
        lines += [f"# rules: {rules.spec}", f"# strategy: {tree.strategy}"]
        lines += [f"# objective: {tree.objective}"]
    lines += _wrap(body, width)
    for label, text in labels:
        lines += ["", *_wrap(f"{label} = {text}", width)]
    return "\n".join(lines) + "\n"


#: The endings of the tree files ``save_tree`` writes, each of its own form (the command's
#: ``--out`` refuses any other).
TREE_ENDINGS = (".json", ".json.gz", ".txt")


def save_tree(tree: DecisionTree, path: str | Path, figures: TreeSummary | None = None) -> None:
    """Write ``tree`` to ``path``: in Irving notation when the name ends in ``.txt``, else as
    JSON (``DecisionTree.save``, gzip-compressed for ``.gz``, with ``figures`` as its summary
    when given)."""
    if str(path).endswith(".txt"):
        write_tree_file(path, to_irving(tree).encode("utf-8"))
    else:
        tree.save(path, figures=figures)


def _wrap(text: str, width: int) -> list[str]:
    """``text`` cut at spaces into lines of at most ``width`` (continued lines indented)."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = "    " + word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines
