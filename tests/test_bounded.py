"""Bounded searches: a budget stops the search with a proven lower bound and the best tree
found; beyond the search's limit, the root bound of ``search.frontier``. Every lower bound is
held to the proven optimum, every tree found to the independent checker."""

from __future__ import annotations

import contextlib
import functools
import gzip
import itertools
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from bullscows import Rules
from bullscows._kernels.tables import INFEASIBLE
from bullscows.cli import main, tree_opening
from bullscows.errors import BullsCowsError
from bullscows.executors import make_executor
from bullscows.search import distribute, optimal, optimal_tree, options, reporting
from bullscows.search.engine import Search, SearchOptions
from bullscows.search.found import found_tree
from bullscows.search.frontier import root_bound
from bullscows.search.opening import OpeningInterrupted, opening_tree
from bullscows.search.optimal import INTERRUPT, Budget, Objective, SearchInterrupted, SearchStopped
from bullscows.search.progress import BudgetSpent, SearchReport
from bullscows.strategies.part_trees import heuristic_part
from bullscows.tree import DecisionTree, check_tree, load_tree
from bullscows.universe import universe
from plain import plain_counts

#: (spec, objective, the proven optimum's cost as the search counts it).
OPTIMA: list[tuple[str, Objective]] = [
    ("mm", "total"), ("mm", "worst"), ("mm", "worst-count"), ("p4c7r", "total"),
    ("p3c10n", "worst-count"),
]  # fmt: skip


def _cost(spec: str, objective: Objective) -> int:
    """The proven optimum of ``objective`` as the search's costs count it."""
    found = optimal_tree(Rules.parse(spec), objective)
    if objective == "worst-count":
        penalty = options.PENALTY_DEPTH * found.rules.size
        return penalty * found.distribution[found.worst] + found.total
    return found.total


@pytest.mark.parametrize(("spec", "objective"), OPTIMA)
def test_a_budget_stops_the_search_between_its_bounds(
    spec: str, objective: Objective, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)
    optimum = _cost(spec, objective)
    seen = set()
    for sets in (1_000, 2_000, 4_000, 6_000, 8_000, 12_000, 16_000, 24_000, 40_000):
        try:
            optimal_tree(Rules.parse(spec), objective, budget=Budget(sets=sets))
        except SearchStopped as stopped:
            standing = stopped.standing
        else:
            break
        assert standing.nodes >= sets
        if standing.lower is None:  # stopped while asking which cap fits
            continue
        seen.add(standing.lower)
        assert standing.lower <= optimum
        if standing.upper is not None:
            assert standing.lower <= optimum <= standing.upper
            assert standing.tree is not None
            tree = found_tree(Rules.parse(spec), "optimal", standing.tree)
            assert check_tree(tree).problems == []
    assert seen  # some budget stopped the search with a bound


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_budget_of_sets_stops_the_search_without_waiting_for_a_report(
    jobs: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No progress report falls due in the search's life, so only the budget's own look at the
    # sets stops it: unlooked at, the search would visit every one of its sets and finish.
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 1e9)
    monkeypatch.setattr(distribute, "WAIT_TICK", 0.01)  # a look soon on a fast machine too
    rules = Rules.parse("p4c7r")
    with (
        make_executor(None, jobs, None, threads=True) as pool,
        pytest.raises(SearchStopped) as stopped,
    ):
        optimal_tree(rules, budget=Budget(sets=2_000), executor=pool)
    assert 2_000 <= stopped.value.standing.nodes < _whole_search("p4c7r")
    assert stopped.value.standing.reason == "the budget of 2,000 sets"


@functools.cache
def _whole_search(spec: str) -> int:
    """How many sets the whole optimal search of ``spec`` visits, on one thread."""
    return optimal_tree(Rules.parse(spec)).nodes


def test_the_bounds_climb_and_meet_as_the_search_goes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)
    reports: list[SearchReport] = []
    result = optimal_tree(Rules.parse("mm"), progress=reports.append)
    lowers = [report.lower for report in reports if report.lower is not None]
    assert lowers == sorted(lowers)  # a proven bound never falls
    assert lowers[-1] == result.total == reports[-1].best
    uppers = [report.best for report in reports if report.best is not None]
    assert uppers == sorted(uppers, reverse=True)


