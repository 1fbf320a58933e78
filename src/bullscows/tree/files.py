"""Reading tree files: strict JSON (or gzip), every field checked against the variant."""

from __future__ import annotations

import os
import re
from pathlib import Path

from bullscows.codes import Code
from bullscows.errors import BullsCowsError
from bullscows.feedback import Feedback, read_count
from bullscows.readers import (
    load_json,
    quote,
    quote_path,
    quote_value,
    read_named,
    read_text,
    unpack,
)
from bullscows.rules import Rules
from bullscows.tree.irving import VariantNotNamed, is_irving, read_irving
from bullscows.tree.kunigami import bare_tree, is_kunigami
from bullscows.tree.model import (
    _REPLY_KEY,
    FORMAT,
    MAX_DEPTH,
    VERSION,
    DecisionTree,
    Node,
    TreeSummary,
)
from bullscows.universe import universe

#: The fields a tree file must have, in the order it writes them (``summary`` and ``key`` are
#: optional).
FIELDS = ("format", "version", "rules", "strategy", "objective", "tree")
#: What a valid tree file looks like, for the errors of a file that is not one.
SHAPE = (
    f'a tree file is a JSON object {{"format": "{FORMAT}", "version": {VERSION}, "rules": "mm", '
    '"strategy": "minimax", "objective": "strategy", "tree": {"guess": "1122", "replies": '
    '{"0 0": {"guess": "3345", ...}, ...}}}, or Irving notation, or kunigami\'s list'
)


def load_tree(
    source: str | Path | bytes, rules: Rules | None = None, name: str | None = None
) -> DecisionTree:
    """A tree from a file (a ``Path``), a file's bytes, or text: a tree's text or a path;
    checked for form, not for play.

    Text that holds a line break is a tree's text. Other text names a file where one exists
    by that name (``{run1}.json`` too); else it is a tree's text if it takes a tree's form
    (``is_tree_text``: JSON's ``{`` or ``[``, kunigami's ``const NAME = [[...``, or Irving
    notation's count and its play), and is refused if it does not. A file or bytes may be
    gzip-compressed (``.json.gz``): they are recognised by their first bytes. Irving notation
    (``tree.irving``) is recognised by its first character (a digit or ``#``), kunigami's
    JavaScript list (``tree.kunigami``) by its ``[[`` (after a declaration or not), and a
    bare tree (the ``"tree"`` object alone, ``{"guess": ..., "replies": ...}``) by its keys;
    ``rules`` is their variant when the file does not say. ``name``: the file's name, for
    the errors of bytes or text read elsewhere (an upload).

    >>> load_tree('{"format": "bullscows-tree", "version": 2}')
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: tree: version 2 is not supported (this program reads version 1)
    >>> load_tree('{"rules": "mm"}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: tree lacks 'format', 'version', 'strategy', 'objective' and ...
    >>> from bullscows.outcomes import build_tree
    >>> from bullscows.strategies import get_strategy
    >>> tree = build_tree(Rules.parse("p2c3n"), get_strategy("minimax"))
    >>> import gzip
    >>> load_tree(gzip.compress(tree.to_json().encode())) == tree
    True
    >>> load_tree("trees/none.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: cannot read tree file 'trees/none.json': No such file or ...
    """
    text, where = _tree_text(source, name)
    text = text.removeprefix("\ufeff")  # the byte order mark of Windows editors
    if is_irving(text):
        return read_irving(text, rules, where)
    if is_kunigami(text):
        if rules is None:
            raise VariantNotNamed(
                f"{where}: kunigami's tree (a JavaScript list) does not name its variant; give "
                "it (--rules SPEC)"
            )
        root = _read_nodes(bare_tree(text, rules, where), rules, where)
        return DecisionTree(rules, "imported", "imported", root)
    try:
        data = load_json(text, where, 2 * MAX_DEPTH + 2)
    except BullsCowsError:
        if text.lstrip()[:1] in ("{", "["):  # JSON that is broken: say where
            raise
        start = quote(text.lstrip()[:20]) if text.strip() else "nothing"
        raise BullsCowsError(f"{where} starts with {start}, not a tree; {SHAPE}") from None
    return _from_dict(data, where, rules)


#: The text forms of a tree, for the error of text that is neither a file nor a tree.
TEXT_FORMS = "JSON, Irving notation or kunigami's list"
#: A tree in Irving notation on one line: a count, then its play.
_IRVING_LINE = re.compile(r"\s*[0-9]+\s*\(")


def is_tree_text(text: str) -> bool:
    """Whether ``text`` (given where a path could be) takes the form of a tree's text.

    >>> is_tree_text("const decisionTree = [[0, 1], {}];"), is_tree_text("6 (01: 1, 2 (12))")
    (True, True)
    >>> is_tree_text("2024/mm.json"), is_tree_text('{"guess": "01"}')
    (False, True)
    """
    start = text.lstrip()[:1]
    return (
        "\n" in text.strip()
        or start in ("{", "[", "#")
        or is_kunigami(text)
        or _IRVING_LINE.match(text) is not None
    )


