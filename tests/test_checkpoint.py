"""A search's checkpoint (``search.checkpoint``): an interrupted search resumes from it, in
this process or another, however the file was cut short; a file of another search is refused,
and an answer whose claimed cost its tree does not have is searched again."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bullscows import readers
from bullscows.errors import BullsCowsError
from bullscows.rules import Rules
from bullscows.search import OptimalResult, checkpoint, optimal_tree, reporting
from bullscows.search.checkpoint import Checkpoint
from bullscows.search.found import found_tree
from bullscows.search.optimal import SearchReport
from bullscows.tree import Node, load_tree

MM = Rules.parse("mm")


@pytest.fixture(scope="module")
def alone() -> dict[str, OptimalResult]:
    return {objective: optimal_tree(MM, objective) for objective in ("total", "worst")}


def test_an_interrupted_search_resumes_from_its_checkpoint(
    tmp_path: Path, alone: dict[str, OptimalResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)
    path = tmp_path / "mm.ckpt"
    answers: list[int] = []

    def stop_early(report: SearchReport) -> None:
        answers.append(entries(path))
        if answers[-1] >= 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as stopped:
        optimal_tree(MM, "total", progress=stop_early, checkpoint=path)
    kept = entries(path)
    assert 3 <= kept < 20
    reports: list[SearchReport] = []
    # Resumed in this process while the interrupt (and the frames of its search) is held:
    # the stopped search let its file go.
    assert stopped.traceback
    resumed = optimal_tree(MM, "total", progress=reports.append, checkpoint=path)
    assert resumed.tree == alone["total"].tree
    assert reports[0].resumed == kept
    # A finished search, run again, finds every answer in the file (it adds none).
    finished = path.read_text()
    again = optimal_tree(MM, "total", checkpoint=path)
    assert again.tree == alone["total"].tree
    assert path.read_text() == finished
    assert again.nodes < alone["total"].nodes


def test_a_checkpoint_is_read_past_the_cap_of_other_files(
    tmp_path: Path, alone: dict[str, OptimalResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checkpoint grows with its search (90 MB for ``bc-nolead`` in 45 minutes): it has a
    cap of its own, far above the one other files have."""
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)
    path = tmp_path / "mm.ckpt"
    optimal_tree(MM, "total", checkpoint=path)
    size = path.stat().st_size
    monkeypatch.setattr(readers, "MAX_FILE_BYTES", size // 2)
    reports: list[SearchReport] = []
    assert optimal_tree(MM, "total", progress=reports.append, checkpoint=path).tree == (
        alone["total"].tree
    )
    assert reports[0].resumed == entries(path)
    monkeypatch.setattr(checkpoint, "CHECKPOINT_BYTES", size // 2)
    with pytest.raises(BullsCowsError, match="is larger than"):
        optimal_tree(MM, "total", checkpoint=path)


def test_a_checkpoint_keeps_its_format_for_trees(tmp_path: Path) -> None:
    # Every node as {"guess": index, "replies": {"reply index": subtree}}, leaves included,
    # as files written before the search's trees were ``tree.Node`` values: they still read.
    path = tmp_path / "mm.ckpt"
    tree = Node(7, {3: Node(9), 12: Node(20, {0: Node(21)})})
    Checkpoint(path, "mm", "total", None, False).record(1, ((5, 2), (6, 1)), 4, 40, (8, tree))
    line = path.read_text().splitlines()[1]
    assert line == (
        '{"weight":1,"history":[[5,2],[6,1]],"depth":4,"window":40,"cost":8,"tree":'
        '{"guess":7,"replies":{"3":{"guess":9,"replies":{}},'
        '"12":{"guess":20,"replies":{"0":{"guess":21,"replies":{}}}}}}}'
    )
    found = Checkpoint(path, "mm", "total", None, False).answer(1, ((5, 2), (6, 1)), 4, 50)
    assert found == (8, tree) and type(found[1].branches[12]) is Node


def entries(path: Path) -> int:
    """The answers in a checkpoint file (a header line, then one line each)."""
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["format"] == "bullscows-search-checkpoint"
    return len(lines) - 1


def test_a_line_cut_short_by_an_interruption_is_ignored(
    tmp_path: Path, alone: dict[str, OptimalResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)
    path = tmp_path / "mm.ckpt"
    optimal_tree(MM, "total", checkpoint=path)
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][: len(lines[-1]) // 2])
    reports: list[SearchReport] = []
    resumed = optimal_tree(MM, "total", progress=reports.append, checkpoint=path)
    assert resumed.tree == alone["total"].tree
    assert reports[0].resumed == len(lines) - 2
    # Cut short anywhere but at the end, the file is damaged: it says where.
    path.write_text("\n".join([*lines[:2], lines[2][:10], *lines[3:]]))
    with pytest.raises(BullsCowsError, match="line 3 is not JSON"):
        optimal_tree(MM, "total", checkpoint=path)


def test_a_checkpoint_of_another_search_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "small.ckpt"
    optimal_tree(Rules.parse("p3c5n"), "total", checkpoint=path)
    for objective, rules in (("worst", Rules.parse("p3c5n")), ("total", Rules.parse("p3c4n"))):
        with pytest.raises(BullsCowsError, match="is for another search"):
            optimal_tree(rules, objective, checkpoint=path)  # type: ignore[arg-type]
    path.write_text("{not json")
    with pytest.raises(BullsCowsError, match="line 1 is not JSON"):
        optimal_tree(Rules.parse("p3c5n"), "total", checkpoint=path)
    path.write_text("[]")
    with pytest.raises(BullsCowsError, match="not a bullscows search checkpoint"):
        optimal_tree(Rules.parse("p3c5n"), "total", checkpoint=path)
    old = {"format": "bullscows-search-checkpoint", "version": 1, "rules": "p3c5n"}
    path.write_text(json.dumps({**old, "entries": []}))
    with pytest.raises(BullsCowsError, match="another version of bullscows"):
        optimal_tree(Rules.parse("p3c5n"), "total", checkpoint=path)


def test_a_checkpoint_that_cannot_be_written_says_so(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("a file, not a folder")
    with pytest.raises(BullsCowsError, match="cannot be written"):
        optimal_tree(Rules.parse("p3c5n"), "total", checkpoint=tmp_path / "plain" / "x.ckpt")


def test_a_copied_checkpoint_resumes_in_a_fresh_process(
    tmp_path: Path, alone: dict[str, OptimalResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)
    full = tmp_path / "full.ckpt"
    optimal_tree(MM, "total", checkpoint=full)
    path = tmp_path / "here" / "mm.ckpt"
    path.parent.mkdir()

    def stop_early(report: SearchReport) -> None:
        if path.exists() and entries(path) >= 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        optimal_tree(MM, "total", progress=stop_early, checkpoint=path)
    kept = entries(path)
    elsewhere = tmp_path / "another machine"
    elsewhere.mkdir()
    copy = elsewhere / "copied.ckpt"
    shutil.copyfile(path, copy)
    out = elsewhere / "mm.json"
    env = {**os.environ, "BULLSCOWS_CACHE": str(elsewhere / "cache")}
    command = [sys.executable, "-m", "bullscows", "tree", "--rules", "mm", "--strategy",
               "optimal", "--checkpoint", copy.name, "--out", out.name]  # fmt: skip
    done = subprocess.run(
        command, cwd=elsewhere, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    # The fresh process took the copied answers and added only those missing.
    assert 0 < kept < entries(copy) == entries(full)
    assert copy.read_text().startswith(path.read_text())
    resumed = load_tree(out)
    assert resumed.root == _root_of(alone["total"])


def _root_of(result: OptimalResult) -> Any:
    return found_tree(result.rules, "optimal", result.tree).root


@pytest.mark.parametrize("cut", [0.5, 0.93, 0.0, 0.004])
def test_a_checkpoint_cut_anywhere_resumes_again_and_again(
    tmp_path: Path, alone: dict[str, OptimalResult], cut: float
) -> None:
    # A crash can cut the file anywhere, its header included: each resume cuts off the torn
    # line (or writes the header again) before it appends, so the next resume reads it too.
    full = tmp_path / "full.ckpt"
    optimal_tree(MM, "total", checkpoint=full)
    data = full.read_bytes()
    path = tmp_path / "cut.ckpt"
    path.write_bytes(data[: int(len(data) * cut)])
    for _ in range(3):
        assert optimal_tree(MM, "total", checkpoint=path).tree == alone["total"].tree
        assert path.read_text().endswith("\n")
        assert entries(path) == entries(full)


def test_a_last_line_that_lost_its_newline_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "mm.ckpt"
    Checkpoint(path, "mm", "total", None, False).record(1, ((5, 2),), 4, 40, None)
    path.write_text(path.read_text().rstrip("\n"))
    store = Checkpoint(path, "mm", "total", None, False)
    assert store.resumed == 1
    store.record(1, ((6, 2),), 4, 40, None)
    store.close()
    assert Checkpoint(path, "mm", "total", None, False).resumed == 2


def test_a_claimed_cost_is_checked_against_its_tree(
    tmp_path: Path, alone: dict[str, OptimalResult]
) -> None:
    # A line whose cost its tree does not have (edited, damaged) is not trusted: that part
    # is searched again, and its answer appended; the tree is the optimal one.
    path = tmp_path / "mm-worst.ckpt"
    optimal_tree(MM, "worst", checkpoint=path)
    lines = path.read_text().splitlines()
    exact = [i for i, line in enumerate(lines[1:], start=1) if json.loads(line)["cost"]]
    assert exact
    for change in ({"cost": 1_000_000_000}, {"cost": "less"}, {"tree": "other"}):
        answer = json.loads(lines[exact[0]])
        if change.get("cost") == "less":
            change = {"cost": answer["cost"] - 1}
        if change.get("tree") == "other":
            guess = answer["tree"]["guess"]
            change = {"tree": {"guess": guess, "replies": {}}}  # loses every code but one
        path.write_text("\n".join([*lines[:exact[0]], json.dumps({**answer, **change}),
                                   *lines[exact[0] + 1 :]]) + "\n")  # fmt: skip
        resumed = optimal_tree(MM, "worst", checkpoint=path)
        assert resumed.tree == alone["worst"].tree
        assert (resumed.total, resumed.worst) == (alone["worst"].total, alone["worst"].worst)
        again = [json.loads(line) for line in path.read_text().splitlines()[len(lines) :]]
        same = [a for a in again if (a["history"], a["depth"]) == (answer["history"],
                                                                   answer["depth"])]  # fmt: skip
        assert [a["cost"] for a in same] == [answer["cost"]]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes a file whatever its permissions")
def test_a_checkpoint_that_reads_but_cannot_be_written_is_refused_before_the_search(
    tmp_path: Path,
) -> None:
    # Refused at once, not at the search's first answer (minutes or hours later).
    path = tmp_path / "small.ckpt"
    store = Checkpoint(path, "mm", "total", None, False)
    store.record(1, ((7, 2),), 5, 40, None)
    before = path.read_bytes()
    path.chmod(0o444)
    with pytest.raises(BullsCowsError, match=r"small\.ckpt' cannot be written: Permission denied"):
        Checkpoint(path, "mm", "total", None, False)
    assert path.read_bytes() == before


def test_a_damaged_line_inside_the_file_is_never_cut_off(tmp_path: Path) -> None:
    # Only a last line without its newline was cut short by an interruption; a whole line
    # that does not read is damage, refused with the file left as it was.
    path = tmp_path / "small.ckpt"
    store = Checkpoint(path, "mm", "total", None, False)
    store.record(1, ((7, 2),), 5, 40, None)
    store.record(1, ((9, 1),), 5, 40, None)
    store.close()
    text = path.read_text()
    for damaged in (text[:-30] + "\n", '"depth":5,"depth":6'.join(text.rsplit('"depth":5', 1))):
        path.write_text(damaged)
        with pytest.raises(BullsCowsError, match=r"line 3.*; mend or remove line 3 to resume"):
            Checkpoint(path, "mm", "total", None, False)
        assert path.read_text() == damaged
    path.write_text(text[:-30])  # cut short: the last answer is cut off, the rest resumed
    assert Checkpoint(path, "mm", "total", None, False).resumed == 1
    assert path.read_text() == text[: text.rindex("{")]


def test_a_checkpoint_another_process_searches_with_is_refused(tmp_path: Path) -> None:
    # Two searches appending to one file could interleave a long line's pieces: the second
    # is refused while the first holds it, and reads it once the first has ended.
    path = tmp_path / "held.ckpt"
    Checkpoint(path, "mm", "total", None, False).record(1, ((7, 2),), 5, 40, None)
    before = path.read_bytes()
    code = (
        "import sys; from pathlib import Path; from bullscows.search.checkpoint import "
        f"Checkpoint; held = Checkpoint(Path({str(path)!r}), 'mm', 'total', None, False); "
        "print('held', flush=True); sys.stdin.read()"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(BullsCowsError, match="is in use by another search: let it end"):
            Checkpoint(path, "mm", "total", None, False)
        assert path.read_bytes() == before
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=300)
    assert Checkpoint(path, "mm", "total", None, False).resumed == 1


def test_a_second_checkpoint_on_the_file_in_this_process_is_refused(tmp_path: Path) -> None:
    # Two searches of one process on one file would interleave their answers as two
    # processes' would: the second is refused until the first is closed.
    path = tmp_path / "held.ckpt"
    first = Checkpoint(path, "mm", "total", None, False)
    first.record(1, ((7, 2),), 5, 40, None)
    with pytest.raises(BullsCowsError, match="is in use by another search: let it end"):
        Checkpoint(path, "mm", "total", None, False)
    first.close()
    first.record(1, ((9, 1),), 5, 40, None)  # kept in memory alone once closed
    assert Checkpoint(path, "mm", "total", None, False).resumed == 1


_PROBE = """
import fcntl, os, sys
from pathlib import Path
from bullscows.errors import BullsCowsError
from bullscows.search.checkpoint import Checkpoint
out = os.open(sys.argv[1], os.O_WRONLY)
try:
    fcntl.flock(out, fcntl.LOCK_EX | fcntl.LOCK_NB)
    print("flock taken")
except BlockingIOError:
    print("flock refused")
os.close(out)
try:
    Checkpoint(Path(sys.argv[1]), "mm", "total", None, False)
    print("checkpoint taken")
except BullsCowsError as error:
    print("checkpoint refused:", error)
"""


def test_a_handle_closed_in_this_process_leaves_the_lock_held(tmp_path: Path) -> None:
    # A lock of the process (lockf) ended when any descriptor of the file closed: a read of
    # it, or a second Checkpoint refused; another process could then append to it too.
    path = tmp_path / "held.ckpt"
    held = Checkpoint(path, "mm", "total", None, False)
    held.record(1, ((7, 2),), 5, 40, None)
    assert path.read_bytes().count(b"\n") == 2  # a descriptor opened and closed
    with pytest.raises(BullsCowsError, match="in use"):
        Checkpoint(path, "mm", "total", None, False)  # another, opened and closed
    probe = subprocess.run(
        [sys.executable, "-c", _PROBE, str(path)], capture_output=True, text=True, timeout=300
    )
    assert probe.stdout.splitlines()[0] == "flock refused", probe.stdout + probe.stderr
    assert probe.stdout.splitlines()[1].startswith("checkpoint refused: "), probe.stdout
    held.record(1, ((9, 1),), 5, 40, None)
    held.close()
    assert Checkpoint(path, "mm", "total", None, False).resumed == 2