def test_a_progress_callback_may_stop_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)

    def enough(report: SearchReport) -> None:
        if report.best is not None:
            raise BudgetSpent("the first tree found")

    with pytest.raises(SearchStopped, match="stopped at the first tree found") as stopped:
        optimal_tree(Rules.parse("p4c7r"), progress=enough)
    assert stopped.value.standing.upper is not None
    assert stopped.value.standing.upper >= 11228


def test_ctrl_c_under_way_says_where_the_search_stood(monkeypatch: pytest.MonkeyPatch) -> None:
    # Ctrl-C (here raised by the progress callback, once a tree is found) stops the search
    # with its bounds and the best tree found, still a KeyboardInterrupt to its caller.
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)

    def ctrl_c(report: SearchReport) -> None:
        if report.best is not None:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as stopped:
        optimal_tree(Rules.parse("p4c7r"), progress=ctrl_c)
    assert isinstance(stopped.value, SearchInterrupted)
    standing = stopped.value.standing
    assert standing.reason == INTERRUPT == "an interrupt (Ctrl-C or SIGTERM)"
    assert standing.lower is not None and standing.upper is not None
    assert standing.lower <= 11228 <= standing.upper
    assert standing.tree is not None
    found = found_tree(Rules.parse("p4c7r"), "optimal", standing.tree)
    report = check_tree(found)
    assert report.problems == [] and report.summary is not None
    assert report.summary.total == standing.upper


def test_ctrl_c_before_the_search_began_is_plain(monkeypatch: pytest.MonkeyPatch) -> None:
    def ctrl_c(*arguments: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(optimal, "universe", ctrl_c)  # as the search begins, none yet running
    with pytest.raises(KeyboardInterrupt) as stopped:
        optimal_tree(Rules.parse("p4c7r"))
    assert not isinstance(stopped.value, SearchInterrupted)


def _ctrl_c_at_first_report(report: SearchReport) -> None:
    raise KeyboardInterrupt


def test_ctrl_c_leaves_an_opening_a_whole_tree_between_its_bounds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every part has the heuristic's tree before the search begins: Ctrl-C (here raised by
    # the first progress report) gives the tree as a budget spent gives it.
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)
    rules = Rules.parse("p3c10n")
    whole = opening_tree(rules, heuristic_part)
    with pytest.raises(KeyboardInterrupt) as stopped:
        opening_tree(rules, heuristic_part, progress=_ctrl_c_at_first_report)
    assert isinstance(stopped.value, OpeningInterrupted)
    found = stopped.value.found
    assert found.stopped == INTERRUPT and found.solved < found.parts
    assert found.lower <= whole.total <= found.total
    tree = DecisionTree(rules, "opening", "opening", found.tree)
    assert check_tree(tree).problems == [] and tree.summary().total == found.total


def test_tree_opening_stopped_by_ctrl_c_prints_and_writes_its_tree_then_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    @contextlib.contextmanager
    def ctrl_c(
        show: bool, label: str, log_every: float = 0.0
    ) -> Iterator[Callable[[SearchReport], None]]:
        yield _ctrl_c_at_first_report

    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)
    monkeypatch.setattr(tree_opening, "searching", ctrl_c)
    out, kept = tmp_path / "p3c10n.json", tmp_path / "p3c10n.ckpt"
    given = ["--rules", "p3c10n", "--strategy", "optimal", "--opening", "012"]
    code, stdout, stderr = run("tree", *given, "--out", str(out), "--checkpoint", str(kept))
    assert code == 130, stderr
    assert "  stopped       at an interrupt (Ctrl-C or SIGTERM): the parts left" in stdout
    assert f"Tree written to {out}" in stderr
    assert stderr.splitlines()[-1] == (
        f"Interrupted; the answers so far are in {kept}: run the same command to resume."
    )
    assert check_tree(load_tree(out)).problems == []


def test_a_budget_must_be_positive() -> None:
    with pytest.raises(BullsCowsError, match="time limit 0: give a positive number"):
        Budget(seconds=0)


