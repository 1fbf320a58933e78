"""Every option naming a file to write is checked as the options are read, before any work:
its ending names a form the command writes (else a bad option value, exit 2) and its folder
exists (else the one line that writing it would give, exit 1; no folder is made)."""

from __future__ import annotations

import os
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


def test_a_folder_named_as_the_chart_is_refused_before_the_run() -> None:
    Path("chart.svg").mkdir()
    result = run("bench", "--rules", "p2c3n", "--plot", "chart.svg")
    assert result.exit_code == 1, result.output
    assert result.stderr == "Error: cannot write the chart to 'chart.svg': Is a directory\n"
    assert list(Path("chart.svg").iterdir()) == []


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


@pytest.fixture
def unwritable(tmp_path: Path) -> Path:
    """A folder that exists and where no file can be made: one without write permission,
    or (root may write there) /sys, where even root makes no file; skipped if there is none."""
    if os.geteuid() != 0:
        folder = tmp_path / "kept"
        folder.mkdir()
        folder.chmod(0o555)
        return folder
    try:
        os.close(os.open("/sys/bullscows-probe", os.O_WRONLY | os.O_CREAT | os.O_EXCL))
    except OSError:
        return Path("/sys")
    os.unlink("/sys/bullscows-probe")
    pytest.skip("no folder here refuses a file to root")


@pytest.mark.parametrize(
    ("args", "what"),
    [
        (["tree", "--rules", "bc", "--strategy", "optimal", "--out", "x.json"], "tree"),
        (["tree", "--rules", "bc", "--strategy", "optimal", "--checkpoint", "x.ckpt"],
         "checkpoint"),
        (["card", "--rules", "bc", "--search", "--out", "x.json"], "card"),
        (["card", "--rules", "mm", "--format", "pdf", "--out", "x.pdf"], "card"),
        (["bench", "--rules", "p2c3n", "--plot", "x.svg"], "chart"),
    ],
)  # fmt: skip
def test_a_folder_where_no_file_can_be_made_is_refused_before_any_work(
    args: list[str], what: str, unwritable: Path
) -> None:
    # bc's optimal search takes an hour, its card's search minutes: each refused first.
    path = unwritable / args[-1]
    result = run(*args[:-1], str(path))
    assert result.exit_code == 1, result.output
    [line] = result.stderr.splitlines()
    assert line.startswith(f"Error: cannot write the {what} to {str(path)!r}: "), line
    assert not path.exists()
    assert not [p for p in unwritable.iterdir() if p.name.startswith("x.")]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes a file whatever its permissions")
def test_a_file_made_read_only_is_refused_not_replaced() -> None:
    kept = Path("kept.json")
    kept.write_text("a result kept read-only")
    kept.chmod(0o444)
    result = run("tree", "--rules", "bc", "--strategy", "optimal", "--out", "kept.json")
    assert result.exit_code == 1, result.output
    assert result.stderr == "Error: cannot write the tree to 'kept.json': Permission denied\n"
    assert kept.read_text() == "a result kept read-only"
    assert sorted(p.name for p in Path().iterdir()) == ["kept.json"]
