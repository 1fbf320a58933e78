"""The sets a stopped search of a fixed opening settled, kept beside its checkpoint
(``search.kept``): read back by the next run, which then searches less for the same tree;
removed once the search ends; a file of another search, of another version or damaged
refused without touching it; kept by the whole search too."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from bench_scripts import load
from bullscows import Rules
from bullscows._kernels import search_memo
from bullscows._kernels.search_calls import Memo
from bullscows._kernels.tables import CTX_SHARED, INFEASIBLE
from bullscows.cli import main
from bullscows.errors import BullsCowsError
from bullscows.executors import Threads
from bullscows.search import kept
from bullscows.search.checkpoint import Checkpoint
from bullscows.search.engine import Search
from bullscows.search.kept import sets_path
from bullscows.search.opening import OpeningResult, opening_tree
from bullscows.search.options import Run, SearchOptions
from bullscows.search.progress import Budget
from bullscows.strategies.part_trees import heuristic_part

RULES = Rules.parse("p4c8n")

#: The search of p4c8n's opening searches 1,463 sets (``tree --opening root-bound --json``).
STOP_AT = 600


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The trees these searches find go to a cache of each test's own: the run's shared cache
    holding p4c8n's optimal tree would let a web test's optimal solve of it start at once."""
    monkeypatch.setenv("BULLSCOWS_CACHE", str(tmp_path / "cache"))


def _opening(path: Path, budget: Budget | None = None, jobs: int = 0) -> OpeningResult:
    if not jobs:
        return opening_tree(RULES, heuristic_part, checkpoint=path, budget=budget)
    with Threads(jobs) as team:
        return opening_tree(RULES, heuristic_part, executor=team, checkpoint=path, budget=budget)


@pytest.mark.parametrize("jobs", [0, 2])
def test_a_stopped_opening_resumes_from_its_sets_and_searches_less(
    tmp_path: Path, jobs: int
) -> None:
    whole = _opening(tmp_path / "whole.ckpt", jobs=jobs)
    assert whole.stopped is None and not sets_path(tmp_path / "whole.ckpt").exists()
    path = tmp_path / "run.ckpt"
    stopped = _opening(path, Budget(sets=STOP_AT), jobs)
    assert stopped.stopped is not None and stopped.kept > 0
    assert sets_path(path).exists()
    # The same checkpoint resumed twice: with the sets kept, and without them.
    bare = tmp_path / "bare.ckpt"
    shutil.copy(path, bare)
    resumed = _opening(path, jobs=jobs)
    again = _opening(bare, jobs=jobs)
    assert resumed.total == again.total == whole.total == resumed.lower
    assert resumed.tree == whole.tree
    assert resumed.sets < again.sets
    assert not sets_path(path).exists()  # the search ended: its checkpoint has every answer


def test_a_part_whose_sets_were_kept_is_settled_again_at_once(tmp_path: Path) -> None:
    path = tmp_path / "p.ckpt"
    header = ("p4c8n", "total", None, False)
    costs, sets, read = [], [], [0]
    for _ in range(2):
        store = Checkpoint(path, *header, keep_sets=True)
        assert store.sets_read == read[-1]  # what the progress reports say was read back
        search = Search(SearchOptions(RULES), Run(checkpoint=store))
        state = search.state
        # Given sets, its lookaheads are taken apart from them, with no shared table.
        assert (state.ahead_memo is not state.memo) == (read[-1] > 0)
        assert len(state.ahead_ctx[CTX_SHARED]) == 0
        parts = state.scores.parts(state.ctx, state.everything, 0)
        reply, part = max(parts, key=lambda p: len(p[1]))
        found = search.solve(part, state.child(state.unlimited), INFEASIBLE, ((0, reply),))
        assert found is not None
        costs.append(found[0])
        sets.append(search.sets())
        store.close(finished=False)
        assert store.kept_written >= len(state.memo) > 0
        read.append(store.kept_written)
    assert costs[0] == costs[1]
    assert sets[1] < sets[0] // 10  # the lookaheads ordering its guesses (apart) taken again


def _stopped_files(tmp_path: Path) -> Path:
    path = tmp_path / "run.ckpt"
    _opening(path, Budget(sets=STOP_AT))
    assert sets_path(path).exists()
    return path


def _refused(path: Path) -> str:
    before = sets_path(path).read_bytes()
    with pytest.raises(BullsCowsError) as error:
        _opening(path)
    assert sets_path(path).read_bytes() == before  # left as it was
    Checkpoint(path, "p4c8n", "total", None, False).close()  # the checkpoint's lock ended
    return str(error.value)


