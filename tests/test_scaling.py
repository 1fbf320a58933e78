"""``benchmarks/scaling.py``: the perfect scheduler's predictions from a recorded search."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from bench_scripts import load
from bullscows.search import split


@pytest.fixture(scope="module")
def scaling() -> ModuleType:
    return load("scaling")


def test_a_shared_task_is_as_many_tasks_as_its_guesses(scaling: ModuleType) -> None:
    first = ((0, 1),)
    recording = scaling.Recording(
        [
            scaling.Task((*first, (5, 1)), 300, 3.0, True, [1.0, 1.0, 0.5]),
            scaling.Task((*first, (5, 2)), 200, 1.0, True),
        ],
        wall=4.2,
        serial=0.2,
    )
    assert scaling.predict(recording, 1) == pytest.approx(4.2)
    assert scaling.predict(recording, 4) == pytest.approx(3.2)  # the slow task, whole
    # its guesses (1, 1, 0.5) and the rest of its seconds (0.5) beside the other task (1)
    assert scaling.predict(recording, 4, shared=True) == pytest.approx(1.2)
    assert scaling.predict(recording, None, shared=True) == pytest.approx(1.2)
    assert scaling.predict(recording, 2, shared=True) == pytest.approx(2.2)


def test_rounds_of_a_part_run_one_after_another(scaling: ModuleType) -> None:
    part = ((0, 1),)
    tasks = [
        scaling.Task((*part, (5, 1)), 100, 1.0, True),
        scaling.Task((*part, (5, 2)), 100, 1.0, True),
        scaling.Task((*part, (6, 1)), 100, 2.0, True),  # the part's next round
    ]
    recording = scaling.Recording(tasks, wall=4.0, serial=0.0)
    assert scaling.predict(recording, 8) == pytest.approx(3.0)


def test_the_passes_of_a_round_run_one_after_another(scaling: ModuleType) -> None:
    # a part asked twice about the parts of one guess (a second pass with wider windows):
    # the second pass is asked once the first is answered
    part = ((0, 1),)
    tasks = [
        scaling.Task((*part, (5, 1)), 100, 1.0, True, [], 1),
        scaling.Task((*part, (5, 2)), 100, 1.0, True, [], 1),
        scaling.Task((*part, (5, 1)), 100, 1.0, True, [], 2),
    ]
    rounds = [((), -1), (part, 0), (part, 0)]
    recording = scaling.Recording(tasks, wall=3.0, serial=0.0, rounds=rounds)
    assert scaling.predict(recording, 8) == pytest.approx(2.0)
    merged = scaling.Recording(tasks, wall=3.0, serial=0.0)  # no rounds: one per guess
    assert scaling.predict(merged, 8) == pytest.approx(1.0)


def test_a_recorded_search_saved_and_loaded(
    scaling: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(split, "SPLIT_MIN", 30)  # p3c10n's tasks have their guesses shared
    recording = scaling.search("p3c10n", "total", 1)
    shared = [task for task in recording.tasks if task.ran and task.guesses]
    assert shared
    assert all(sum(task.guesses) <= task.seconds for task in shared)
    cpu = recording.serial + recording.task_seconds
    assert scaling.predict(recording, 1) == pytest.approx(cpu)
    assert scaling.predict(recording, 4, shared=True) <= scaling.predict(recording, 1) + 1e-9
    assert recording.rounds and recording.cpu > 0
    assert all(task.round >= 0 for task in recording.tasks if task.history)
    assert not split.OBSERVERS  # the recorder stopped listening
    saved = tmp_path / "runs.json"
    scaling.save(str(saved), {1: [recording]})
    loaded = scaling.load(str(saved))[1][0]
    assert loaded.tasks == recording.tasks
    assert loaded.rounds == recording.rounds
    assert scaling.predict(loaded, 2, shared=True) == scaling.predict(recording, 2, shared=True)


def test_whole_processes_are_timed_and_their_trees_compared(
    capsys: pytest.CaptureFixture[str],
) -> None:
    jobs = load("jobs")
    assert jobs.main(["--rules", "p3c6n", "--jobs", "1", "2"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0] == "p3c6n optimal"
    assert [row.split(":")[0].strip() for row in rows[1:]] == ["--jobs  1", "--jobs  2"]
    assert all(row.endswith("same tree") for row in rows[1:])


def test_one_thread_time_scaled_from_another_machine(capsys: pytest.CaptureFixture[str]) -> None:
    jobs = load("jobs")
    argv = ["--rules", "p3c6n", "--jobs", "2", "--one-thread", "40", "--calibrate", "2",
            "--reference", "p3c6n", "optimal"]  # fmt: skip
    assert jobs.main(argv) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0] == "p3c6n optimal"
    here = float(rows[1].split(": ")[1].split(" s CPU")[0])  # the reference's CPU seconds
    assert rows[2].startswith("  --jobs  1, estimated: 40.0 s CPU recorded / ")
    ratio = float(rows[2].split(" / ")[1].split(" = ")[0])  # how fast this core is
    assert ratio == pytest.approx(2 / here, rel=0.05)
    estimate = float(rows[2].rsplit("= ", 1)[1].removesuffix(" s"))
    assert estimate == pytest.approx(40 / ratio, rel=0.05)
    seconds = float(rows[3].split(":")[1].split(" s")[0])
    speed_up = float(rows[3].split("speed-up")[1].split()[0])
    assert speed_up == pytest.approx(estimate / seconds, rel=0.05)
    assert rows[3].endswith("same tree")