@pytest.mark.parametrize("spec", ["mm", "p3c5r", "p4c4r", "p4c7r", "p3c10n"])
def test_the_root_bound_is_the_searchs_and_never_exceeds_the_optimum(spec: str) -> None:
    rules = Rules.parse(spec)
    found = root_bound(rules)
    search = Search(SearchOptions(rules))
    optimum = search.solve(universe(rules).secrets, search.state.unlimited, INFEASIBLE, ())
    assert optimum is not None
    # The search's bound at the root before it settles anything: the same figure.
    assert found.lower == search.root.floor
    assert found.lower <= optimum[0]
    assert found.lower == min(bound for _, bound in found.firsts)


def test_the_root_bound_reaches_past_the_searchs_limit() -> None:
    # Logik (32,768 codes): one first guess per class, 7 of them.
    found = root_bound(Rules.parse("logik"))
    assert [found.text(guess) for guess, _ in found.firsts] == [
        "11111", "11112", "11122", "11123", "11223", "11234", "12345",
    ]  # fmt: skip
    assert found.lower == 167045 < 179929  # the best published tree


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), env={"COLUMNS": "200", "NO_COLOR": "1"})
    return result.exit_code, result.stdout, result.stderr


def test_tree_with_a_budget_prints_the_bounds_and_writes_the_tree_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)
    monkeypatch.setenv("BULLSCOWS_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "found.json"
    args = ["tree", "--rules", "p4c7r", "--strategy", "optimal", "--out", str(out)]
    code, stdout, stderr = run(*args, "--budget", "20000")
    assert code in (3, 4), stderr  # stopped: with a tree found, or before any
    lines = stdout.splitlines()
    assert lines[1].startswith("  optimal stopped at the budget of 20,000 sets, after ")
    cells = {line[:15].strip(): line[15:] for line in lines[2:]}
    lower = int(cells["lower bound"].split()[0].replace(",", ""))
    assert 10795 <= lower <= 11228
    assert cells["lower bound"].endswith("(proven: no tree costs less)")
    if cells["upper bound"].strip() == "none yet":
        assert code == 4 and "No tree found yet: nothing written" in stderr
        return
    assert code == 3
    upper = int(cells["upper bound"].split()[0].replace(",", ""))
    assert upper >= 11228
    saved = load_tree(out)
    assert saved.strategy == "optimal, best found (not proven)"
    report = check_tree(saved)
    assert report.problems == [] and report.summary is not None
    assert report.summary.total == upper


def test_a_stopped_search_says_where_it_stood_as_json_and_by_its_exit_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The budget is seen as soon as it is spent, not only at the reports (every second), in
    # which the whole search of p4c7r (22,525 sets) may end: none falls due here.
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 1e9)
    monkeypatch.setenv("BULLSCOWS_CACHE", str(tmp_path / "cache"))
    args = ["tree", "--rules", "p4c7r", "--strategy", "optimal", "--json", "--quiet"]
    code, stdout, stderr = run(*args, "--budget", "20000")
    stood = json.loads(stdout)
    assert (stood["rules"], stood["name"]) == ("p4c7r", "optimal")
    assert stood["stopped"] == "the budget of 20,000 sets" and stood["sets"] >= 20000
    assert 10795 <= stood["lower"]["total"] <= 11228
    assert code == (3 if stood["tree_found"] else 4), stderr
    if stood["tree_found"]:
        assert stood["upper"]["total"] >= 11228 and stood["gap"].endswith("%)")
    # Past the search's limit: the root bound alone, no tree (exit 4).
    code, stdout, _ = run("tree", "--rules", "p4c17r", "--strategy", "optimal", "--json",
                          "--budget", "9")  # fmt: skip
    stood = json.loads(stdout)
    assert code == 4 and stood["upper"] is None and stood["gap"] is None
    assert stood["lower"] == {"text": "241,773", "total": 241773, "cap": None}
    assert stood["tree_found"] is False


def test_a_search_that_finishes_within_its_limit_exits_0() -> None:
    # The shipped tree of mm is found at once: a tree, proven optimal, and exit 0.
    code, stdout, stderr = run(
        "tree", "--rules", "mm", "--strategy", "optimal", "--time-limit", "600", "--json"
    )
    assert code == 0, stderr
    assert json.loads(stdout)["total"] == 5625