def test_a_sets_file_of_another_search_is_refused(tmp_path: Path) -> None:
    path = _stopped_files(tmp_path)
    other = tmp_path / "other.ckpt"
    store = Checkpoint(other, "p4c7n", "total", None, False, keep_sets=True)
    memo = Search(SearchOptions(Rules.parse("p4c7n"))).state.memo
    memo.arrays[0][:7] = (5, 6, 3, 40, 2, 30, 0)
    memo.arrays[1][0] = 1
    assert store.kept is not None
    store.kept.adopt(memo, "total", 1)
    store.close()
    shutil.copy(sets_path(other), sets_path(path))
    message = _refused(path)
    assert "run.ckpt.sets' is for another search than its checkpoint" in message
    assert "move it away" in message


@pytest.mark.parametrize("damage", ["garbage", "cut", "changed", "groups"])
def test_a_damaged_sets_file_is_refused(tmp_path: Path, damage: str) -> None:
    path = _stopped_files(tmp_path)
    target = sets_path(path)
    data = target.read_bytes()
    if damage == "garbage":
        target.write_bytes(b"not a sets file\n")
    elif damage == "cut":
        target.write_bytes(data[: len(data) // 2])
    else:
        with np.load(target) as held:
            arrays = {name: np.array(held[name]) for name in held.files}
        if damage == "changed":  # one integer changed: the digest tells
            arrays["sets0"][0, 5] += 1
        else:  # a header whose groups are no pairs
            header = json.loads(bytes(arrays["header"]).decode()) | {"groups": [[1]]}
            arrays["header"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
        with open(target, "wb") as out:
            np.savez(out, **arrays)
    message = _refused(path)
    assert "run.ckpt.sets' is damaged or no sets file of bullscows" in message


def test_a_sets_file_of_another_version_is_refused(tmp_path: Path) -> None:
    path = _stopped_files(tmp_path)
    target = sets_path(path)
    with np.load(target) as held:
        arrays = {name: np.array(held[name]) for name in held.files}
    header = json.loads(bytes(arrays["header"]).decode()) | {"version": kept.VERSION + 1}
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    with open(target, "wb") as out:
        np.savez(out, **arrays)
    message = _refused(path)
    assert f"this one reads {kept.VERSION}" in message


def test_no_sets_are_kept_where_no_new_file_can_be_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def shut(path: object, what: str) -> None:
        raise BullsCowsError(f"cannot write {what}: Permission denied")

    monkeypatch.setattr(kept, "check_folder", shut)  # a folder that takes no new file
    path = tmp_path / "run.ckpt"
    stopped = _opening(path, Budget(sets=STOP_AT))
    assert stopped.stopped is not None and stopped.kept == 0
    assert path.exists() and not sets_path(path).exists()


def test_kept_sets_are_the_largest_when_there_are_too_many() -> None:
    rows = np.array([[k, k, 9, -1, -1, k, 0] for k in range(10)], dtype=np.int64)
    assert sorted(kept.merged(rows, most=3)[:, 5].tolist()) == [7, 8, 9]


def test_the_command_says_what_it_kept_and_reads_it_back(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    common = ["tree", "--rules", "p4c8n", "--strategy", "optimal", "--opening", "root-bound",
              "--jobs", "1", "--checkpoint", str(path)]  # fmt: skip
    first = CliRunner().invoke(main, [*common, "--budget", str(STOP_AT)])
    assert first.exit_code == 3, first.output  # stopped by its budget
    assert "sets the search settled" in first.output
    assert sets_path(path).exists()
    second = CliRunner().invoke(main, common)
    assert second.exit_code == 0, second.output
    assert "(the lowest of this opening)" in second.output
    assert not sets_path(path).exists()


def test_the_whole_search_keeps_its_sets_in_one_thread(tmp_path: Path) -> None:
    path = tmp_path / "p.ckpt"
    result = CliRunner().invoke(
        main,
        ["tree", "--rules", "p4c8n", "--strategy", "optimal", "--jobs", "1", "--budget", "300",
         "--checkpoint", str(path)],
    )  # fmt: skip
    assert result.exit_code != 0 and "stopped at the budget" in result.output
    assert path.exists() and sets_path(path).exists()


def test_the_whole_search_in_one_thread_resumes_from_its_sets_and_searches_less() -> None:
    """The resumed search orders its guesses by lookaheads apart from the sets: ordered by
    what the sets tell (the costs of the best guess's parts, against the hopes of others),
    it searched 3,641 sets against 3,168 without them."""
    rows = load("kept_sets").main(["p4c8n", "--whole", "--stop", "3000"])
    (_, kept_, *_, total), (_, bare, *_, again) = rows
    assert total == again == "7,817"
    assert int(kept_.replace(",", "")) < int(bare.replace(",", ""))


def test_the_whole_search_on_threads_says_what_it_kept(tmp_path: Path) -> None:
    path = tmp_path / "p.ckpt"
    common = ["tree", "--rules", "p4c8n", "--strategy", "optimal", "--jobs", "2",
              "--checkpoint", str(path)]  # fmt: skip
    first = CliRunner().invoke(main, [*common, "--budget", "3000", "--json"])
    assert first.exit_code != 0, first.output
    said = json.loads(first.stdout)
    assert said["kept"] > 0 and sets_path(path).exists()
    # A fresh checkpoint: one resumed from the sets may end within the budget.
    again = [*common[:-1], str(tmp_path / "q.ckpt"), "--budget", "3000"]
    plain = CliRunner().invoke(main, again)
    assert "sets the search settled, beside the checkpoint" in plain.output
    last = CliRunner().invoke(main, common)
    assert last.exit_code == 0 and "7,817" in last.output
    assert not sets_path(path).exists()


def test_the_whole_search_on_threads_resumes_from_its_sets_and_searches_less() -> None:
    bench = load("kept_sets")
    rows = bench.main(["p4c8n", "--whole", "--stop", "3000", "--jobs", "2"])
    (_, kept, *_, total), (_, bare, *_, again) = rows
    assert total == again == "7,817"  # the optimum
    assert int(kept.replace(",", "")) < int(bare.replace(",", ""))


def test_the_memos_of_a_search_share_one_table_of_its_kept_sets(tmp_path: Path) -> None:
    header = {"rules": "mm", "objective": "total", "max_depth": None, "consistent_only": False}
    first = kept.KeptSets(tmp_path / "mm.ckpt", header)
    stopped = Memo(16)
    search_memo.store(stopped.arrays, (5, 6, 3), (40, 2, 30, 0))
    first.adopt(stopped, "total", 1)
    assert first.close(finished=False) == 1
    again = kept.KeptSets(tmp_path / "mm.ckpt", header)
    memos = [Memo(16) for _ in range(3)]
    assert [again.adopt(memo, "total", 1) for memo in memos] == [1, 1, 1]
    assert all(memo.arrays[2] is memos[0].arrays[2] for memo in memos)  # one copy
    assert [len(memo) for memo in memos] == [0, 0, 0]
    assert search_memo.entry(memos[1].arrays, (5, 6, 3)) == (40, 2, 30, 0)
    assert [len(memo) for memo in memos] == [0, 1, 0]  # copied into the memo that read it
    memos[1].grow()
    assert memos[1].arrays[2] is memos[0].arrays[2]
    assert search_memo.entry(memos[0].arrays, (5, 6, 2))[0] == -1
    assert again.close(finished=False) == 1
    last = kept.KeptSets(tmp_path / "mm.ckpt", header)
    assert last.groups[("total", 1)].tolist() == [[5, 6, 3, 40, 2, 30, 0]]
    last.close(finished=True)


def test_a_memo_is_adopted_only_by_searches_of_the_same_options(tmp_path: Path) -> None:
    store = Checkpoint(tmp_path / "a.ckpt", "p4c8n", "total", None, False, keep_sets=True)
    assert store.kept is not None
    Search(SearchOptions(Rules.parse("p4c7n")))
    Search(SearchOptions(RULES, "worst"))
    mine = Search(SearchOptions(RULES))
    assert [group for group, _ in store.kept.memos] == [("worst", 1), ("total", 1)]
    assert store.kept.memos[-1][1] is mine.state.memo
    store.close(finished=True)
    Search(SearchOptions(RULES))  # closed: offered to none
    assert store.kept is None and not kept._OPEN


def test_the_benchmark_resumes_with_and_without_the_sets(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = load("kept_sets").main(["p4c8n", "--stop", str(STOP_AT), "--repeats", "2"])
    assert [row[0] for row in rows] == [
        "with the sets kept", "without them", "without them", "with the sets kept",
    ]  # fmt: skip
    assert len({row[4] for row in rows}) == 1  # one total: the lowest of the opening
    sets = {row[0]: int(row[1].replace(",", "")) for row in rows}
    assert sets["with the sets kept"] < sets["without them"]
    assert "sets kept" in capsys.readouterr().out
