"""Decision trees as kunigami published his (``tree.json`` of his Bulls & Cows solver): a
JavaScript constant, not JSON.

``const decisionTree = NODE;`` where a node is ``[GUESS, {REPLY: NODE, ...}]``, a guess is a
list of symbol numbers (``[3, 2, 1, 0]`` for ``3210``) and a reply a key ``'(BULLS, COWS)'``
in single quotes. Every node has an explicit all-bulls leaf, ``'(4, 0)'``, that repeats its
guess. The file does not name its variant: the reader is told (``bc`` for his tree).

>>> text = "const t = [[0, 1], {'(0, 2)': [[1, 0], {'(2, 0)': [[1, 0], {}]}]}];"
>>> is_kunigami(text)
True
>>> bare_tree(text, Rules.parse("p2c2n"))["replies"]["0 2"]  # doctest: +NORMALIZE_WHITESPACE
{'guess': '10', 'replies': {'2 0': {'guess': '10', 'replies': {}}}}
"""

from __future__ import annotations

import re

from bullscows.errors import BullsCowsError
from bullscows.readers import Pairs, load_json, quote, quote_value
from bullscows.rules import Rules
from bullscows.tree.model import MAX_DEPTH

#: The declaration before the tree (optional), and the tree's opening ``[[``.
_START = re.compile(r"\s*(?:(?:const|let|var)\s+[A-Za-z_$][\w$]*\s*=\s*)?\[\s*\[")
_DECLARATION = re.compile(r"\s*(?:(?:const|let|var)\s+[A-Za-z_$][\w$]*\s*=)?")
#: A reply key as he writes it: ``(1, 2)``.
_KEY = re.compile(r"\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)")


def is_kunigami(text: str) -> bool:
    """Whether ``text`` looks like kunigami's tree: a list whose first item is a list, after a
    declaration or not.

    >>> is_kunigami("const decisionTree = [[3, 2, 1, 0], {}];"), is_kunigami('{"guess": "0"}')
    (True, False)
    """
    return _START.match(text) is not None


def bare_tree(text: str, rules: Rules, where: str = "tree") -> dict[str, object]:
    """kunigami's tree ``text`` for ``rules`` as a bare tree (nodes ``{"guess": TEXT,
    "replies": {"B C": NODE}}``), for ``tree.files`` to read and check as any other."""
    found = _DECLARATION.match(text)
    body = text[found.end() if found else 0 :].strip().removesuffix(";").rstrip()
    if "'" in body:
        body = body.replace('"', '\\"').replace("'", '"')  # his keys are in single quotes
    return _as_bare(load_json(body, where, 2 * MAX_DEPTH + 2, pairs=True), rules, where)


def _as_bare(data: object, rules: Rules, where: str) -> dict[str, object]:
    """``[GUESS, {KEY: NODE}]`` nodes as bare-tree nodes ``{"guess": TEXT, "replies": ...}``
    (without recursion: a tree may be deep)."""
    root: dict[str, object] = {}
    stack = [(data, root, "the root")]
    while stack:
        raw, node, path = stack.pop()
        if not (isinstance(raw, list) and len(raw) == 2 and isinstance(raw[1], Pairs)):
            raise BullsCowsError(
                f"{where}: the node at {path} is {quote_value(raw)}: kunigami's nodes are "
                "[GUESS, {REPLY: NODE, ...}]"
            )
        node["guess"] = _code(raw[0], rules, where, path)
        replies: dict[str, object] = {}
        written: dict[str, str] = {}
        for key, child in raw[1]:
            found = _KEY.fullmatch(key)
            if found is None:
                raise BullsCowsError(
                    f"{where}: reply key {quote(key)} at {path}: kunigami's keys read "
                    "'(BULLS, COWS)'"
                )
            reply = f"{found[1]} {found[2]}"
            if reply in written:
                also = "" if written[reply] == key else f" (as {quote(written[reply])} too)"
                raise BullsCowsError(
                    f"{where}: the node at {path} holds the reply {quote(key)} twice{also}; "
                    "a reply may appear once"
                )
            written[reply] = key
            made: dict[str, object] = {}
            replies[reply] = made
            stack.append((child, made, f"{path} {node['guess']} {key}"))
        node["replies"] = replies
    return root


def _code(digits: object, rules: Rules, where: str, path: str) -> str:
    """A guess written as a list of symbol numbers, as text of ``rules``' symbols."""
    symbols = rules.symbols
    if not (
        isinstance(digits, list) and all(type(d) is int and 0 <= d < len(symbols) for d in digits)
    ):
        raise BullsCowsError(
            f"{where}: the guess at {path} is {quote_value(digits)}: a list of symbol numbers "
            f"from 0 to {len(symbols) - 1}"
        )
    return "".join(symbols[d] for d in digits)
