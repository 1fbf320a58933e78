"""``--jobs`` asks for no more workers than the machine allows, and a worker that cannot be
started (a memory limit) is a one-line error, not a traceback."""

from __future__ import annotations

import os
import threading

import pytest
from click.testing import CliRunner

from bullscows import Rules
from bullscows.bench import run_bench
from bullscows.cli import main
from bullscows.errors import BullsCowsError
from bullscows.executors import Threads, make_executor, max_jobs


def test_the_limit_is_the_cores_this_process_may_use() -> None:
    assert max_jobs() == max(2, len(os.sched_getaffinity(0)))


@pytest.mark.parametrize(
    "args",
    [
        ["tree", "--rules", "p3c4n", "--strategy", "optimal", "--jobs", "999"],
        ["bench", "--rules", "p3c4n", "--strategy", "minimax", "--jobs", "999"],
    ],
)
def test_too_many_jobs_is_one_line(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1
    limit = max_jobs()
    assert result.stderr.splitlines()[-1] == (
        f"Error: --jobs 999: this machine allows at most {limit} (the cores this process may "
        f"use); give --jobs {limit} or fewer"
    )
    assert "Traceback" not in result.output


def test_the_library_refuses_too_many_jobs_before_starting_any(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The threads started here, not those alive (an earlier test's may end meanwhile).
    started: list[str] = []
    start = threading.Thread.start

    def noted(thread: threading.Thread) -> None:
        started.append(thread.name)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", noted)
    with pytest.raises(BullsCowsError, match="--jobs 999: this machine allows at most"):
        run_bench(Rules.parse("p3c4n"), ["minimax"], jobs=999)
    with pytest.raises(BullsCowsError, match="--jobs 999"), make_executor(None, 999, None, True):
        pass
    assert started == []


def test_a_thread_that_cannot_start_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under a memory limit the system may refuse a thread (``can't start new thread``): the
    threads started are ended and the error says how many could start."""
    start = threading.Thread.start
    started: list[threading.Thread] = []

    def limited(thread: threading.Thread) -> None:
        if thread.name.startswith("bullscows-task-") and started:
            raise RuntimeError("can't start new thread")
        started.append(thread)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", limited)
    with pytest.raises(BullsCowsError) as raised:
        Threads(2)
    assert str(raised.value) == (
        "--jobs 2: the system started only 1 thread (can't start new thread: a memory or "
        "process limit?); give --jobs 1"
    )
    started[0].join(timeout=300)  # at once; minutes on a loaded machine
    assert not started[0].is_alive()  # the thread that did start was ended


def test_a_process_that_cannot_start_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from bullscows import executors

    def refused(pool: object, jobs: int) -> None:
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(executors, "start_deaf", refused)
    with (
        pytest.raises(BullsCowsError) as raised,
        make_executor(None, 2, None),
    ):
        pass
    assert str(raised.value) == (
        "--jobs 2: cannot start the processes (Resource temporarily unavailable); give fewer"
    )
