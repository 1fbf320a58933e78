"""``benchmarks/occupancy.py``: how busy a team of threads is, sampled while tasks whose busy
stretches are known run; and a split's threshold counted in its thread's CPU seconds."""

from __future__ import annotations

import hashlib
import os
import threading
import time
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from bench_scripts import load
from bullscows._kernels import search_calls
from bullscows._kernels.tables import INFEASIBLE
from bullscows.executors import Threads
from bullscows.rules import Rules
from bullscows.search import split, state
from bullscows.search.distribute import PartTasks
from bullscows.search.engine import Search
from bullscows.search.options import SearchOptions
from bullscows.search.worker import solve_task
from bullscows.universe import universe

#: Generous: the samples a test waits for, however slow the machine.
WAIT = 60.0


@pytest.fixture(scope="module")
def occupancy() -> ModuleType:
    return load("occupancy")


def sample(occupancy: ModuleType, at: float, computing: int, under_way: int = 0) -> Any:
    return occupancy.Sample(at, under_way, 0, computing, False)


def test_the_summaries_of_known_samples(occupancy: ModuleType) -> None:
    # 4 workers: computing 4 for the first half of the run, 1 for the second
    samples = [sample(occupancy, i / 100, 4 if i < 50 else 1, 4) for i in range(100)]
    run = occupancy.Occupancy(4, samples)
    assert run.mean("computing") == pytest.approx(2.5)
    assert run.mean("under_way") == pytest.approx(4.0)
    assert occupancy.bins(4) == [(0, 1), (2, 3), (4, 4)]
    assert run.histogram(occupancy.bins(4)) == pytest.approx([0.5, 0.0, 0.5])
    tenths = run.tenths()
    assert tenths[:5] == pytest.approx([4.0] * 5) and tenths[5:] == pytest.approx([1.0] * 5)
    assert run.threads() == pytest.approx(2.5)
    # twice the CPU of one thread on 4 workers, 2.5 of them computing: 1.25 times as fast
    assert run.estimate(10.0, 20.0) == pytest.approx(1.25)
    assert run.estimate(100.0, 20.0) == 4.0  # never more than the workers
    searching = occupancy.Occupancy(4, [occupancy.Sample(0.0, 4, 0, 4, True)])
    assert searching.threads() == 4  # the searching thread too, but at most the workers


def test_threads_say_how_many_tasks_are_under_way() -> None:
    started, finish = threading.Barrier(3), threading.Event()

    def held() -> None:
        started.wait(WAIT)
        finish.wait(WAIT)

    with Threads(3) as team:
        assert team.busy() == 0
        futures = [team.submit(held) for _ in range(2)]
        started.wait(WAIT)
        assert team.busy() == 2
        finish.set()
        for future in futures:
            future.result()
        assert team.busy() == 0


def asleep(occupancy: ModuleType, ids: list[int], reads: int = 20) -> None:
    """Return once each thread of ``ids`` reads as not computing ``reads`` times in a row."""
    fds = [os.open(f"/proc/self/task/{tid}/stat", os.O_RDONLY) for tid in ids]
    try:
        deadline, row = time.monotonic() + WAIT, 0
        while row < reads and time.monotonic() < deadline:
            row = 0 if any(occupancy.computing(fd) for fd in fds) else row + 1
            time.sleep(0.001)
        assert row >= reads, "the waiting threads never slept"
    finally:
        for fd in fds:
            os.close(fd)


def test_the_sampler_counts_tasks_under_way_and_threads_computing(
    occupancy: ModuleType,
) -> None:
    # two tasks that hash (the GIL released: computing) and one that waits (under way, not
    # computing), on a team of 4 threads; this thread sleeps meanwhile
    started, finish = threading.Barrier(4), threading.Event()
    block = bytes(1 << 20)
    hashers: list[int] = []

    def hashing() -> None:
        hashers.append(threading.get_native_id())
        started.wait(WAIT)
        while not finish.is_set():
            hashlib.sha256(block).digest()

    def waiting() -> None:
        started.wait(WAIT)
        finish.wait(WAIT)

    with Threads(4) as team:
        futures = [team.submit(task) for task in (hashing, hashing, waiting)]
        started.wait(WAIT)
        others = [tid for tid in team.native_ids() if tid not in hashers]
        asleep(occupancy, others)  # past the barrier, into their waits (a loaded machine is slow)
        with occupancy.Sampler(team, 0.002) as sampler:
            deadline = time.monotonic() + WAIT
            while len(sampler.samples) < 50 and time.monotonic() < deadline:
                time.sleep(0.01)
        finish.set()
        for future in futures:
            future.result()
    run = occupancy.Occupancy(4, sampler.samples)
    assert len(run.samples) >= 50
    assert all(s.under_way == 3 and s.waiting == 0 for s in run.samples)
    assert max(s.computing for s in run.samples) <= 2  # the waiting task and the idle thread
    assert run.mean("computing") > 1.0  # the hashing ones, but for their moments with the GIL
    assert run.mean("searching") < 0.5  # this thread sleeps


