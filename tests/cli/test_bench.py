"""``bullscows bench``, run in-process."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bullscows import Rules
from bullscows.bench import quick_strategies
from bullscows.cli import main
from bullscows.strategies import STRATEGIES

TWO = ("bench", "--rules", "mm", "--strategy", "minimax", "--strategy", "simple")


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), env={"COLUMNS": "200", "NO_COLOR": "1"})


def row(lines: list[str], name: str) -> list[str]:
    """The cells of a strategy's row (cells are two or more spaces apart)."""
    line = next(line for line in lines if line.startswith(f"{name} "))
    return re.split(r"\s{2,}", line.strip())


def test_table() -> None:
    result = run(*TWO)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "mm: 4 symbols of 1-6, repeats allowed (all 1,296 secrets)" in lines[0]
    header = next(line for line in lines if "strategy" in line)
    for column in ("total", "average", "worst", "at worst", "distribution", "seconds"):
        assert column in header
    minimax = row(lines, "minimax")
    assert minimax[:6] == ["minimax", "5,801", "4.476", "5", "694", "1:1 2:6 3:62 4:533 5:694"]
    assert float(minimax[6]) >= 0
    assert row(lines, "simple")[:2] == ["simple", "7,471"]
    assert "Traceback" not in result.output


def test_json() -> None:
    result = run(*TWO, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["rules"] == "mm"
    minimax, simple = data["strategies"]
    fields = {"name", "total", "average", "worst", "at_worst", "distribution", "secrets"}
    assert fields | {"unsolved", "seconds"} <= set(minimax)
    assert (minimax["name"], minimax["total"], minimax["worst"], minimax["at_worst"]) == (
        "minimax",
        5801,
        5,
        694,
    )
    assert minimax["distribution"] == {"1": 1, "2": 6, "3": 62, "4": 533, "5": 694}
    assert (simple["name"], simple["secrets"]) == ("simple", 1296)


def test_csv() -> None:
    result = run(*TWO, "--csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(row["name"], row["total"]) for row in rows] == [
        ("minimax", "5801"),
        ("simple", "7471"),
    ]


def test_all_strategies_on_a_tiny_variant_as_json() -> None:
    result = run("bench", "--rules", "p3c4n", "--strategy", "all", "--seed", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    names = [s["name"] for s in data["strategies"]] + [s["name"] for s in data["skipped"]]
    assert sorted(names) == sorted(STRATEGIES)
    assert all(s["secrets"] == 24 for s in data["strategies"])


def test_sample_and_seed_are_reproducible() -> None:
    args = ("bench", "--rules", "mm", "--strategy", "random-consistent", "--sample", "40")
    first = json.loads(run(*args, "--seed", "5", "--json").stdout)
    again = json.loads(run(*args, "--seed", "5", "--json").stdout)
    assert first["strategies"][0]["distribution"] == again["strategies"][0]["distribution"]
    assert first["sample"] == 40 and first["strategies"][0]["secrets"] == 40


def test_plot(tmp_path: Path) -> None:
    path = tmp_path / "out.png"
    result = run(*TWO, "--plot", str(path))
    assert result.exit_code == 0, result.output
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "5,801" in result.stdout
    assert str(path) in result.stderr


def test_max_depth() -> None:
    both = ("--strategy", "optimal", "--strategy", "optimal-worst")
    result = run("bench", "--rules", "p4c4r", *both, "--max-depth", "4", "--json")
    assert result.exit_code == 0, result.output
    figures = [(s["name"], s["total"], s["worst"]) for s in json.loads(result.stdout)["strategies"]]
    assert figures == [
        ("optimal (at most 4 guesses)", 905, 4),
        ("optimal-worst (at most 4 guesses)", 905, 4),
    ]


@pytest.mark.parametrize(
    ("options", "quoted"),
    [
        (["--strategy", "knuth"], "'knuth'"),
        (["--strategy", "minimax", "--max-depth", "4"], "not 'minimax'"),
        (["--strategy", "optimal", "--strategy", "simple", "--max-depth", "4"], "not 'simple'"),
        (["--max-depth", "4"], "applies to the optimal strategies"),
        (["--strategy", "optimal", "--max-depth", "0"], "--max-depth"),
        (["--strategy", "minimax", "--plot", "out.txt"], "'out.txt'"),
        (["--strategy", "minimax", "--json", "--csv"], "--json or --csv"),
        (["--strategy", "minimax", "--jobs", "2", "--scheduler", "tcp://x:1"], "not both"),
        (["--jobs", "0"], "--jobs"),
        (["--sample", "0"], "--sample"),
        (["--rules", "zz"], "'zz'"),
    ],
)
def test_bad_options_exit_2(options: list[str], quoted: str) -> None:
    result = run("bench", "--rules", "p3c4n", *options)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1 and quoted in errors[0], result.stderr
    assert "Traceback" not in result.output


def test_help() -> None:
    result = run("bench", "--help")
    assert result.exit_code == 0
    for option in ("--strategy", "--consistent-only", "--max-depth", "--sample", "--seed"):
        assert option in result.stdout
    for option in (
        "--max-guesses",
        "--jobs",
        "--scheduler",
        "--json",
        "--csv",
        "--plot",
        "--rules",
    ):
        assert option in result.stdout


# --- what runs by default, what is said before it starts, and what ends it -------------------


def test_default_plays_what_needs_no_search_and_says_so_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An empty cache: what the default leaves out depends on which trees are cached.
    monkeypatch.setenv("BULLSCOWS_CACHE", str(tmp_path))
    result = CliRunner().invoke(main, ["bench", "--rules", "mm", "--seed", "1"])
    assert result.exit_code == 0, result.output
    announced = result.stderr.splitlines()
    assert announced[0].startswith("Playing 11 strategies over all 1,296 secrets of mm (simple")
    assert announced[0].endswith(": about a second.")
    assert announced[1] == (
        "Left out: optimal-worst-count (searches for its tree first), optimal-total-worst "
        "(searches for its tree first): name one with --strategy, or give --strategy all."
    )
    names = [line.split()[0] for line in result.stdout.splitlines()[2:-1]]
    assert "optimal" in names and "minimax" in names and "card" in names
    assert "optimal-worst-count" not in names
    # The announcement comes before the table (stderr first, in the merged output).
    assert result.output.index("Playing") < result.output.index("strategy ")


def test_the_default_leaves_out_what_would_take_long() -> None:
    result = CliRunner().invoke(main, ["bench", "--rules", "bc", "--sample", "20", "--json"])
    assert result.exit_code == 0, result.output
    names = [s["name"] for s in json.loads(result.stdout)["strategies"]]
    assert "cows" in names  # over 20 secrets, quick
    assert "Left out: cows" not in result.stderr
    quick, left_out = quick_strategies(Rules.parse("bc"))  # over every secret, not
    assert ("cows", "about 25 s") in [(s.name, why) for s, why in left_out]
    assert "cows" not in [s.name for s in quick]


def test_quiet_says_nothing_on_stderr() -> None:
    result = CliRunner().invoke(main, [*TWO, "--quiet"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


def test_a_strategy_that_searches_is_announced_as_such(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["bench", "--rules", "p3c5n", "--strategy", "optimal-worst-count", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert "optimal-worst-count: no tree shipped or cached for p3c5n: searched first" in (
        result.stderr
    )
    assert json.loads(result.stdout)["strategies"][0]["secrets"] == 60


def test_nothing_played_is_an_error_that_says_why(tmp_path: Path) -> None:
    tree = tmp_path / "mm-minimax.json"
    made = CliRunner().invoke(main, ["tree", "--rules", "mm", "--out", str(tree)])
    assert made.exit_code == 0, made.output
    result = CliRunner().invoke(main, ["bench", "--rules", "bc", "--strategy", f"tree:{tree}"])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "Error: nothing was played on bc: tree:" in result.stderr
    assert "is for mm, not bc" in result.stderr
    # With another strategy played, the one left unplayed is a note on stderr, status 0.
    both = CliRunner().invoke(
        main,
        ["bench", "--rules", "p3c4n", "--strategy", f"tree:{tree}", "--strategy", "simple", "-q"],
    )
    assert (both.exit_code, both.stdout.count("simple")) == (0, 1), both.output
    assert "not played: tree file" in both.stderr


def test_a_table_written_to_a_file_is_whole_whatever_the_width() -> None:
    strategies = ["--strategy", "minimax", "--strategy", "random"]
    result = CliRunner().invoke(
        main, ["bench", "--rules", "mm", *strategies, "--seed", "1"], env={"COLUMNS": "60"}
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 5  # title, header, two rows, caption: nothing wrapped
    assert lines[1].split()[-1] == "seconds"
    for line in lines[2:4]:
        float(line.split()[-1])  # every row has its seconds
    assert row(lines, "minimax")[5] == "1:1 2:6 3:62 4:533 5:694"


@pytest.mark.parametrize(
    ("name", "ending"),
    [
        ("psychic", "card:FILE.json (or all)"),  # the list of names, then the other choice
        ("card:none.json", "cannot read card file 'none.json': No such file or directory"),
        ("tree:", "give the tree file, e.g. tree:mm.json"),
    ],
)
def test_a_strategy_refused_ends_with_its_own_reason(name: str, ending: str) -> None:
    result = run("bench", "--rules", "p3c4n", "--strategy", name)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1].endswith(ending), result.stderr