def test_a_budget_goes_with_the_optimal_strategies_only() -> None:
    code, _, stderr = run("tree", "--rules", "mm", "--strategy", "entropy", "--time-limit", "5")
    assert code == 2
    assert "--time-limit and --budget go with the optimal strategies" in stderr
    code, _, stderr = run("tree", "--rules", "mm", "--strategy", "optimal", "--time-limit", "0")
    assert code == 2 and "--time-limit" in stderr


def test_tree_with_a_budget_past_the_searchs_limit_prints_the_root_bound() -> None:
    code, stdout, stderr = run(
        "tree", "--rules", "p4c17r", "--strategy", "optimal", "--budget", "9"
    )
    assert code == 4, stderr  # stopped without a tree
    assert "stopped at its limit of 65,536 codes (the root bound alone)" in stdout
    assert "lower bound   241,773 (proven: no tree costs less)" in stdout
    # Without a budget, or for another objective, it is refused as before.
    for extra in ([], ["--budget", "9", "--max-depth", "9"]):
        code, _, stderr = run("tree", "--rules", "p4c17r", "--strategy", "optimal", *extra)
        assert code == 1 and "the search handles at most 65,536" in stderr


def test_the_logik_tree_below_the_published_upper_bound() -> None:
    # The entropy tree of Logik (5 pegs of 8 colours), kept in docs/trees: 179,863 guesses in
    # all, below the best published tree (179,929, the supermastermind site).
    path = Path(__file__).resolve().parent.parent / "docs" / "trees" / "logik-entropy.json.gz"
    saved = load_tree(path)
    assert saved.rules == Rules.parse("logik")
    report = check_tree(saved)
    assert report.problems == [] and report.summary is not None
    assert (report.summary.total, report.summary.worst, report.summary.secrets) == (
        179863, 8, 32768,
    )  # fmt: skip
    assert report.summary.total < 179929
    # Played by the textbook definition of a reply, nothing of the library's scoring.
    data = json.loads(gzip.decompress(path.read_bytes()))
    counts, _ = plain_counts(data["tree"], map("".join, itertools.product("12345678", repeat=5)))
    assert sum(n * k for n, k in counts.items()) == 179863
    assert sorted(counts.items()) == [
        (1, 1), (2, 9), (3, 113), (4, 1575), (5, 14136), (6, 16014), (7, 919), (8, 1),
    ]  # fmt: skip


#: Bulls & Cows, all 4 distinct digits: Slovesnov's 50 secrets at 7 guesses, proven the fewest
#: by the search, with a total of 26,450 (Slovesnov's tree: 26,484). No leading zero: 11 at 7
#: (6 never suffice), total 23,299.
_DIGITS = ["".join(p) for p in itertools.permutations("0123456789", 4)]
WORST_COUNT_TREES = [
    ("bc-worst-count.json.gz", _DIGITS, [50, 5, 55, 628, 2394, 1907, 50]),
    ("bc-nolead-worst-count.json.gz", [c for c in _DIGITS if c[0] != "0"],
     [11, 7, 66, 676, 2345, 1430, 11]),
]  # fmt: skip


@pytest.mark.parametrize(("name", "secrets", "expected"), WORST_COUNT_TREES)
def test_the_worst_count_trees(name: str, secrets: list[str], expected: list[int]) -> None:
    # Kept in docs/trees; checked, then played by the textbook reply. ``expected``: the secrets
    # at 7, then how many secrets each number of guesses from 2 to 7 settles.
    path = Path(__file__).resolve().parent.parent / "docs" / "trees" / name
    report = check_tree(load_tree(path))
    assert report.problems == [] and report.summary is not None
    at_worst, *by_guesses = expected
    total = 1 + sum(guesses * n for guesses, n in enumerate(by_guesses, start=2))
    assert (report.summary.total, report.summary.worst, report.summary.at_worst) == (
        total, 7, at_worst,
    )  # fmt: skip
    data = json.loads(gzip.decompress(path.read_bytes()))
    counts, _ = plain_counts(data["tree"], secrets)
    assert sorted(counts.items()) == [(1, 1), *enumerate(by_guesses, start=2)]