def test_more_memos_search_more_sets_for_the_same_tree(
    occupancy: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(split, "SPLIT_MIN", 30)  # p3c10n's tasks have their guesses shared
    with occupancy.sharing(False):  # the memos alone: the table would tell each the others'
        _, (_, _, one) = occupancy.run("p3c10n", "total", 1, 0.01)
        with occupancy.memos(4):
            _, (_, _, four) = occupancy.run("p3c10n", "total", 1, 0.01)
    assert split.Split.work.__name__ == "work" and split.Split.work.__qualname__ == "Split.work"
    assert four > one  # each memo misses what the others know


def test_the_benchmark_prints_an_estimate(
    occupancy: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert occupancy.main(["p3c6n", "--jobs", "2", "--private"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("p3c6n total: one thread ")
    ways = [at for at, row in enumerate(rows) if row.startswith("  with ")]
    assert [rows[at] for at in ways] == ["  with a shared table:", "  with memos alone:"]
    for at in ways:
        assert rows[at + 1].startswith("  --jobs 2: ")
        assert rows[at + 5].startswith("  estimated speed-up on 2 cores: ")
        assert "measured here" in rows[at + 5]


def split_with_sleeps(monkeypatch: pytest.MonkeyPatch, first: float, then: float) -> set[str]:
    """A task of 150 ``p4c6n`` codes solved on a team of 3 threads, each guess sleeping
    ``first`` seconds of wall clock (no CPU) the first time and ``then`` after: the names of
    the threads that tried its guesses (its tree checked against one search's)."""
    monkeypatch.setattr(split, "SPLIT_MIN", 40)
    rules, history = Rules.parse("p4c6n"), ((0, 3),)
    codes = np.sort(np.random.default_rng(29).choice(universe(rules).secrets, 150, False))
    original, slept = search_calls.try_guess, []

    def slow(*args: Any) -> Any:
        time.sleep(then if slept else first)
        slept.append(True)
        return original(*args)

    monkeypatch.setattr(search_calls, "try_guess", slow)
    names: set[str] = set()
    split.OBSERVERS.append(lambda *_: names.add(threading.current_thread().name))
    try:
        with Threads(3) as team:
            found, _ = team.submit(
                solve_task, rules, "total", None, False, 1, history, codes, 9, INFEASIBLE
            ).result()
    finally:
        split.OBSERVERS.pop()
    assert slept
    assert found == Search(SearchOptions(rules)).solve(codes, 9, INFEASIBLE, history)
    return names


def test_a_split_counts_its_threshold_in_cpu_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    # the whole set takes milliseconds of CPU: helpers are asked after 0.25 s of the task
    # thread's CPU, so none is (on the wall clock they would share its guesses)
    monkeypatch.setattr(split, "SPLIT_AFTER", 0.25)
    assert len(split_with_sleeps(monkeypatch, 0.3, 0.02)) == 1  # the task's own thread


def test_idle_workers_join_a_split_after_its_first_guess(monkeypatch: pytest.MonkeyPatch) -> None:
    # with the default threshold the idle workers join once the task's thread has tried
    # its first guess, and try guesses too
    assert len(split_with_sleeps(monkeypatch, 0.05, 0.05)) >= 2  # its own thread and a helper


def test_the_benchmark_prints_the_tables_traffic_by_smallest_set_shared(
    occupancy: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert occupancy.main(["p4c6n", "--jobs", "3", "--share-from", "0", "2000"]) == 0
    rows = capsys.readouterr().out.splitlines()
    tables = [row for row in rows if row.startswith("  shared table: ")]
    assert len(tables) == 2
    assert not tables[0].startswith("  shared table: 0 reads")  # every set may go there
    assert tables[1].startswith("  shared table: 0 reads") and " 0 writes" in tables[1]
    assert state.SHARE_FROM == 0  # put back
    ahead, sized = PartTasks.ahead, search_calls.SHARED_SLOTS
    args = ["p4c6n", "--jobs", "3", "--slots", "65536", "--no-rounds-ahead", "--one-thread", "1"]
    assert occupancy.main(args) == 0
    assert "  shared table: " in capsys.readouterr().out
    assert PartTasks.ahead is ahead
    assert sized == search_calls.SHARED_SLOTS
    with pytest.raises(SystemExit):
        occupancy.main(["p4c6n", "--slots", "1000"])
    assert "--slots 1000: give a power of two" in capsys.readouterr().err


def test_the_benchmark_runs_one_thread_beside_busy_processes(
    occupancy: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert occupancy.main(["p3c6n", "--beside", "1", "--repeats", "2"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0] == "p3c6n total on one thread, alone and beside 1:"
    pairs = [row for row in rows if row.startswith("  alone: ")]
    assert len(pairs) == 2 and all("beside 1 busy: " in row for row in pairs)
    sets = {part.split(" sets")[0].split()[-1] for row in pairs for part in row.split(";")}
    assert len(sets) == 1  # the same search each time, alone or beside
    assert rows[-1].startswith("  CPU a set beside 1 busy processes over alone: ")
    assert len(rows[-1].split(":")[1].split()) == 2


def test_guesses_taken_with_a_wider_window_than_one_threads_are_counted(
    occupancy: ModuleType,
) -> None:
    # 4 guesses, limit 10 (incumbent 40): the first costs 7 (28 = 7 * 4 + 0); the second
    # and third were taken at 40 while it was under way: one thread would have tried them
    # below 7, and the third not at all (its bound, 8, is not below 7); the fourth was
    # taken at 28, as one thread would have
    done = split.Split.__new__(split.Split)
    done.guesses, done.limit = np.arange(4), 10
    done.bounds = np.array([3, 5, 8, 6])
    done.tried = [(1, 40, True, 3, -1), (0, 40, False, 5, 28), (3, 28, False, 2, -1),
                  (2, 40, True, 4, -1)]  # fmt: skip
    counted = occupancy.Ahead()
    counted.add(done)
    assert (counted.early, counted.wider, counted.needless) == ([2, 7], [2, 7], [1, 4])
    assert "taken while one before them was under way: 2, 7 sets" in counted.line()


def test_a_split_tells_the_count_each_guess_it_tried(occupancy: ModuleType) -> None:
    # alone (no team), a split takes each guess at one thread's incumbent: none early
    options = SearchOptions(Rules.parse("p4c6n"))
    codes = universe(options.rules).secrets[::3]
    tried: list[int] = []
    with occupancy.guessing_ahead() as counted:
        split.FINISHED.append(lambda done: tried.append(len(done.tried)))
        try:
            split.Split(Search(options), codes, 9, 10**6, ((0, 3),)).solve()
        finally:
            split.FINISHED.pop()
    assert not split.FINISHED  # stopped listening
    assert len(tried) == 1 and tried[0] > 0  # told once, with the guesses it tried
    assert counted.early == counted.wider == counted.needless == [0, 0]


def test_a_team_counts_the_guesses_it_took_early(occupancy: ModuleType) -> None:
    # which sets a team splits depends on its timing (a set settled from the shared table
    # is not searched): what is counted must hang together, whatever was split
    rules = Rules.parse("p4c6n")
    tried: list[int] = []  # each split's guesses tried, as told to the count
    with Threads(3) as team, occupancy.guessing_ahead() as counted:
        split.FINISHED.append(lambda done: tried.append(len(done.tried)))
        try:
            occupancy.optimal_tree(rules, "worst-count", executor=team)
        finally:
            split.FINISHED.pop()
    assert not split.FINISHED  # stopped listening
    assert all(count > 0 for count in tried)  # each split told with its guesses
    assert counted.needless[0] <= counted.wider[0] <= counted.early[0]
    assert counted.needless[1] <= counted.wider[1] <= counted.early[1]
