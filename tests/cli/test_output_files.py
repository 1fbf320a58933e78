"""Every option naming a file to write is checked as the options are read, before any work:
its ending names a form the command writes (else a bad option value, exit 2) and its folder
exists (else the one line that writing it would give, exit 1; no folder is made)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bullscows import atomic
from bullscows.cli import main
from bullscows.search.checkpoint import Checkpoint


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


@pytest.mark.parametrize(
    ("args", "what"),
    [
        (["bench", "--rules", "p2c3n", "--plot"], "chart"),
        (["tree", "--rules", "p2c3n", "--out"], "tree"),
        (["tree", "--rules", "p2c3n", "--strategy", "optimal", "--checkpoint"], "checkpoint"),
        (["card", "--rules", "bc", "--out"], "card"),
    ],
)
def test_a_folder_named_as_the_file_to_write_is_refused_before_the_run(
    args: list[str], what: str
) -> None:
    """One line in the project's words (not click's 'File ... is a directory'), before any
    work, and nothing is written into the folder."""
    name = "out.svg" if what == "chart" else "out.json"
    Path(name).mkdir()
    result = run(*args, name)
    assert result.exit_code == 1, result.output
    assert result.stderr == (
        f"Error: cannot write the {what} to {name!r}: it is a folder; give a file's name\n"
    )
    assert list(Path(name).iterdir()) == []


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


@pytest.fixture
def no_part_file(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The current folder refuses every part file (as a folder without write permission
    does, which root may write to anyway): the files there whose part file was asked for."""
    asked: list[Path] = []
    here, part_path = Path().resolve(), atomic.part_path

    def refused(path: Path) -> Path:
        if path.parent != here:
            return part_path(path)  # the cache's, elsewhere
        asked.append(path)
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(atomic, "part_path", refused)
    return asked


def test_an_existing_checkpoint_is_appended_to_where_no_file_can_be_made(
    no_part_file: list[Path],
) -> None:
    # A checkpoint is appended to where it is: no part file is made beside it, so a folder
    # refusing new files refuses a new checkpoint alone, not one to resume (nor a tree).
    Checkpoint(Path("mm.ckpt"), "mm", "total", None, False)
    optimal = ["tree", "--rules", "mm", "--strategy", "optimal"]
    result = run(*optimal, "--checkpoint", "mm.ckpt")
    assert result.exit_code == 0, result.output
    # Only the file of the sets a stop would keep was tried (refused: none kept, search on).
    assert no_part_file == [Path("mm.ckpt.sets").resolve()]
    assert Path("mm.ckpt").read_text().count("\n") > 1  # its answers appended
    no_part_file.clear()
    result = run(*optimal, "--checkpoint", "new.ckpt")
    assert result.exit_code == 1, result.output
    assert result.stderr == "Error: cannot write the checkpoint to 'new.ckpt': Permission denied\n"
    assert no_part_file == [Path("new.ckpt").resolve()] and not Path("new.ckpt").exists()
    result = run(*optimal, "--out", "mm.json")
    assert result.exit_code == 1 and "cannot write the tree to 'mm.json'" in result.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root makes a file in any folder")
def test_a_checkpoint_in_a_folder_without_write_permission_resumes(tmp_path: Path) -> None:
    folder = tmp_path / "kept"
    folder.mkdir()
    Checkpoint(folder / "p2c3n.ckpt", "p2c3n", "total", None, False)
    folder.chmod(0o555)
    try:
        args = ["tree", "--rules", "p2c3n", "--strategy", "optimal", "--checkpoint"]
        result = run(*args, str(folder / "p2c3n.ckpt"))
        assert result.exit_code == 0, result.output
    finally:
        folder.chmod(0o755)
