"""The optimal strategies: the exhaustive search's trees, played through every command."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from bullscows import Code, Rules, score
from bullscows.cli import main
from bullscows.errors import BullsCowsWarning
from bullscows.knowledge import Knowledge
from bullscows.outcomes import build_tree, guess_counts
from bullscows.search import optimal_tree
from bullscows.sessions import Codebreaker, random_secret
from bullscows.strategies import get_strategy, optimal_strategy
from bullscows.tree import DecisionTree

MM = Rules.parse("mm")


@pytest.mark.parametrize(
    ("name", "total", "worst"), [("optimal", 5625, 6), ("optimal-worst", 5626, 5)]
)
def test_mastermind_optima(name: str, total: int, worst: int) -> None:
    counts = guess_counts(MM, get_strategy(name))
    assert (int(counts.sum()), int(counts.max())) == (total, worst)


def test_optimal_never_loses_to_a_heuristic() -> None:
    for spec in ("p3c4n", "p3c3r", "moo3,3,2"):
        rules = Rules.parse(spec)
        best = guess_counts(rules, get_strategy("optimal")).sum()
        for heuristic in ("minimax", "expected-size", "entropy", "most-parts"):
            assert best <= guess_counts(rules, get_strategy(heuristic)).sum(), (spec, heuristic)


def test_large_variants_are_refused_unless_shipped() -> None:
    # p5c8n (6,720 codes) is more than a game searches for, and no tree is shipped for it.
    problem = get_strategy("optimal").problem(Rules.parse("p5c8n"))
    assert problem is not None and "6,720 codes" in problem
    args = ["solve", "--plain", "--rules", "p5c8n", "--strategy", "optimal"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert "search it first with `bullscows tree --rules p5c8n --strategy optimal`" in result.output


def test_a_tree_searched_first_is_played(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(optimal_strategy, "MAX_OPTIMAL_CODES", 100)
    rules = Rules.parse("p3c6n")  # 120 codes: now too many to search during a game
    assert get_strategy("optimal").problem(rules) is not None
    searched = CliRunner().invoke(main, ["tree", "--rules", "p3c6n", "--strategy", "optimal"])
    assert searched.exit_code == 0, searched.output
    assert get_strategy("optimal").problem(rules) is None
    assert int(guess_counts(rules, get_strategy("optimal")).sum()) == optimal_tree(rules).total


def test_solve_plays_optimally() -> None:
    rng = random.Random(4)
    for _ in range(3):
        secret = random_secret(MM, rng)
        breaker = Codebreaker(MM, "optimal-worst", rng.randrange(1000))
        while not breaker.solved:
            breaker.reply(score(secret, breaker.suggest()))
        assert len(breaker.history) <= 5


def test_a_foreign_guess_is_answered_and_says_how() -> None:
    knowledge = Knowledge.start(MM).after(
        Code("1234", MM), score(Code("5566", MM), Code("1234", MM))
    )
    strategy = get_strategy("optimal")
    strategy.next_guess(knowledge, random.Random(0))  # tests/test_off_tree.py: which guess
    assert strategy.source is not None and "the game left the optimal tree" in strategy.source


def test_tree_command_writes_the_optimal_tree(tmp_path: Path) -> None:
    out = tmp_path / "mm-optimal.json"
    runner = CliRunner()
    result = runner.invoke(
        main, ["tree", "--rules", "mm", "--strategy", "optimal", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["summary"]["total"] == 5625
    checked = runner.invoke(main, ["tree", "--check", str(out)])
    assert checked.exit_code == 0, checked.output


def test_searched_trees_are_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bullscows.search import found
    from bullscows.strategies import optimal_strategy
    from bullscows.tree import store

    monkeypatch.setenv("BULLSCOWS_CACHE", str(tmp_path))
    rules = Rules.parse("p3c4n")
    optimal_strategy._tree.cache_clear()
    first = guess_counts(rules, get_strategy("optimal"))
    saved = store.cache_file(rules, "optimal", False)
    assert saved.exists()
    checked = CliRunner().invoke(main, ["tree", "--check", str(saved)])
    assert checked.exit_code == 0, checked.output

    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("the tree should come from the cache")

    optimal_strategy._tree.cache_clear()
    monkeypatch.setattr(found, "optimal_tree", no_search)
    assert (guess_counts(rules, get_strategy("optimal")) == first).all()
    # A damaged file is searched again (and rewritten).
    saved.write_text("{not json")
    optimal_strategy._tree.cache_clear()
    monkeypatch.undo()
    monkeypatch.setenv("BULLSCOWS_CACHE", str(tmp_path))
    with pytest.warns(BullsCowsWarning, match="is passed over: .* is not JSON"):
        assert (guess_counts(rules, get_strategy("optimal")) == first).all()
    assert json.loads(saved.read_text())["format"] == "bullscows-tree"
    optimal_strategy._tree.cache_clear()


def _planted(rules: Rules, strategy: str, changes: dict[str, object]) -> dict[str, object]:
    """A tree of ``strategy`` dressed up as the cached optimal tree, with ``changes``."""
    data = build_tree(rules, get_strategy(strategy)).to_dict()
    return {**data, "strategy": "optimal", "objective": "optimal-total", **changes}


@pytest.mark.parametrize(
    ("strategy", "changes", "reason"),
    [
        # a stated summary that is not the tree's (the tree totals more than the optimum)
        ("simple", {"summary": "optimal"}, "the stated summary"),
        ("simple", {"summary": None}, "no summary"),
        ("minimax", {"rules": "p3c5n"}, "not of optimal"),
        ("simple", {"tree": {"guess": "012"}}, "leave the tree"),
        # a valid tree with its true summary: only the key tells it was not searched
        ("simple", {}, "its key is not one this installation"),
        ("simple", {"key": "0" * 64}, "its key is not one this installation"),
    ],
)
def test_a_planted_or_damaged_cache_entry_is_searched_again(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    strategy: str,
    changes: dict[str, object],
    reason: str,
) -> None:
    from bullscows.strategies import optimal_strategy
    from bullscows.tree import store

    monkeypatch.setenv("BULLSCOWS_CACHE", str(tmp_path))
    rules = Rules.parse("p3c4n")
    optimum = optimal_tree(rules)
    if changes.get("summary") == "optimal":
        summary = build_tree(rules, get_strategy("simple")).summary().to_json()
        changes = {"summary": {**summary, "total": optimum.total, "average": 3.0}}
    planted = _planted(rules, strategy, changes)
    path = store.cache_file(rules, "optimal", False)
    path.write_text(json.dumps(planted))
    optimal_strategy._tree.cache_clear()
    with pytest.warns(BullsCowsWarning, match=f"passed over: .*{reason}"):
        total = int(guess_counts(rules, get_strategy("optimal")).sum())
    assert total == optimum.total == 72
    assert json.loads(path.read_text())["summary"]["total"] == 72  # rewritten
    optimal_strategy._tree.cache_clear()


def test_a_cached_tree_of_other_options_is_refused(tmp_path: Path) -> None:
    from dataclasses import replace

    from bullscows.search.found import search_tree
    from bullscows.tree import load_tree
    from bullscows.tree.store import cache_key, cache_problem

    rules = Rules.parse("p3c5n")
    free = load_tree(search_tree(rules, "optimal", "total", False, None).to_json())
    relabelled = DecisionTree(rules, "optimal (at most 3 guesses)", free.objective, free.root,
                              free.summary())  # fmt: skip
    wanted = (rules, "optimal (at most 3 guesses)", "optimal-total")
    assert free.summary().worst > 3
    assert "more than 3" in str(cache_problem(relabelled, wanted, False, 3))
    consistent = (rules, "optimal (consistent only)", "optimal-total")
    relabelled = DecisionTree(rules, consistent[1], free.objective, free.root, free.summary())
    # after 012 and '2 0' the free optimum guesses 023, which cannot be the secret
    assert "2 guesses cannot be the secret: 012 '2 0' 023" in str(
        cache_problem(relabelled, consistent, True, None)
    )
    keyed = replace(free, key=cache_key(free, False, None))
    assert cache_problem(keyed, (rules, "optimal", "optimal-total"), False, None) is None
    assert "its key" in str(cache_problem(free, (rules, "optimal", "optimal-total"), False, None))


def test_a_cache_entry_that_is_a_device_is_passed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bullscows.strategies import optimal_strategy
    from bullscows.tree import store

    monkeypatch.setenv("BULLSCOWS_CACHE", str(tmp_path))
    rules = Rules.parse("p3c4n")
    path = store.cache_file(rules, "optimal", False)
    path.symlink_to("/dev/zero")
    optimal_strategy._tree.cache_clear()
    with pytest.warns(BullsCowsWarning, match="not a regular file"):
        assert int(guess_counts(rules, get_strategy("optimal")).sum()) == 72
    assert not path.is_symlink() and path.is_file()  # the link is replaced, not written through
    optimal_strategy._tree.cache_clear()


def test_depth_cap() -> None:
    runner = CliRunner()
    capped = runner.invoke(
        main, ["tree", "--rules", "mm", "--strategy", "optimal", "--max-depth", "5", "--json"]
    )
    assert capped.exit_code == 0, capped.output
    summary = json.loads(capped.stdout)
    assert (summary["total"], summary["worst"]) == (5626, 5)
    assert summary["name"] == "optimal (at most 5 guesses)"
    too_few = runner.invoke(
        main, ["tree", "--rules", "mm", "--strategy", "optimal", "--max-depth", "4"]
    )
    assert too_few.exit_code == 1
    assert "within 4 guesses" in too_few.stderr
    not_optimal = runner.invoke(main, ["tree", "--rules", "mm", "--max-depth", "5"])
    assert not_optimal.exit_code == 2
    assert "applies to the optimal strategies" in not_optimal.output


def test_a_server_can_ask_whether_a_move_searches_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bullscows.strategies import get_strategy

    monkeypatch.setenv("BULLSCOWS_CACHE", str(tmp_path))  # no other test's search in it

    assert not get_strategy("minimax").needs_search(Rules.parse("p4c9n"))
    assert not get_strategy("optimal").needs_search(Rules.parse("bc"))  # shipped
    assert get_strategy("optimal").needs_search(Rules.parse("p4c9n"))  # nothing cached


def test_a_server_can_keep_searched_trees_in_a_store_of_its_own() -> None:
    from bullscows.strategies import optimal_strategy
    from bullscows.tree import DecisionTree as Tree
    from bullscows.tree.store import use_tree_store

    class Memory:
        def __init__(self) -> None:
            self.trees: dict[str, Tree] = {}

        def read(self, name: str) -> Tree | None:
            return self.trees.get(name)

        def write(self, name: str, tree: Tree) -> None:
            self.trees[name] = tree

        def has(self, name: str) -> bool:
            return name in self.trees

    memory = Memory()
    use_tree_store(memory)
    try:
        rules = Rules.parse("p3c5n")
        strategy = get_strategy("optimal")
        assert strategy.needs_search(rules)
        optimal_strategy._tree.cache_clear()
        total = int(guess_counts(rules, strategy).sum())
        assert list(memory.trees) == ["p3c5n--optimal.json"]
        assert memory.trees["p3c5n--optimal.json"].summary().total == total
        assert not strategy.needs_search(rules)
    finally:
        use_tree_store(None)
        optimal_strategy._tree.cache_clear()
