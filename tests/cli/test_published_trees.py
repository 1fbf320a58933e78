"""``bullscows tree --check`` on trees as other tools publish them: Knuth's form of Irving
notation (mastermind-strategy's files) and kunigami's JavaScript constant."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from bullscows import Rules
from bullscows.cli import main
from bullscows.outcomes import build_tree
from bullscows.strategies import get_strategy
from bullscows.tree.irving import to_irving
from treeforms import REFERENCE, as_kunigami_js


def check(path: Path, *options: str) -> str:
    result = CliRunner().invoke(main, ["tree", "--check", str(path), *options])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_knuths_tree_as_mastermind_strategy_writes_it(tmp_path: Path) -> None:
    """Two codes left written as the count alone (``2``), as in its strats/p4c6r-knuth.txt."""
    mm = Rules.parse("mm")
    text = to_irving(build_tree(mm, get_strategy("minimax")), header=False)
    path = tmp_path / "p4c6r-knuth.txt"
    path.write_text(re.sub(r"\b2 \([1-6]{4}\)", "2", text).replace("x)", ")"))
    out = check(path, "--rules", "mm")
    assert "a valid tree of irving on mm: 1,296 secrets, total 5,801, worst 5" in out


def test_kunigamis_form_is_read(tmp_path: Path) -> None:
    p3 = Rules.parse("p3c4n")
    tree = json.loads(build_tree(p3, get_strategy("entropy")).to_json())["tree"]
    path = tmp_path / "tree.json"
    path.write_text(f"const decisionTree = {as_kunigami_js(tree, p3)};")
    assert "a valid tree of imported on p3c4n: 24 secrets" in check(path, "--rules", "p3c4n")


@pytest.mark.skipif(
    not (REFERENCE / "kunigami-tree.js").exists(), reason="kunigami's published file not here"
)
def test_kunigamis_published_file() -> None:
    out = check(REFERENCE / "kunigami-tree.js", "--rules", "bc")
    assert "5,040 secrets, total 26,914, worst 7" in out
