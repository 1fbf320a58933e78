"""``bullscows tree``, and playing a saved tree with ``--strategy tree:FILE``, run in-process."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bullscows import Rules
from bullscows.cli import main
from bullscows.tree import load_tree

from .conftest import python, reply

MM = Rules.parse("mm")


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(
        main, list(args), input=input, env={"COLUMNS": "200", "NO_COLOR": "1"}
    )


@pytest.fixture(scope="module")
def mm_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("trees") / "mm.json"
    result = run("tree", "--rules", "mm", "--strategy", "minimax", "--out", str(path))
    assert result.exit_code == 0, result.output
    assert f"Tree written to {path}" in result.stderr
    return path


def test_summary_lines() -> None:
    result = run("tree", "--rules", "mm")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "mm: 4 symbols of 1-6, repeats allowed (1,296 secrets)"
    cells = {line.split()[0]: line.split(maxsplit=1)[1] for line in lines[1:]}
    assert cells["strategy"] == "minimax"
    assert cells["total"] == "5,801"
    assert cells["worst"] == "5"
    assert cells["distribution"] == "1:1 2:6 3:62 4:533 5:694"
    assert cells["nodes"] == "1,378"


def test_json_summary_uses_the_bench_field_names() -> None:
    result = run("tree", "--rules", "p2c3n", "--strategy", "simple", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["name"] == "simple"
    assert data["rules"] == "p2c3n"
    assert (data["total"], data["worst"], data["at_worst"], data["secrets"]) == (13, 3, 2, 6)
    assert data["distribution"] == {"1": 1, "2": 3, "3": 2}
    assert data["nodes"] == 6


def test_out_writes_a_valid_tree(mm_file: Path) -> None:
    data = json.loads(mm_file.read_text())
    assert data["format"] == "bullscows-tree"
    assert data["tree"]["guess"] == "1122"
    result = run("tree", "--check", str(mm_file))
    assert result.exit_code == 0, result.output
    assert "a valid tree of minimax on mm" in result.stdout
    assert "total 5,801" in result.stdout


def test_compressed_tree_files(tmp_path: Path) -> None:
    path = tmp_path / "mm.json.gz"
    result = run("tree", "--rules", "mm", "--out", str(path))
    assert result.exit_code == 0, result.output
    assert json.loads(gzip.decompress(path.read_bytes()))["summary"]["total"] == 5801
    checked = run("tree", "--check", str(path))
    assert checked.exit_code == 0, checked.output
    assert "a valid tree of minimax on mm" in checked.stdout
    played = run("solve", "--plain", "--rules", "mm", "--strategy", f"tree:{path}", input="")
    assert played.stdout.splitlines() == ["1122"]


def test_check_json_report(mm_file: Path) -> None:
    result = run("tree", "--check", str(mm_file), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["valid"] is True
    assert report["problems"] == []
    assert report["summary"]["total"] == 5801


def test_check_a_corrupted_tree_exits_1(mm_file: Path, tmp_path: Path) -> None:
    data = json.loads(mm_file.read_text())
    del data["tree"]["replies"]["0 4"]
    data["summary"]["total"] = 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = run("tree", "--check", str(bad))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "not a valid tree" in result.stderr
    assert "'0 4'" in result.stderr and "no branch" in result.stderr
    as_json = run("tree", "--check", str(bad), "--json")
    assert as_json.exit_code == 1
    report = json.loads(as_json.stdout)
    assert report["valid"] is False and report["summary"] is None
    assert any("'0 4'" in problem for problem in report["problems"])


def test_check_a_file_that_is_not_a_tree(tmp_path: Path) -> None:
    bad = tmp_path / "bench.json"
    bad.write_text('{"rules": "mm", "strategies": []}')
    result = run("tree", "--check", str(bad))
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"Error: tree file {str(bad)!r} lacks 'format', 'version', 'strategy', 'objective' and "
        """'tree'; a tree file is a JSON object {"format": "bullscows-tree", "version": 1, """
        """"rules": "mm", "strategy": "minimax", "objective": "strategy", "tree": {"guess": """
        """"1122", "replies": {"0 0": {"guess": "3345", ...}, ...}}}, or Irving notation, or """
        "kunigami's list"
    ]
    missing = run("tree", "--check", str(tmp_path / "none.json"), "--json")
    assert missing.exit_code == 1
    assert "cannot read tree file" in json.loads(missing.stdout)["problems"][0]


def test_text_format() -> None:
    result = run("tree", "--rules", "mm", "--format", "text", "--depth", "2")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "1122"
    assert "  0 4 -> 2211" in lines
    assert "    ..." in lines
    styled = run("tree", "--rules", "p2c3n", "--format", "text", "--reply-style", "bc")
    assert styled.stdout.splitlines()[:2] == ["01", "  0B1C: 12"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--strategy", "random"], "is random: it has no decision tree"),
        (["--strategy", "random-consistent"], "is random"),
        (["--strategy", "psychic"], "unknown strategy 'psychic'"),
        (["--json", "--format", "text"], "not both"),
        (["--depth", "2"], "--depth goes with --format text"),
        (["--check", "x.json", "--out", "y.json"], "--check and --compare read trees"),
        (["--compare", "x.json", "y.json", "--format", "text"], "--compare read trees"),
        (["--check", "x.json", "--compare", "x.json", "y.json"], "--check or --compare"),
        (["--json", "--format", "irving"], "give --json or --format irving, not both"),
    ],
)
def test_usage_errors(args: list[str], message: str) -> None:
    result = run("tree", "--rules", "p2c3n", *args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_a_tree_for_another_variant_is_refused(mm_file: Path) -> None:
    result = run("tree", "--rules", "bc", "--strategy", f"tree:{mm_file}")
    assert result.exit_code == 2
    assert "tree file mm.json is for mm, not bc" in result.stderr


def test_help() -> None:
    result = run("tree", "--help")
    assert result.exit_code == 0
    for option in ("--out", "--check", "--format", "--depth", "--json", "--strategy"):
        assert option in result.stdout


@pytest.mark.parametrize("secret", ["1122", "6543", "3456"])
def test_solve_plays_a_saved_tree(mm_file: Path, secret: str) -> None:
    args = ["solve", "--plain", "--rules", "mm", "--strategy", f"tree:{mm_file}"]
    replies: list[str] = []
    for _ in range(6):
        result = run(*args, input="".join(f"{r}\n" for r in replies))
        guesses = result.stdout.splitlines()
        if result.exit_code == 0:
            assert guesses[-1] == secret
            assert len(guesses) <= 5
            return
        assert "input ended" in result.stderr, result.output
        bulls, cows = reply(secret, guesses[-1], MM)
        replies.append(f"{bulls} {cows}")
    raise AssertionError(f"not solved: {replies}")


def test_tree_from_a_tree_is_the_same(mm_file: Path, tmp_path: Path) -> None:
    again = tmp_path / "again.json"
    result = run("tree", "--rules", "mm", "--strategy", f"tree:{mm_file}", "--out", str(again))
    assert result.exit_code == 0, result.output
    first, second = json.loads(mm_file.read_text()), json.loads(again.read_text())
    assert second["strategy"] == "tree:mm.json"
    assert first["tree"] == second["tree"] and first["summary"] == second["summary"]


def test_bench_plays_a_saved_tree(mm_file: Path) -> None:
    result = CliRunner().invoke(
        main,
        [
            "bench",
            "--rules",
            "mm",
            "--strategy",
            f"tree:{mm_file}",
            "--strategy",
            "minimax",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["strategies"]
    assert [r["total"] for r in rows] == [5801, 5801]
    assert rows[0]["distribution"] == rows[1]["distribution"]
    bad = CliRunner().invoke(main, ["bench", "--rules", "mm", "--strategy", "tree:nowhere.json"])
    assert bad.exit_code == 2


def test_optimal_tree_is_searched_with_jobs_and_a_checkpoint(tmp_path: Path) -> None:
    checkpoint, out = tmp_path / "mm.ckpt", tmp_path / "mm.json"
    args = ["tree", "--rules", "mm", "--strategy", "optimal", "--jobs", "2"]
    result = run(*args, "--checkpoint", str(checkpoint), "--out", str(out))
    assert result.exit_code == 0, result.output
    cells = {line.split()[0]: line.split(maxsplit=1)[1] for line in result.stdout.splitlines()[1:]}
    assert cells["total"] == "5,625"
    header, *answers = checkpoint.read_text().splitlines()
    assert json.loads(header)["rules"] == "mm" and answers
    assert run("tree", "--check", str(out)).exit_code == 0
    # Resumed from the finished checkpoint: the same tree.
    again = run("tree", "--rules", "mm", "--strategy", "optimal", "--checkpoint", str(checkpoint))
    assert again.exit_code == 0, again.output
    assert again.stdout == result.stdout
    other = run(
        "tree", "--rules", "mm", "--strategy", "optimal-worst", "--checkpoint", str(checkpoint)
    )
    assert other.exit_code == 1
    assert other.stderr.count("\n") == 1 and "is for another search" in other.stderr


@pytest.mark.parametrize(
    ("strategy", "jobs", "figures"),
    [
        ("optimal-worst-count", "2", (5627, 5, 539)),  # Slovesnov's 539 secrets at 5 guesses
        ("optimal-total-worst", "1", (5625, 6, 2)),
    ],
)
def test_lexicographic_trees_pass_the_checker(
    strategy: str, jobs: str, figures: tuple[int, int, int], tmp_path: Path
) -> None:
    out = tmp_path / "mm.json"
    args = ["tree", "--rules", "mm", "--strategy", strategy, "--jobs", jobs, "--out", str(out)]
    result = run(*args)
    assert result.exit_code == 0, result.output
    checked = run("tree", "--check", str(out), "--json")
    assert checked.exit_code == 0, checked.output
    report = json.loads(checked.stdout)
    assert report["valid"] is True
    summary = report["summary"]
    assert (summary["total"], summary["worst"], summary["at_worst"]) == figures
    assert f"a valid tree of {strategy} on mm" in run("tree", "--check", str(out)).stdout


@pytest.mark.parametrize(
    "extra", [["--jobs", "2"], ["--checkpoint", "x.ckpt"], ["--scheduler", "tcp://nowhere:1"]]
)
def test_search_options_need_an_optimal_strategy(extra: list[str]) -> None:
    result = run("tree", "--rules", "mm", "--strategy", "minimax", *extra)
    assert result.exit_code == 2
    assert "go with the optimal strategies" in result.stderr


def test_jobs_and_scheduler_together_are_refused() -> None:
    args = ["--jobs", "2", "--scheduler", "tcp://nowhere:1"]
    result = run("tree", "--rules", "mm", "--strategy", "optimal", *args)
    assert result.exit_code == 2
    assert "not both" in result.stderr


def test_irving_notation_out_check_and_play(mm_file: Path, tmp_path: Path) -> None:
    text = tmp_path / "mm.txt"
    result = run("tree", "--rules", "mm", "--strategy", "minimax", "--out", str(text))
    assert result.exit_code == 0, result.output
    assert text.read_text().startswith("# rules: mm\n# strategy: minimax\n")
    printed = run("tree", "--rules", "mm", "--strategy", "minimax", "--format", "irving")
    assert printed.stdout == text.read_text()
    result = run("tree", "--check", str(text))
    assert result.exit_code == 0, result.output
    assert "a valid tree of minimax on mm: 1,296 secrets, total 5,801, worst 5" in result.stdout
    # Without its header the file is read for --rules, in every command that takes a tree.
    bare = tmp_path / "bare.txt"
    bare.write_text("".join(line for line in text.read_text().splitlines(True) if line[0] != "#"))
    refused = run("tree", "--check", str(bare))  # read as bc, the default: its counts differ
    assert refused.exit_code == 1
    assert "line 1: the situation at the root has 5,040 codes, not 1,296" in refused.stderr
    assert run("tree", "--rules", "mm", "--check", str(bare)).exit_code == 0
    played = run("solve", "--rules", "mm", "--strategy", f"tree:{bare}", "--plain",
                 input="0 1\n0 2\n1 1\n4 0\n")  # fmt: skip
    assert played.exit_code == 0 and played.stdout.split() == ["1122", "2344", "3235", "3413"]
    again = tmp_path / "again.json"
    result = run("tree", "--rules", "mm", "--strategy", f"tree:{bare}", "--out", str(again))
    assert result.exit_code == 0, result.output
    assert load_tree(again).root == load_tree(mm_file).root


def test_compare_two_trees(mm_file: Path, tmp_path: Path) -> None:
    other = tmp_path / "entropy.json"
    assert run("tree", "--rules", "mm", "--strategy", "entropy", "--out", str(other)).exit_code == 0
    result = run("tree", "--compare", str(mm_file), str(other))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "mm: 4 symbols of 1-6, repeats allowed (1,296 secrets)"
    assert lines[3].split() == ["strategy", "minimax", "entropy"]
    assert lines[4].split() == ["total", "5,801", "5,722"]
    assert "First difference: at the root: the first guesses 1122, the second 1234" in lines
    data = json.loads(run("tree", "--compare", str(mm_file), str(other), "--json").stdout)
    assert (data["a"]["total"], data["b"]["total"]) == (5801, 5722)
    assert sum(c["b"] - c["a"] for c in data["changed"]) == 5722 - 5801
    same = run("tree", "--compare", str(mm_file), str(mm_file))
    assert "First difference: none, the trees are the same" in same.stdout
    bc = tmp_path / "bc.json"
    assert run("tree", "--strategy", "simple", "--out", str(bc)).exit_code == 0
    refused = run("tree", "--compare", str(mm_file), str(bc))
    assert refused.exit_code == 1 and "different variants" in refused.stderr


LOADED = """
import sys
from bullscows.cli import main
main({args!r}, standalone_mode=False)
from numba.core.dispatcher import Dispatcher
loaded = sorted(
    name + "." + attr
    for name, module in list(sys.modules.items())
    if name.startswith("bullscows._kernels")
    for attr, value in vars(module).items()
    if isinstance(value, Dispatcher) and value.signatures
)
print(" ".join(loaded), file=sys.stderr)
print(*(m in sys.modules for m in {modules!r}), file=sys.stderr)
"""


@pytest.mark.parametrize(
    "args",
    [
        ["tree", "--rules", "bc", "--strategy", "entropy"],
        ["tree", "--rules", "p4c8n", "--strategy", "optimal"],
    ],
    ids=["heuristic", "optimal"],
)
def test_a_tree_command_loads_only_what_it_needs(args: list[str], tmp_path: Path) -> None:
    """A whole process pays for every compiled function it loads from numba's cache and
    every module it imports: a heuristic's small tree and a small search load none (their
    kernels are compiled ahead of time: ``test_ahead_of_time``, ``test_search_ahead``); no
    tree command imports the process pools (a search on one process), rich or the tree
    comparison."""
    modules = ["concurrent.futures", "rich", "bullscows.tree.compare"]
    env = {**os.environ, "BULLSCOWS_CACHE": str(tmp_path)}  # no searched tree kept from before
    completed = python("-c", LOADED.format(args=args, modules=modules), env=env, timeout=300)
    assert completed.returncode == 0, completed.stderr
    loaded, imported = completed.stderr.rstrip("\n").split("\n")[-2:]
    assert loaded.split() == []
    if args[-1] != "optimal":  # a search imports the executors' module for its type hints
        assert imported.split() == ["False"] * len(modules)


def test_check_a_file_that_cannot_be_read_is_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    result = run("tree", "--check", str(missing))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"Error: cannot read tree file {str(missing)!r}: No such file or directory"
    ]


def _broken(good: bytes) -> dict[str, bytes]:
    """Tree files broken in the ways a researcher's files break, made from a good one."""
    data = json.loads(good)
    impossible = json.loads(good)
    impossible["tree"]["replies"]["3 1"] = {"guess": "1234"}
    leaf = json.loads(good)
    leaf["tree"]["replies"]["0 0"] = {"guess": "1234", "replies": []}
    packed = gzip.compress(good)
    return {
        "not JSON": b"guess 1122, then 3345\n",
        "empty": b"",
        "no format": json.dumps({k: v for k, v in data.items() if k != "format"}).encode(),
        "truncated": good[: len(good) // 2],
        "truncated gzip": packed[: len(packed) // 2],
        "gzip of garbage": gzip.compress(b"\xff\xfe garbage"),
        "wrong rules": json.dumps({**data, "rules": "bc"}).encode(),
        "unknown rules": json.dumps({**data, "rules": "zz"}).encode(),
        "impossible reply": json.dumps(impossible).encode(),
        "replies not an object": json.dumps(leaf).encode(),
        "bad summary": json.dumps({**data, "summary": {"total": "many"}}).encode(),
        "binary": bytes(range(256)),
    }


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        ("not JSON", "starts with 'guess 1122, then 334', not a tree; a tree file is"),
        ("empty", "starts with nothing, not a tree; a tree file is"),
        ("no format", "lacks 'format'; a tree file is a JSON object"),
        ("truncated", "line 1 is not JSON: Unterminated string"),
        ("truncated gzip", "the compressed data is cut short"),
        ("gzip of garbage", "is not UTF-8 text"),
        ("wrong rules", "at the root (rules 'bc'): code '1122': '1' appears twice"),
        ("unknown rules", "unknown rules 'zz'; expected a preset"),
        ("impossible reply", "reply key '3 1' at the root: 3 bulls and 1 cow cannot happen"),
        ("replies not an object", "'replies' at 1122 '0 0' must be an object"),
        ("bad summary", "tree summary"),
        ("binary", "is not UTF-8 text"),
    ],
)
def test_a_broken_tree_file_is_one_line(
    mm_file: Path, tmp_path: Path, kind: str, words: str
) -> None:
    bad = tmp_path / ("tree.json.gz" if "gzip" in kind else "tree.json")
    bad.write_bytes(_broken(mm_file.read_bytes())[kind])
    result = run("tree", "--check", str(bad))
    assert result.exit_code == 1 and result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith(f"Error: {'cannot read ' if 'truncated g' in kind else ''}tree file")
    assert words in line
    as_json = run("tree", "--check", str(bad), "--json")
    assert as_json.exit_code == 1
    [problem] = json.loads(as_json.stdout)["problems"]
    assert words in problem
