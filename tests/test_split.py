"""A slow task's guesses shared among workers (``search.split``): the same cost and the same
tree as the search on one thread, whichever threads try which guesses."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from bullscows._kernels import search_calls
from bullscows._kernels.tables import FAIL, INFEASIBLE
from bullscows.executors import Threads, stop_flag
from bullscows.rules import Rules
from bullscows.search import optimal_tree, split
from bullscows.search.distribute import AHEAD, ROUND
from bullscows.search.engine import Search
from bullscows.search.options import Objective, SearchOptions
from bullscows.search.split import Split, help_split
from bullscows.search.worker import help_task, solve_task
from bullscows.universe import universe

#: A variant whose compiled search starts one guess deep (``engine.python_levels``).
P4C6N = Rules.parse("p4c6n")


def sets(rules: Rules, count: int, size: int) -> Iterator[np.ndarray]:
    """``count`` seeded random sets of ``size`` codes, sorted as parts are."""
    rng = np.random.default_rng(29)
    every = universe(rules).secrets
    for _ in range(count):
        yield np.sort(rng.choice(every, size=size, replace=False))


@pytest.mark.parametrize("objective", ["total", "worst-count", "worst"])
def test_a_split_finds_the_tree_of_one_search(objective: Objective) -> None:
    depth = 9 if objective == "total" else 5
    history = ((0, 3),)
    for codes in sets(P4C6N, 3, 120):
        alone = Search(SearchOptions(P4C6N, objective)).solve(codes, depth, INFEASIBLE, history)
        assert alone is not None
        cost, tree = alone
        # the window of a task: just above the optimum (found), or at it (none cheaper)
        for limit, expected in ((cost + 1, alone), (cost, None), (INFEASIBLE, alone)):
            shared = Split(Search(SearchOptions(P4C6N, objective)), codes, depth, limit, history)
            assert shared.solve() == expected
        assert (
            tree.guess
            == Split(Search(SearchOptions(P4C6N, objective)), codes, depth, INFEASIBLE, history)
            .solve()[1]
            .guess
        )  # type: ignore[index]


def test_consistent_only_splits_alike() -> None:
    history = ((0, 2),)
    for codes in sets(P4C6N, 2, 110):
        options = SearchOptions(P4C6N, consistent_only=True)
        alone = Search(options).solve(codes, 9, INFEASIBLE, history)
        shared = Split(Search(options), codes, 9, INFEASIBLE, history)
        assert shared.solve() == alone


@pytest.fixture
def eager(monkeypatch: pytest.MonkeyPatch) -> Iterator[set[str]]:
    """Helpers asked at once, for sets of 40 codes or more; the names of the threads that
    tried a guess."""
    monkeypatch.setattr(split, "SPLIT_AFTER", 0.0)
    monkeypatch.setattr(split, "SPLIT_MIN", 40)
    names: set[str] = set()

    def note(history: object, rank: int, seconds: float) -> None:
        names.add(threading.current_thread().name)

    split.OBSERVERS.append(note)
    yield names
    split.OBSERVERS.remove(note)


def test_idle_workers_share_a_task_and_find_the_same_tree(eager: set[str]) -> None:
    history = ((0, 3),)
    with Threads(3) as team:
        for codes in sets(P4C6N, 3, 150):
            alone = Search(SearchOptions(P4C6N)).solve(codes, 9, INFEASIBLE, history)
            future = team.submit(
                solve_task, P4C6N, "total", None, False, 1, history, codes, 9, INFEASIBLE
            )
            found, sets_searched = future.result()
            assert found == alone
            assert sets_searched > 0
    assert len(eager) >= 2  # the task's own thread and at least one helper tried guesses


@pytest.mark.parametrize("objective", ["total", "worst-count"])
def test_the_search_with_shared_tasks_finds_the_same_tree(
    eager: set[str], objective: Objective
) -> None:
    rules = Rules.parse("p3c10n")  # searched in Python two guesses deep: tasks below that
    alone = optimal_tree(rules, objective)
    with Threads(3) as team:
        shared = optimal_tree(rules, objective, executor=team)
    assert (shared.total, shared.worst) == (alone.total, alone.worst)
    assert shared.tree == alone.tree
    assert len(eager) >= 2


def test_threads_say_who_is_idle() -> None:
    started, finish = threading.Event(), threading.Event()

    def busy() -> int:
        started.set()
        finish.wait()
        return 1

    with Threads(2) as team:
        assert team.idle() == 2 and team.waiting() == 0
        future = team.submit(busy)
        started.wait()
        assert team.idle() == 1
        finish.set()
        assert future.result() == 1


def test_a_spare_part_shares_the_guesses_of_its_parts(eager: set[str]) -> None:
    # A part one level above the tasks, sent whole to a worker (a spare part): its own parts
    # are not tasks, but the slow ones have their guesses shared with idle workers too.
    heard: list[int] = []

    def note(history: tuple[tuple[int, int], ...], rank: int, seconds: float) -> None:
        heard.append(len(history))

    every = universe(P4C6N).secrets  # its compiled search starts one guess deep
    alone = Search(SearchOptions(P4C6N)).solve(every, 9, INFEASIBLE, ())
    split.OBSERVERS.append(note)
    try:
        with Threads(3) as team:
            task = (P4C6N, "total", None, False, 1, (), every, 9, INFEASIBLE)
            found, sets_searched = team.submit(solve_task, *task).result()
    finally:
        split.OBSERVERS.remove(note)
    assert found == alone
    assert sets_searched > 0
    assert heard and set(heard) == {1}  # the guesses of its parts, one guess deep


def test_a_helper_under_way_when_the_guesses_run_out_is_waited_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A helper's guess may be the one that beats the incumbent: it is not told to stop when
    # the task's own thread has taken every other guess and closes the split.
    monkeypatch.setattr(split, "SPLIT_AFTER", 0.0)
    monkeypatch.setattr(split, "SPLIT_MIN", 40)
    history = ((0, 3),)
    codes = next(sets(P4C6N, 1, 150))
    alone = Search(SearchOptions(P4C6N)).solve(codes, 9, INFEASIBLE, history)
    assert alone is not None
    # at the optimum's cost no tree fits: every guess of a bound below it is tried
    shared = Split(Search(SearchOptions(P4C6N)), codes, 9, alone[0], history)
    real, told, entered = search_calls.try_guess, [], threading.Event()

    def late(*arguments: Any) -> int:
        if threading.current_thread() is threading.main_thread():
            if shared.next > 1:  # the own thread's second guess: once the helper took one
                assert entered.wait(60)
        elif not entered.is_set():
            entered.set()
            deadline = time.monotonic() + 60
            while shared.next < len(shared.guesses) and time.monotonic() < deadline:
                time.sleep(0.01)  # until the own thread took the other guesses
            time.sleep(0.2)  # and closed the split
            flag = stop_flag()
            assert flag is not None
            told.append(int(flag[0]))
        return real(*arguments)

    monkeypatch.setattr(search_calls, "try_guess", late)
    options = (P4C6N, "total", None, False, 1)
    with Threads(1) as team:
        found = shared.solve(team, lambda split: help_task(options, split))
    assert told == [0]  # under way, not stopped
    assert found is None


def test_a_helper_gives_way_to_a_round_not_to_a_task_sent_ahead(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two threads, one held busy: the other helps a split of 40 guesses, one guess at a
    # time as the test lets it. A task sent ahead queued meanwhile waits for the helper,
    # which takes the next guess; a round's task queued makes it return after its guess
    # under way, guesses left, and the round's task runs.
    codes = next(sets(P4C6N, 1, 150))
    shared = Split(Search(SearchOptions(P4C6N)), codes, 9, INFEASIBLE, ((0, 3),))
    shared.guesses, shared.bounds = np.arange(40), np.zeros(40, dtype=np.int64)
    shared.incumbent[:] = (INFEASIBLE * 40, 40)
    tried: list[int] = []
    step = threading.Semaphore(0)  # one guess more for each release

    def guess(*arguments: Any) -> int:
        tried.append(arguments[-1])  # its rank
        assert step.acquire(timeout=60)
        return FAIL

    def until(done: Any) -> None:
        deadline = time.monotonic() + 60
        while not done() and time.monotonic() < deadline:
            time.sleep(0.01)

    monkeypatch.setattr(search_calls, "try_guess", guess)
    began, release, order = threading.Event(), threading.Event(), []
    with Threads(2) as team:
        held = team.submit(lambda: began.set() or release.wait(60))
        assert began.wait(60)
        try:
            helper = team.submit(help_split, Search(SearchOptions(P4C6N)), shared, team)
            until(lambda: len(tried) == 1)
            team.submit_at(AHEAD, order.append, AHEAD)
            step.release()
            until(lambda: len(tried) == 2 or helper.done())
            kept = (len(tried), helper.done())
            queued = team.submit_at(ROUND, order.append, ROUND)
            step.release()
            queued.result(60)
        finally:
            release.set()
            for _ in range(40):
                step.release()
        assert held.result(60)
    assert kept == (2, False)  # the helper took the next guess, still under way
    assert helper.result() == 0 and tried == [0, 1] and shared.next == 2
    assert order == [ROUND, AHEAD]


class Counting(Threads):
    """``Threads`` that note the history of each task of the search sent to them."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.histories: list[tuple[tuple[int, int], ...]] = []

    def submit_at(self, priority: int, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        if fn is solve_task:
            self.histories.append(args[5])
        return super().submit_at(priority, fn, *args, **kwargs)


def test_a_spare_part_sends_its_rounds_to_the_workers() -> None:
    # A part one level above the tasks, sent whole to a worker (a spare part): its rounds'
    # parts are tasks on the same workers, each taken back by the spare part's worker when
    # no other has started it, and the answer is the one of one search.
    rules = Rules.parse("p3c10n")  # searched in Python two guesses deep
    search = Search(SearchOptions(rules))
    every, depth = universe(rules).secrets, search.state.unlimited
    reply, part = max(
        search.state.scores.parts(search.state.ctx, every, 0), key=lambda p: len(p[1])
    )
    history = ((0, reply),)
    alone = Search(SearchOptions(rules)).solve(part, depth, INFEASIBLE, history)
    with Counting(3) as team:
        task = (rules, "total", None, False, 1, history, part, depth, INFEASIBLE)
        found, sets_searched = team.submit(solve_task, *task).result()
    assert found == alone
    assert sets_searched > 0
    assert {len(asked) for asked in team.histories} == {1, 2}  # the spare part, its parts
