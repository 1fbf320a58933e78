"""Every option naming a file to write is checked as the options are read, before any work:
its ending names a form the command writes (else a bad option value, exit 2) and its folder
exists (else the one line that writing it would give, exit 1; no folder is made)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bullscows.cli import main


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize(
    ("args", "named"),
    [
        # an optimal search of bc takes an hour: refused before it starts
        (["tree", "--rules", "bc", "--strategy", "optimal", "--out", "x.unknown"],
         "'x.unknown': name it with .json, .json.gz or .txt"),
        (["tree", "--rules", "mm", "--out", "x.gz"], "name it with .json, .json.gz or .txt"),
        (["tree", "--rules", "mm", "--out", "x"], "'x': name it with .json, .json.gz or .txt"),
        (["card", "--rules", "mm", "--out", "card.pdf"], "'card.pdf': name it with .json"),
        (["card", "--rules", "mm", "--format", "svg", "--out", "card.pdf"],
         "'card.pdf': name it with .svg"),
        (["bench", "--rules", "p2c3n", "--plot", "chart.gif"], "name it with .png or .svg"),
    ],
)  # fmt: skip
def test_an_unknown_ending_is_refused_before_any_work(args: list[str], named: str) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    last = result.stderr.splitlines()[-1]
    assert last.startswith("Error: Invalid value for '--")
    assert last.endswith(named)
    assert "Searching" not in result.stderr and "Playing" not in result.stderr
    assert list(Path().iterdir()) == []


@pytest.mark.parametrize(
    ("args", "what"),
    [
        (["tree", "--rules", "bc", "--strategy", "optimal", "--out", "no/such/x.json"], "tree"),
        (["tree", "--rules", "bc", "--strategy", "optimal", "--checkpoint", "no/such/x.ckpt"],
         "checkpoint"),
        (["card", "--rules", "mm", "--out", "no/such/x.json"], "card"),
        (["bench", "--rules", "p2c3n", "--plot", "no/such/x.svg"], "chart"),
        (["bench", "--rules", "p2c3n", "--plot", "/proc/no-such/x.svg"], "chart"),
    ],
)  # fmt: skip
def test_a_missing_folder_is_one_line_and_no_folder_is_made(args: list[str], what: str) -> None:
    result = run(*args)
    assert result.exit_code == 1, result.output
    path = args[-1]
    assert result.stderr.splitlines() == [
        f"Error: cannot write the {what} to {path!r}: No such file or directory"
    ]
    assert not Path("no").exists()


def test_a_chart_refused_on_writing_is_named_as_before_the_run() -> None:
    result = run("bench", "--rules", "p2c3n", "--plot", "/proc/x.svg")
    assert result.exit_code == 1, result.output
    last = "Error: cannot write the chart to '/proc/x.svg': No such file or directory"
    assert result.stderr.splitlines()[-1] == last


def test_a_file_in_place_of_the_folder_is_named_too() -> None:
    Path("file").write_text("")
    result = run("tree", "--rules", "mm", "--out", "file/x.json")
    assert result.exit_code == 1
    assert result.stderr == "Error: cannot write the tree to 'file/x.json': Not a directory\n"


@pytest.mark.parametrize("name", ["mm.json", "mm.json.gz", "mm.txt"])
def test_each_ending_of_a_tree_is_written(name: str) -> None:
    Path("trees").mkdir()
    result = run("tree", "--rules", "mm", "--out", f"trees/{name}")
    assert result.exit_code == 0, result.output
    assert run("tree", "--check", f"trees/{name}", "--rules", "mm").exit_code == 0
