"""Trees in the forms other tools publish them, written from ours; where their files are."""

from __future__ import annotations

import os
from pathlib import Path

from bullscows import Rules

#: Reference files kept beside the repository (``shared/reference``), when they are there.
REFERENCE = Path(
    os.environ.get("BULLSCOWS_REFERENCE")
    or Path(__file__).resolve().parents[1].parent / "shared" / "reference"
)


def as_kunigami_js(node: dict[str, object], rules: Rules) -> str:
    """A tree's nodes written as kunigami writes his: ``[[3, 2, 1, 0], {'(1, 2)': ...}]``,
    with the all-bulls leaf repeating each guess."""
    digits = [rules.symbols.index(symbol) for symbol in str(node["guess"])]
    replies = node.get("replies") or {}
    assert isinstance(replies, dict)
    parts = [
        f"'({key.replace(' ', ', ')})': {as_kunigami_js(child, rules)}"
        for key, child in replies.items()
    ]
    parts.append(f"'({rules.length}, 0)': [{digits}, {{}}]")
    return f"[{digits}, {{{', '.join(parts)}}}]"
