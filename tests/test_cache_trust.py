"""What a cached optimal tree must show before it is played as optimal: a valid tree whose key
only this installation's search can make (an HMAC with a secret kept beside the cache)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from bullscows import Rules
from bullscows.cli import main
from bullscows.outcomes import build_tree
from bullscows.strategies import get_strategy, optimal_strategy
from bullscows.tree import DecisionTree, load_tree, store

P4C7N = Rules.parse("p4c7n")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "cache"
    monkeypatch.setenv("BULLSCOWS_CACHE", str(folder))
    optimal_strategy._tree.cache_clear()
    yield folder
    optimal_strategy._tree.cache_clear()


def forged(rules: Rules) -> DecisionTree:
    """``simple``'s tree relabelled as the optimum, its figures and its key recomputed by
    anyone's means: the public digest of the variant, the options and the tree."""
    simple = build_tree(rules, get_strategy("simple"))
    tree = DecisionTree(rules, "optimal", "optimal-total", simple.root, simple.summary())
    return replace(tree, key=store.public_digest(tree, False, None))


def test_a_forged_cache_entry_is_searched_again(cache: Path) -> None:
    cache.mkdir()
    tree = forged(P4C7N)
    assert tree.summary().total == 3794  # a valid tree, but not the optimum
    path = store.cache_file(P4C7N, "optimal", False)
    tree.save(path, figures=tree.stated)
    result = CliRunner().invoke(main, ["bench", "--rules", "p4c7n", "--strategy", "optimal"])
    assert result.exit_code == 0, result.output
    assert "passed over: its key is not one this installation's search wrote" in result.stderr
    row = next(line for line in result.stdout.splitlines() if line.startswith("optimal"))
    assert row.split()[1:4] == ["3,639", "4.332", "6"]
    rewritten = load_tree(path)
    assert rewritten.stated is not None and rewritten.stated.total == 3639
    assert store.cache_problem(rewritten, (P4C7N, "optimal", "optimal-total"), False, None) is None


def test_the_secret_is_private_and_lasting(cache: Path) -> None:
    first = store.cache_secret()
    assert store.cache_secret() == first and len(first) == 32
    path = store.secret_file()
    assert path.parent == cache
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in cache.iterdir()] == [path.name]  # no part file left behind
    path.write_bytes(b"short")  # damaged: a new secret replaces it
    again = store.cache_secret()
    assert len(again) == 32 and again != first and path.read_bytes() == again


def test_keys_differ_between_installations(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tree = forged(Rules.parse("p3c4n"))
    here = store.cache_key(tree, False, None)
    assert here != store.public_digest(tree, False, None)
    monkeypatch.setenv("BULLSCOWS_CACHE", str(cache.parent / "elsewhere"))
    assert store.cache_key(tree, False, None) != here


def test_a_cache_folder_that_cannot_hold_the_secret(cache: Path) -> None:
    cache.write_text("not a folder")
    first = store.cache_secret()  # one for this process: its own entries still verify
    assert store.cache_secret() == first and len(first) == 32


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_secret_is_not_replaced(cache: Path) -> None:
    store.cache_secret()
    store.secret_file().chmod(0)
    try:
        assert len(store.cache_secret()) == 32
    finally:
        store.secret_file().chmod(0o600)
