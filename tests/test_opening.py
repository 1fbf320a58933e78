"""Trees of a fixed opening (``search.opening``): every tree valid, never below the proven
optimum, equal to it under the optimal tree's own opening; a budget leaves a whole tree
between its bounds; a checkpoint gives the same tree again."""

from __future__ import annotations

import gzip
import itertools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bullscows import Code, Rules
from bullscows.cli import main
from bullscows.executors import Threads
from bullscows.search import distribute, optimal_tree, reporting
from bullscows.search.checkpoint import Checkpoint
from bullscows.search.engine import SearchOptions
from bullscows.search.opening import Opening, opening_of, opening_tree
from bullscows.search.progress import Budget
from bullscows.search.state import SearchState
from bullscows.strategies.part_trees import heuristic_part
from bullscows.tree import DecisionTree, check_tree, load_tree
from bullscows.universe import universe
from plain import plain_counts

#: The trees of fixed openings kept in docs/trees: (file, the variant's secrets, the
#: guesses each number of guesses from 1 settles).
SHIPPED = [
    ("digits-opening.json.gz", ["".join(c) for c in itertools.product("0123456789", repeat=4)],
     [1, 7, 54, 505, 3639, 5182, 608, 4]),
    ("bc5-opening.json.gz", ["".join(c) for c in itertools.permutations("0123456789", 5)],
     [1, 9, 87, 1668, 9390, 15274, 3747, 63, 1]),
    ("logik-opening.json.gz", ["".join(c) for c in itertools.product("12345678", repeat=5)],
     [1, 8, 96, 1885, 14104, 15896, 778]),
]  # fmt: skip
#: The checkpoints of fixed openings kept in docs/trees: (variant, the answers they hold).
CHECKPOINTS = [("bc5", 99), ("logik", 133)]


def _valid(rules: Rules, found: object) -> int:
    """The total of the opening's tree by the independent checker (which must pass it)."""
    tree = DecisionTree(rules, "opening", "opening", found.tree)  # type: ignore[attr-defined]
    report = check_tree(tree)
    assert report.problems == []
    assert report.summary is not None
    return report.summary.total


@pytest.mark.parametrize("spec", ["mm", "p4c6n", "p3c10n"])
def test_the_root_bounds_opening_is_a_valid_tree_no_better_than_the_optimum(spec: str) -> None:
    rules = Rules.parse(spec)
    found = opening_tree(rules, heuristic_part)
    optimum = optimal_tree(rules).total
    assert _valid(rules, found) == found.total == found.lower >= optimum
    assert found.solved == found.parts > 0 and found.stopped is None
    assert found.tree.guess == found.opening.first
    for reply, second in found.opening.seconds:
        assert found.tree.branches[reply].guess == second


@pytest.mark.parametrize("spec", ["mm", "p4c6n", "p3c10n"])
def test_the_optimal_trees_opening_gives_the_optimum(spec: str) -> None:
    rules = Rules.parse(spec)
    optimal = optimal_tree(rules)
    found = opening_tree(rules, heuristic_part, opening_of(optimal.tree))
    assert found.total == found.lower == optimal.total
    assert _valid(rules, found) == optimal.total


def test_where_the_root_bound_picks_the_optimal_opening_the_total_is_the_optimum() -> None:
    rules = Rules.parse("p3c5n")  # the optimal tree opens as the root bound orders
    found, optimal = opening_tree(rules, heuristic_part), optimal_tree(rules)
    optimal_seconds = dict(opening_of(optimal.tree).seconds)
    assert all(optimal_seconds[reply] == guess for reply, guess in found.opening.seconds)
    assert found.total == optimal.total == 196


def test_a_budget_leaves_a_whole_tree_between_the_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)
    rules = Rules.parse("p3c10n")
    whole = opening_tree(rules, heuristic_part)
    found = opening_tree(rules, heuristic_part, budget=Budget(sets=50))
    assert found.stopped == "the budget of 50 sets"
    assert found.solved < found.parts
    assert found.lower <= whole.total <= found.total == _valid(rules, found)
    assert found.lower < found.total  # a part left to a heuristic that is not its optimum


def test_a_checkpoint_gives_the_same_tree_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(distribute, "TASK_MIN", 3)  # every part is a task, kept in the file
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)
    rules, kept = Rules.parse("mm"), tmp_path / "mm.ckpt"
    stopped = opening_tree(rules, heuristic_part, checkpoint=kept, budget=Budget(sets=60))
    assert stopped.solved < stopped.parts
    first = opening_tree(rules, heuristic_part, checkpoint=kept)
    again = opening_tree(rules, heuristic_part, checkpoint=kept)
    assert again.tree == first.tree and again.total == first.total == first.lower
    assert again.sets < first.sets  # the second run read its answers back
    assert first.tree == opening_tree(rules, heuristic_part).tree


def test_parts_spread_over_threads_give_the_same_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(distribute, "TASK_MIN", 3)  # every part a task, sent to the threads
    rules = Rules.parse("mm")
    with Threads(2) as team:
        spread = opening_tree(rules, heuristic_part, executor=team)
    assert spread.tree == opening_tree(rules, heuristic_part).tree
    assert spread.total == spread.lower == 5667


