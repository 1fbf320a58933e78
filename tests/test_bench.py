"""Benchmarks: published totals, the same figures on every executor, and the report's shapes."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bullscows import Rules, dask_tasks
from bullscows.bench import BenchReport, StrategyResult, run_bench, sample_secrets
from bullscows.charts import chart_groups, plot_report
from bullscows.errors import BullsCowsError, CodeError, StrategyError
from bullscows.figures import UNSOLVED, distribution
from bullscows.outcomes import guess_counts, play_games
from bullscows.strategies import STRATEGIES, get_strategy

MM = Rules.parse("mm")
TINY = Rules.parse("p3c4n")  # 24 codes
#: Knuth (1976): minimax breaks every Mastermind code in at most 5 guesses, 5801 in all.
KNUTH = {1: 1, 2: 6, 3: 62, 4: 533, 5: 694}

RANDOM = [name for name in STRATEGIES if not get_strategy(name).deterministic]
WALKED = [
    name
    for name in STRATEGIES
    if get_strategy(name).deterministic and not get_strategy(name).ignores_replies
]


def figures(report: BenchReport) -> list[tuple[str, dict[int, int], int]]:
    """What must not depend on the executor: the name, distribution and unsolved count."""
    return [(r.name, r.distribution, r.unsolved) for r in report.results]


def runs(**how: Any) -> list[list[tuple[str, dict[int, int], int]]]:
    """minimax on mm, and every random strategy on a tiny variant, spread as ``how`` says."""
    return [
        figures(run_bench(MM, ["minimax"], **how)),
        figures(run_bench(TINY, RANDOM, seed=7, **how)),
    ]


@pytest.fixture(scope="module")
def serial() -> list[list[tuple[str, dict[int, int], int]]]:
    return runs()


# --- figures ----------------------------------------------------------------------------------


def test_minimax_on_mastermind_matches_knuth() -> None:
    (result,) = run_bench(MM, ["minimax"]).results
    assert result.name == "minimax"
    assert (result.total, result.worst, result.at_worst) == (5801, 5, 694)
    assert result.distribution == KNUTH
    assert (result.secrets, result.unsolved) == (1296, 0)
    assert result.average == pytest.approx(5801 / 1296)
    assert result.seconds >= 0


@pytest.mark.parametrize("name", WALKED)
def test_split_walk_equals_the_whole_tree(name: str) -> None:
    # Walking the first guess's subtrees one by one changes nothing.
    strategy = get_strategy(name)
    if strategy.problem(TINY) is not None:
        pytest.skip(strategy.problem(TINY))
    expected = distribution(guess_counts(TINY, strategy))
    assert run_bench(TINY, [name]).results[0].distribution == expected


@pytest.mark.parametrize("name", RANDOM)
def test_random_strategies_play_the_seeded_games(name: str) -> None:
    strategy = get_strategy(name)
    if strategy.problem(TINY) is not None:
        pytest.skip(strategy.problem(TINY))
    expected = play_games(TINY, strategy, np.arange(TINY.size), 3)
    (result,) = run_bench(TINY, [name], seed=3).results
    assert result.distribution == distribution(expected)
    assert result.total == int(expected.sum())


def test_consistent_only_changes_the_label() -> None:
    (result,) = run_bench(TINY, ["minimax"], consistent_only=True).results
    assert result.name == "minimax (consistent only)"


def test_strategies_that_cannot_play_are_reported_not_run() -> None:
    report = run_bench(TINY)
    played = {r.name for r in report.results} | {s.name for s in report.skipped}
    assert played == set(STRATEGIES)
    for skipped in report.skipped:
        assert skipped.reason == get_strategy(skipped.name).problem(TINY)


def test_games_past_the_cap_are_unsolved() -> None:
    # Guessing blindly, few of 24 secrets fall within 2 guesses.
    blind = [n for n in RANDOM if get_strategy(n).ignores_replies]
    if not blind:
        pytest.skip("no strategy ignores replies")
    (result,) = run_bench(TINY, blind[:1], seed=1, max_guesses=2).results
    assert result.unsolved > 0
    assert result.worst <= 2
    assert sum(result.distribution.values()) + result.unsolved == TINY.size


def test_from_counts_with_nothing_solved() -> None:
    result = StrategyResult.from_counts("x", np.array([UNSOLVED, UNSOLVED]), 0.0)
    assert (result.total, result.average, result.worst, result.unsolved) == (0, None, 0, 2)


# --- which secrets ------------------------------------------------------------------------------


def test_sample_is_reproducible_with_a_seed() -> None:
    first = run_bench(MM, ["minimax", *RANDOM], sample=50, seed=11)
    again = run_bench(MM, ["minimax", *RANDOM], sample=50, seed=11)
    assert figures(first) == figures(again)
    assert first.sample == 50 and all(r.secrets == 50 for r in first.results)
    assert np.array_equal(sample_secrets(MM, 50, 11), sample_secrets(MM, 50, 11))
    assert not np.array_equal(sample_secrets(MM, 50, 11), sample_secrets(MM, 50, 12))


def test_a_run_without_a_seed_can_be_repeated() -> None:
    first = run_bench(TINY, RANDOM)
    assert first.seed is not None
    assert figures(run_bench(TINY, RANDOM, seed=first.seed)) == figures(first)
    assert run_bench(TINY, ["minimax"]).seed is None  # nothing random: no seed


def test_a_sample_of_everything_is_everything() -> None:
    assert np.array_equal(sample_secrets(TINY, 1000, 1), np.arange(24))
    assert run_bench(TINY, ["simple"], sample=1000).sample is None


def test_given_secrets() -> None:
    # A secret listed twice counts twice, as in guess_counts.
    (result,) = run_bench(MM, ["minimax"], secrets=np.array([0, 0, 7])).results
    assert result.secrets == 3
    expected = guess_counts(MM, get_strategy("minimax"), np.array([0, 0, 7]))
    assert result.distribution == distribution(expected)
    assert result.total == int(expected.sum())


@pytest.mark.parametrize(
    ("options", "error", "quoted"),
    [
        ({"secrets": np.array([1296])}, CodeError, "1296"),
        ({"secrets": np.array([], dtype=np.int64)}, BullsCowsError, "no secrets"),
        ({"sample": 0}, BullsCowsError, "sample of 0"),
        ({"sample": 3, "secrets": np.array([1])}, BullsCowsError, "not both"),
        ({"max_guesses": 0}, BullsCowsError, "max guesses 0"),
        ({"jobs": 0}, BullsCowsError, "jobs 0"),
        ({"jobs": 2, "scheduler": "tcp://x:1"}, BullsCowsError, "one of"),
    ],
)
def test_bad_options(options: dict[str, Any], error: type[Exception], quoted: str) -> None:
    with pytest.raises(error, match=quoted):
        run_bench(MM, ["simple"], **options)


def test_unknown_strategy() -> None:
    with pytest.raises(StrategyError, match="'knuth'"):
        run_bench(MM, ["knuth"])


def test_unreachable_scheduler_is_a_clean_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dask_tasks, "SCHEDULER_TIMEOUT", 1.0)
    with pytest.raises(BullsCowsError, match=re.escape("scheduler 'tcp://127.0.0.1:9': nothing")):
        run_bench(TINY, ["simple"], scheduler="tcp://127.0.0.1:9")


# --- executors ----------------------------------------------------------------------------------


def test_jobs_spread_over_local_processes(serial: list[Any]) -> None:
    assert runs(jobs=2) == serial


def test_a_given_executor(serial: list[Any]) -> None:
    with ThreadPoolExecutor(2) as pool:
        assert runs(executor=pool) == serial
        # The pool is the caller's: still open after the runs.
        assert pool.submit(sum, [1, 2]).result() == 3


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


def test_a_dask_cluster(serial: list[Any], scheduler: str) -> None:
    assert runs(scheduler=scheduler) == serial


#: A small variant for the strategies that take no depth cap.
P4C4R = Rules.parse("p4c4r")


@pytest.mark.parametrize("how", ["serial", "executor", "jobs", "scheduler"])
def test_max_depth_reaches_every_executor(how: str, request: pytest.FixtureRequest) -> None:
    # Mastermind's optimal tree needs 6 guesses for two secrets; within 5 it costs one more.
    # Each worker makes the strategy again: without the cap it would follow another tree.
    with ThreadPoolExecutor(2) as pool:
        spread: dict[str, Any] = {
            "serial": {},
            "executor": {"executor": pool},
            "jobs": {"jobs": 2},
            "scheduler": {"scheduler": request.getfixturevalue("scheduler")}
            if how == "scheduler"
            else {},
        }[how]
        (capped,) = run_bench(MM, ["optimal"], max_depth=5, **spread).results
    (uncapped,) = run_bench(MM, ["optimal"]).results
    assert (uncapped.total, uncapped.worst) == (5625, 6)
    assert (capped.name, capped.total, capped.worst) == ("optimal (at most 5 guesses)", 5626, 5)


def test_max_depth_only_for_strategies_that_take_it() -> None:
    with pytest.raises(StrategyError, match="applies to the optimal strategies, not 'minimax'"):
        run_bench(P4C4R, ["optimal", "minimax"], max_depth=4)


# --- output -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def report() -> BenchReport:
    return run_bench(MM, ["minimax", "simple"])


def test_json_shape(report: BenchReport) -> None:
    data = json.loads(json.dumps(report.to_json()))
    assert data["rules"] == "mm"
    minimax, simple = data["strategies"]
    fields = {"name", "total", "average", "worst", "at_worst", "distribution", "secrets"}
    assert fields | {"unsolved", "seconds"} <= set(minimax)
    assert minimax["distribution"] == {str(k): v for k, v in KNUTH.items()}
    assert (minimax["name"], minimax["total"], minimax["worst"]) == ("minimax", 5801, 5)
    assert simple["name"] == "simple"


def test_csv_shape(report: BenchReport) -> None:
    rows = list(csv.DictReader(io.StringIO(report.to_csv())))
    assert [row["name"] for row in rows] == ["minimax", "simple"]
    assert rows[0]["rules"] == "mm"
    assert (rows[0]["total"], rows[0]["worst"], rows[0]["at_worst"]) == ("5801", "5", "694")
    assert rows[0]["distribution"] == "1:1 2:6 3:62 4:533 5:694"


@pytest.mark.parametrize(("suffix", "magic"), [(".png", b"\x89PNG"), (".svg", b"<svg")])
def test_plot(report: BenchReport, tmp_path: Path, suffix: str, magic: bytes) -> None:
    path = tmp_path / f"chart{suffix}"
    plot_report(report, path)
    assert path.stat().st_size > 1000
    assert magic in path.read_bytes()[:1000]


def test_plot_refuses_other_formats(report: BenchReport, tmp_path: Path) -> None:
    with pytest.raises(BullsCowsError, match=r"'.*chart\.txt'.*\.png or \.svg"):
        plot_report(report, tmp_path / "chart.txt")
    assert not (tmp_path / "chart.txt").exists()


def test_plot_buckets_a_long_tail(tmp_path: Path) -> None:
    tail = StrategyResult.from_counts("blind", np.array([1, 3, 40, 900, 5000]), 0.0)
    short = StrategyResult.from_counts("smart", np.array([1, 2, 3, 4, 4]), 0.0)
    plot_report(BenchReport(MM, (short, tail)), tmp_path / "tail.png")
    groups = chart_groups(5000, 4)
    assert groups[:4] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert len(groups) < 20 and groups[-1][1] == 5000
    # The groups cover every count once.
    assert [a for a, _ in groups[1:]] == [b + 1 for _, b in groups[:-1]]
