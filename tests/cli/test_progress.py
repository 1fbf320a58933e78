"""Live progress of the long runs (``cli.progress``): a heuristic's tree, the optimal search
and a sampled bench draw rich bars on stderr when it is a terminal (forced here, in this
process), and nothing when it is a pipe or with ``--quiet``; long work is announced first."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bullscows import Rules
from bullscows._kernels import tree_build
from bullscows.cli import main
from bullscows.search import reporting
from bullscows.search.optimal import optimal_tree
from bullscows.search.progress import SearchReport

tree = importlib.import_module("bullscows.cli.tree")  # the module, not its command
progress = importlib.import_module("bullscows.cli.progress")

#: A terminal that redraws, forced (rich draws no bar on 'dumb', nor to a pipe).
TERMINAL = {"TTY_COMPATIBLE": "1", "TERM": "xterm", "COLUMNS": "200", "NO_COLOR": "1"}
#: Standard error a pipe, as in a script.
PIPE = {"TTY_COMPATIBLE": "0", "COLUMNS": "200", "NO_COLOR": "1"}
P3 = Rules.parse("p3c10n")


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache of this test's: every search here searches, none reads a tree found before;
    progress reported at every set, however fast the search."""
    monkeypatch.setenv("BULLSCOWS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)


def run(args: list[str], env: dict[str, str]) -> Result:
    result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == 0, result.output
    return result


def test_the_search_shows_where_it_stands_on_a_terminal() -> None:
    result = run(["tree", "--rules", "p3c10n", "--strategy", "optimal"], TERMINAL)
    err = result.stderr
    assert "optimal on p3c10n, first guess 1 of 1: " in err
    assert "sets searched, lower bound" in err
    assert "left for this first guess" in err or "estimate unknown" in err
    assert "━" in err  # the bar of the first guess's codes settled
    assert "total         3,575" in result.stdout


@pytest.mark.parametrize("env", [PIPE, TERMINAL], ids=["piped", "quiet"])
def test_no_progress_when_piped_or_quiet(env: dict[str, str]) -> None:
    quiet = ["--quiet"] if env is TERMINAL else []
    result = run(["tree", "--rules", "p3c10n", "--strategy", "optimal", *quiet], env)
    assert result.stderr == ""
    result = run(["tree", "--rules", "mm", "--strategy", "minimax", *quiet], env)
    assert result.stderr == ""


def test_a_heuristic_tree_shows_the_codes_placed() -> None:
    result = run(["tree", "--rules", "mm", "--strategy", "minimax"], TERMINAL)
    assert "minimax tree" in result.stderr
    assert "1296/1296" in result.stderr  # its last report: every code placed
    assert "left" in result.stderr or "estimate unknown" in result.stderr


def test_long_work_is_announced_before_it_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tree, "ANNOUNCE_SECONDS", 0.0)  # mm's tree takes a second at most
    monkeypatch.setattr(progress, "ANNOUNCE_CODES", 0)
    built = run(["tree", "--rules", "mm", "--strategy", "minimax"], PIPE)
    assert built.stderr == "Building the minimax tree of mm (1,296 secrets): about a second.\n"
    args = ["tree", "--rules", "p3c10n", "--strategy", "optimal", "--time-limit", "60"]
    searched = run(args, PIPE)
    assert searched.stderr == (
        "Searching for the optimal tree of p3c10n (720 secrets): from seconds to hours, at "
        "most 60 s (Ctrl-C stops).\n"
    )
    assert run([*args, "--quiet"], PIPE).stderr == ""
    monkeypatch.setattr(progress, "ANNOUNCE_CODES", 721)  # a search of fewer codes: a second
    assert run(args, PIPE).stderr == ""


def test_a_sampled_bench_shows_its_bars_on_a_terminal() -> None:
    args = ["bench", "--rules", "mm", "--strategy", "random-consistent", "--sample", "200"]
    shown = run([*args, "--seed", "1"], TERMINAL)
    assert "random-consistent" in shown.stderr and "/200" in shown.stderr
    piped = run([*args, "--seed", "1"], PIPE)
    assert "/200" not in piped.stderr
    assert piped.stderr.startswith("Playing 1 strategy over 200 random secrets of mm")
    assert run([*args, "--quiet"], TERMINAL).stderr == ""


def test_the_reports_say_which_first_guess_and_how_many_codes_are_settled() -> None:
    reports: list[SearchReport] = []
    optimal_tree(P3, progress=reports.append)
    firsts = [r.first for r in reports if r.first is not None]
    assert firsts and all(1 <= k <= n for k, n in firsts)
    settled = [r.settled for r in reports if r.settled is not None]
    assert settled and all(0 <= done <= codes <= P3.size for done, codes in settled)
    assert max(done for done, _ in settled) > 0  # parts were settled as it went


def test_a_tree_build_reports_the_codes_placed(monkeypatch: pytest.MonkeyPatch) -> None:
    from bullscows.outcomes import build_tree
    from bullscows.strategies import get_strategy

    seen: list[tuple[int, int]] = []
    with tree_build.reporting(lambda placed, codes: seen.append((placed, codes))):
        build_tree(Rules.parse("bc"), get_strategy("minimax"))
    assert seen[-1] == (5040, 5040)
    assert [placed for placed, _ in seen] == sorted(placed for placed, _ in seen)
    reported = len(seen)
    build_tree(Rules.parse("mm"), get_strategy("minimax"))  # no longer reporting
    assert len(seen) == reported


@pytest.mark.parametrize("command", ["solve", "assist"])
def test_a_game_searches_first_with_its_progress_not_silently(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(progress, "ANNOUNCE_CODES", 0)
    args = [command, "--rules", "p3c10n", "--strategy", "optimal-worst", "--seed", "1"]
    shown = CliRunner().invoke(main, args, input="quit\n", env=TERMINAL)
    assert shown.stderr.startswith(
        "Searching for the optimal-worst tree of p3c10n (720 secrets): from seconds to hours "
        "(Ctrl-C stops).\n"
    )
    assert "optimal-worst: searching, first guess 1 of " in shown.stderr
    again = CliRunner().invoke(main, args, input="quit\n", env=PIPE)
    assert again.stderr == ""  # the tree is kept in the cache: nothing to search