def _tree_text(source: str | Path | bytes, name: str | None) -> tuple[str, str]:
    """The text of a tree given to ``load_tree``, and how its errors name it."""
    if isinstance(source, bytes):
        where = "tree" if name is None else f"tree file {quote_path(name)}"
        return read_text(unpack(source, where), where), where
    if isinstance(source, Path):
        return read_named(source, "tree file")
    text = source.removeprefix("\ufeff")
    if "\n" in text.strip():
        return text, "tree"  # never a file's name
    if os.path.lexists(text):  # '{run1}.json' too: a file before a text of JSON
        return read_named(text, "tree file")
    if is_tree_text(text):
        return text, "tree"
    try:
        return read_named(text, "tree file")  # no such file: its error says so
    except BullsCowsError as error:
        raise BullsCowsError(f"{error}; nor is the text a tree ({TEXT_FORMS})") from None


def _from_dict(data: object, where: str, rules: Rules | None = None) -> DecisionTree:
    if not isinstance(data, dict):
        raise BullsCowsError(
            f"{where}: expected a JSON object, got {quote_value(data)}; not a decision tree"
        )
    if "format" not in data and "guess" in data:  # a bare tree: its root node alone
        if rules is None:
            raise VariantNotNamed(
                f"{where}: a bare tree (a root node without the file's header) does not name "
                "its variant; give it (--rules SPEC)"
            )
        return DecisionTree(rules, "imported", "imported", _read_nodes(data, rules, where))
    if "format" in data and data["format"] != FORMAT:
        raise BullsCowsError(
            f"{where}: format {quote_value(data['format'])} is not {FORMAT!r}; not a decision tree"
        )
    if "format" in data and "version" in data and data["version"] != VERSION:
        raise BullsCowsError(
            f"{where}: version {quote_value(data['version'])} is not supported "
            f"(this program reads version {VERSION})"
        )
    missing = [quote(key) for key in FIELDS if key not in data]
    if missing:
        lacks = ", ".join(missing[:-1]) + " and " + missing[-1] if len(missing) > 1 else missing[0]
        raise BullsCowsError(f"{where} lacks {lacks}; {SHAPE}")
    spec = data.get("rules")
    if not isinstance(spec, str):
        raise BullsCowsError(
            f"{where}: 'rules' must be a rules spec such as 'mm', got {quote_value(spec)}"
        )
    try:
        rules = Rules.parse(spec)
    except BullsCowsError as error:
        raise BullsCowsError(f"{where}: {error}") from None
    strategy, objective = data.get("strategy"), data.get("objective")
    for key, value in (("strategy", strategy), ("objective", objective)):
        if not isinstance(value, str):
            raise BullsCowsError(f"{where}: {key!r} must be text, got {quote_value(value)}")
    assert isinstance(strategy, str) and isinstance(objective, str)
    try:
        stated = None if data.get("summary") is None else TreeSummary.from_json(data["summary"])
    except BullsCowsError as error:
        raise BullsCowsError(f"{where}: {error}") from None
    root = _read_nodes(data.get("tree"), rules, where)
    cache_key = data.get("key")
    if cache_key is not None and not isinstance(cache_key, str):
        raise BullsCowsError(f"{where}: 'key' must be text, got {quote_value(cache_key)}")
    return DecisionTree(rules, strategy, objective, root, stated, cache_key)


def _read_nodes(top: object, rules: Rules, where: str) -> Node:
    """The nodes under ``top``, read without recursion (a tree may be thousands deep)."""
    root = _read_node(top, rules, where, "the root")
    win = Feedback.win(rules.length).index(rules.length)
    stack = [(top, root, "the root")]
    while stack:
        raw, node, path = stack.pop()
        assert isinstance(raw, dict)
        replies = raw.get("replies")
        replies = {} if replies is None else replies
        if not isinstance(replies, dict):
            raise BullsCowsError(f"{where}: 'replies' at {path} must be an object")
        for key, child_raw in replies.items():
            reply = _read_reply(key, rules, where, path)
            guess = universe(rules).text(node.guess)
            child_path = f"{'' if path == 'the root' else path + ' '}{guess} {quote(key)}"
            child = _read_node(child_raw, rules, where, child_path)
            if reply == win:
                _check_win_leaf(child_raw, child, node, key, where, path)
                continue
            node.branches[reply] = child
            stack.append((child_raw, child, child_path))
    return root


def _check_win_leaf(raw: object, child: Node, node: Node, key: str, where: str, path: str) -> None:
    """An all-bulls branch (as kunigami's trees write them) is read, and dropped, when it is a
    leaf that repeats its node's guess: the game is over there."""
    replies = raw.get("replies") if isinstance(raw, dict) else None
    if child.guess != node.guess or replies:
        raise BullsCowsError(
            f"{where}: reply key {quote(key)} at {path}: all bulls ends the game; its branch "
            "may only be a leaf that repeats the node's guess"
        )


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
        raise BullsCowsError(f"{where}: at {path} (rules {quote(rules.spec)}): {error}") from None


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
    if problem is not None:
        raise BullsCowsError(f"{where}: reply key {quote(key)} at {path}: {problem}")
    return feedback.index(rules.length)