def test_an_opening_fixes_the_first_guess_and_the_root_bound_the_rest() -> None:
    rules = Rules.parse("mm")
    first = Code("1234", rules).index
    found = opening_tree(rules, heuristic_part, first)
    assert found.opening.first == first and found.total == found.lower >= 5625
    fixed = opening_tree(rules, heuristic_part, Opening(first, found.opening.seconds[:1]))
    assert fixed.tree == found.tree
    # A second guess the root bound's order does not pick: 1111 after reply 0 (no colour of
    # 1234 in the secret), which tells nothing of that part's codes, is kept all the same.
    reply, second = found.opening.seconds[0]
    other = Code("1111", rules).index
    assert reply == 0 and other != second
    pinned = opening_tree(rules, heuristic_part, Opening(first, ((reply, other),)))
    assert pinned.tree.branches[reply].guess == other
    assert pinned.total == pinned.lower >= found.total


def test_tree_opening_writes_a_checked_tree(tmp_path: Path) -> None:
    out = tmp_path / "mm-opening.json"
    runner = CliRunner()
    given = ["--rules", "mm", "--strategy", "optimal", "--opening", "root-bound"]
    made = runner.invoke(main, ["tree", *given, "--out", str(out)])
    assert made.exit_code == 0, made.output
    assert "total         5,667 (the lowest of this opening)" in made.output
    assert "opening       1123," in made.output
    checked = runner.invoke(main, ["tree", "--check", str(out)])
    assert checked.exit_code == 0, checked.output
    assert "a valid tree of optimal, opening 1123 on mm" in checked.output
    assert load_tree(out).summary().total == 5667


def test_tree_opening_under_a_budget_prints_its_bounds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)
    out = tmp_path / "p3c10n.json"
    given = ["--rules", "p3c10n", "--strategy", "optimal", "--opening", "012", "--budget", "50"]
    made = CliRunner().invoke(main, ["tree", *given, "--out", str(out), "--json"])
    assert made.exit_code == 3, made.output  # stopped, with a whole tree
    assert '"objective": "upper-bound"' in made.output
    assert '"stopped": "the budget of 50 sets"' in made.output
    assert check_tree(load_tree(out)).problems == []


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--opening", "12x4"], "code '12x4'"),
        (["--opening", "1234", "--strategy", "minimax"], "--opening goes with --strategy optimal"),
        (["--opening", "1234", "--format", "text"], "give it without --format"),
        (["--opening", "1234", "--bound", "root"], "give --bound or --opening, not both"),
    ],
)
def test_tree_opening_refuses_what_it_cannot_do(arguments: list[str], message: str) -> None:
    given = ["tree", "--rules", "mm", "--strategy", "optimal", *arguments]
    result = CliRunner().invoke(main, given)
    assert result.exit_code != 0
    assert message in result.output


@pytest.mark.parametrize(("name", "secrets", "expected"), SHIPPED)
def test_the_shipped_trees_of_fixed_openings(
    name: str, secrets: list[str], expected: list[int]
) -> None:
    # Checked, then played by the textbook reply (nothing of the library's scoring).
    path = Path(__file__).resolve().parent.parent / "docs" / "trees" / name
    report = check_tree(load_tree(path))
    assert report.problems == [] and report.summary is not None
    total = sum(guesses * n for guesses, n in enumerate(expected, start=1))
    assert (report.summary.total, report.summary.secrets) == (total, len(secrets))
    counts, _ = plain_counts(json.loads(gzip.decompress(path.read_bytes()))["tree"], secrets)
    assert [counts[guesses] for guesses in range(1, len(expected) + 1)] == expected


@pytest.mark.parametrize(("spec", "answers"), CHECKPOINTS)
def test_the_shipped_checkpoints_hold_checked_answers(
    spec: str, answers: int, tmp_path: Path
) -> None:
    # Fixed openings searched as far as the 2-core machine allowed: a resumed search reads
    # these answers (each tree is checked against its part as it is read, as here).
    shipped = Path(__file__).resolve().parent.parent / "docs" / "trees" / f"{spec}-opening.ckpt.gz"
    kept = tmp_path / f"{spec}-opening.ckpt"
    kept.write_bytes(gzip.decompress(shipped.read_bytes()))
    store = Checkpoint(kept, spec, "total", None, False)
    assert store.resumed == answers == len(store.exact) + len(store.failed)
    rules = Rules.parse(spec)
    state = SearchState(SearchOptions(rules))
    u = universe(rules)
    for (weight, history, depth), found in store.exact.items():
        codes = u.secrets
        for guess, reply in history:
            codes = codes[u.score_row(guess, codes) == reply]
        assert weight == 1 and len(history) == 2 and state.trust(codes, depth, found)


def test_logiks_checkpoint_resumed_settles_its_opening(tmp_path: Path) -> None:
    # Every part of the opening is answered (those under 30 codes, not kept, are solved again
    # in seconds): the resumed search proves its tree the lowest of that opening.
    shipped = Path(__file__).resolve().parent.parent / "docs" / "trees"
    kept, out = tmp_path / "logik-opening.ckpt", tmp_path / "logik.json.gz"
    kept.write_bytes(gzip.decompress((shipped / "logik-opening.ckpt.gz").read_bytes()))
    given = ["--rules", "logik", "--strategy", "optimal", "--opening", "root-bound"]
    made = CliRunner().invoke(
        main, ["tree", *given, "--checkpoint", str(kept), "--out", str(out), "--quiet"]
    )
    assert made.exit_code == 0, made.output
    assert "parts solved  231 of 231 " in made.output
    assert "total         179,187 (the lowest of this opening)" in made.output
    assert "lower bound   179,187 (no tree of this opening costs less)" in made.output
    assert load_tree(out).root == load_tree(shipped / "logik-opening.json.gz").root
