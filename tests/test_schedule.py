"""The schedule of a search on ``executors.Threads``: the rounds of a set's next guesses are
searched by idle workers while a round waits (``PartTasks.ahead``, ``settle.rounds_ahead``),
with the same tree, and stopped when no round will ask them; a task cancelled before it
started holds no worker; a thread come free takes the most urgent task waiting
(``distribute.ROUND`` first, ``AHEAD`` last); a tree read back from another thread's sets is
searched under the search's watch."""

from __future__ import annotations

import threading
import time
from typing import Any

import numpy as np
import pytest

from bullscows._kernels import search_calls
from bullscows._kernels.tables import INFEASIBLE, STOPPED
from bullscows.executors import TaskStopped, Threads, stop_flag
from bullscows.rules import Rules
from bullscows.search import reporting
from bullscows.search.checkpoint import Found, History
from bullscows.search.distribute import (
    AHEAD,
    HELP,
    LATER,
    ROUND,
    SPARE,
    SPARE_ROUND,
    Request,
)
from bullscows.search.engine import Search
from bullscows.search.options import Run, SearchOptions
from bullscows.search.progress import BudgetSpent, SearchReport
from bullscows.search.settle import Candidate, rounds_ahead
from bullscows.search.worker import solve_task
from bullscows.tree.model import Node
from bullscows.universe import IndexArray, universe

#: Generous: how long a task waits for what the schedule should bring, however slow the machine.
WAIT = 60.0
#: A variant searched in Python two guesses deep: its parts one guess deep settle many guesses,
#: each in rounds of tasks (parts two guesses deep).
RULES = Rules.parse("p3c10n")


def largest_part() -> tuple[IndexArray, int, History, Found]:
    """The largest part one guess deep: its codes, depth and history, and its optimum."""
    search = Search(SearchOptions(RULES))
    every, depth = universe(RULES).secrets, search.state.unlimited
    parts = search.state.scores.parts(search.state.ctx, every, 0)
    reply, part = max(parts, key=lambda p: len(p[1]))
    history = ((0, reply),)
    return (
        part,
        depth,
        history,
        Search(SearchOptions(RULES)).solve(part, depth, INFEASIBLE, history),
    )


def test_the_next_guesses_are_searched_while_a_round_waits() -> None:
    # The largest part one guess deep, searched on 4 threads; each task solved by a search of
    # its own. The first task of the second guess tried (the best tree found by then) holds
    # its round until a task of a later guess has started: only idle workers searching the
    # rounds to come start one.
    part, depth, history, alone = largest_part()
    guesses: list[int] = []  # the guesses, in the order their first task started
    later, lock = threading.Event(), threading.Lock()
    held: list[bool] = []

    def task(*arguments: Any) -> tuple[Found, int]:
        rules, objective, _, _, _, asked, codes, deep, window = arguments
        guess = asked[-1][0]
        with lock:
            if guess not in guesses:
                guesses.append(guess)
            if len(guesses) > 2:
                later.set()
            first_of_second = guess == guesses[1] if len(guesses) > 1 else False
            first_of_second = first_of_second and not held
            if first_of_second:
                held.append(True)
        if first_of_second:
            held[0] = later.wait(WAIT)
        solved = Search(SearchOptions(rules, objective)).solve(codes, deep, window, asked)
        return solved, 1

    with Threads(4) as team:
        run = Run(executor=team, task=task)
        found = Search(SearchOptions(RULES), run).solve(part, depth, INFEASIBLE, history)
    assert held == [True]  # a later guess's task started while the round waited
    assert found == alone  # the same cost and tree


class Known:
    """Answers known to ``rounds_ahead``: tasks by history and window (the others not known
    yet), small parts (histories in ``small``) solved by ``solve`` as asked."""

    def __init__(self, tasks: dict[tuple[History, int], Found], small: dict[History, Found]):
        self.tasks, self.small = tasks, small
        self.solved: list[History] = []

    def known(self, request: Request) -> Any:
        history, _, window = request
        if history in self.small:
            return LATER
        return self.tasks.get((history, window), ...)

    def solve(self, request: Request) -> Found:
        self.solved.append(request[0])
        return self.small[request[0]]


def candidate(guess: int, bounds: list[int], rank: int = 0) -> Candidate:
    codes = np.arange(40, dtype=np.int64)
    return sum(bounds), rank, guess, [(40, r, codes) for r in range(len(bounds))], bounds


def test_rounds_ahead_play_each_guess_with_the_answers_known() -> None:
    # Best 30. Guess 7: parts of bounds 10, 10 and 0 (total 20), 3 of slack each: windows
    # 13, 13 and 3. Part 0 has a tree of 12, part 1 none below 13 (its bound 13 now), the
    # small part 2 is solved at 3: 28 in all. Its second round asks part 1 alone, with the
    # 2 left (window 15): none below it, 30, refuted. Guess 8: its tasks are not known, so
    # its first round is asked (its small part not: it is solved when its round comes).
    h7 = lambda reply: ((0, 1), (7, reply))  # noqa: E731
    h8 = lambda reply: ((0, 1), (8, reply))  # noqa: E731
    tasks = {(h7(0), 13): (12, Node(1)), (h7(1), 13): None, (h7(1), 15): None}
    known = Known(tasks, {h7(2): (3, Node(2)), h8(2): None})
    explored = [candidate(7, [10, 10, 0]), candidate(8, [10, 10, 0])]
    asked = list(rounds_ahead(explored, ((0, 1),), 30, 0, known))
    assert [(history, window) for history, _, window in asked] == [(h8(0), 13), (h8(1), 13)]
    assert known.solved == [h7(2)]


def test_rounds_ahead_go_on_to_the_next_round_of_a_guess() -> None:
    # Best 40: guess 7's first round (windows 20) answered, part 1 with none below 20:
    # the second round asks part 1 alone, with the slack left (40 - 12 - 20 = 8).
    h7 = lambda reply: ((0, 1), (7, reply))  # noqa: E731
    known = Known({(h7(0), 20): (12, Node(1)), (h7(1), 20): None}, {})
    asked = list(rounds_ahead([candidate(7, [10, 10])], ((0, 1),), 40, 0, known))
    assert [(history, window) for history, _, window in asked] == [(h7(1), 20 + 8)]
    # a guess whose bound leaves no slack below the best is not asked
    assert list(rounds_ahead([candidate(7, [20, 20])], ((0, 1),), 40, 0, known)) == []


def test_a_task_cancelled_before_it_starts_holds_no_worker() -> None:
    started, finish = threading.Barrier(3), threading.Event()

    def busy() -> int:
        started.wait(WAIT)
        finish.wait(WAIT)
        return 1

    with Threads(2) as team:
        running = [team.submit(busy), team.submit(busy)]
        started.wait(WAIT)  # both threads busy
        queued = team.submit(busy)
        assert (team.waiting(), team.idle()) == (1, 0)
        assert queued.cancel()
        # it stays in the queue until a thread takes it, but no thread will run it
        assert (team.waiting(), team.busy()) == (0, 2)
        finish.set()
        assert [future.result() for future in running] == [1, 1]


def test_tasks_sent_ahead_are_stopped_when_no_round_will_ask_them() -> None:
    # A task sent ahead while a worker is idle, under way when its set's best changes (its
    # window is then wider than any round will ask): told to stop.
    started, told = threading.Event(), []

    def task(*arguments: Any) -> tuple[Found, int]:
        started.set()
        flag = stop_flag()
        assert flag is not None
        deadline = time.monotonic() + WAIT
        while not flag[0] and time.monotonic() < deadline:
            time.sleep(0.01)
        told.append(int(flag[0]))
        raise TaskStopped("told to stop")

    with Threads(2) as team:
        search = Search(SearchOptions(RULES), Run(executor=team, task=task))
        history, codes = ((0, 1), (5, 2)), universe(RULES).secrets[:40]
        search.tasks.ahead(9, lambda: [(history, codes, 100)])
        search.tasks.send_ahead()
        assert started.wait(WAIT)
        future = search.tasks.early[history][0]
        search.tasks.ahead(9, None)
        deadline = time.monotonic() + WAIT
        while not told and time.monotonic() < deadline:
            time.sleep(0.01)
    assert told == [1]
    assert not search.tasks.early and isinstance(future.exception(WAIT), TaskStopped)


def test_a_part_searched_again_to_read_its_tree_back_is_watched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A search settles every code; another, sharing its table, takes the set from it, and
    # reading its tree back searches it again (``SearchState._again``; the table emptied
    # meanwhile, as other sets overwrite it). The budget is spent while that call runs: the
    # search's watch must stop it from inside and raise what the report raised.
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)
    rules = Rules.parse("p4c6n")
    options = SearchOptions(rules)
    inside: list[bool] = []

    def budget(report: SearchReport) -> None:
        if inside:
            raise BudgetSpent("the budget, spent reading a tree back")

    search = Search(options, Run(budget, time.perf_counter()))
    assert search.watch is not None
    search.watch.tick = 0.01
    state = search.state
    table = search_calls.shared_table(len(universe(rules)))
    state.share(table)
    other = Search(options)
    other.state.share(table)
    every = state.everything
    cost = other.state.solve(every, 9, INFEASIBLE, every)
    assert state.solve(every, 9, INFEASIBLE, every) == cost
    assert state.sets == 0 and state.shared_hits == 1
    table[:] = 0
    answers: list[int] = []
    solve = search_calls.solve

    def held(*arguments: Any) -> int:  # the first runs once the watch stopped it, or after WAIT
        inside.append(True)
        began = time.monotonic()
        while len(inside) == 1 and not state.stop[0] and time.monotonic() - began < WAIT:
            time.sleep(0.01)
        answers.append(solve(*arguments))
        return answers[-1]

    monkeypatch.setattr(search_calls, "solve", held)
    with pytest.raises(BudgetSpent, match="reading a tree back"):
        state.rebuild(every, 9)
    assert answers == [STOPPED]  # stopped inside the call
    assert int(state.stop[0]) == 0  # the watch's stop, taken back


class Halt(Exception):
    """Ends a search once what a test looks at has happened."""


def test_the_first_guess_s_parts_go_to_idle_workers_before_one_is_searched_here() -> None:
    # The root's round: this thread searches its first part, the others are spare work for
    # idle workers. They are sent before this thread starts on its part (its lookaheads
    # are serial), not once that part's first round of tasks is sent.
    sent: list[History] = []
    spare_then: list[int] = []
    with Threads(4) as team:
        submit = team.submit_at

        def noted(priority: int, fn: Any, /, *arguments: Any) -> Any:
            sent.append(arguments[5])  # a task's history
            return submit(priority, fn, *arguments)

        team.submit_at = noted  # type: ignore[method-assign]
        search = Search(SearchOptions(RULES), Run(executor=team, task=lambda *_: (None, 0)))

        def here(history: History, *_: Any) -> Found:
            spare_then.append(sum(len(asked) == 1 for asked in sent))
            raise Halt

        search.tasks.local = here
        with pytest.raises(Halt):
            search.solve(universe(RULES).secrets, search.state.unlimited, INFEASIBLE, ())
    assert spare_then == [3]  # one worker of the four kept free of spare parts


def test_a_free_thread_takes_the_most_urgent_task_waiting() -> None:
    # One thread, held busy while a task of each priority is queued, the least urgent first
    # (first come, first served would run them in that order): once free, it takes the
    # round's task first and the task sent ahead last.
    began, release, order = threading.Event(), threading.Event(), []

    def hold() -> None:
        began.set()
        release.wait(WAIT)

    priorities = [AHEAD, HELP, SPARE, SPARE_ROUND, ROUND, ROUND]
    with Threads(1) as team:
        held = team.submit(hold)
        assert began.wait(WAIT)
        queued = [team.submit_at(p, order.append, (p, i)) for i, p in enumerate(priorities)]
        # what a split's helper gives way to: the tasks more urgent than a helper
        assert (team.waiting(), team.waiting(HELP), team.waiting(ROUND)) == (6, 4, 0)
        release.set()
        held.result(WAIT)
        for future in queued:
            future.result(WAIT)
    assert order == [(ROUND, 4), (ROUND, 5), (SPARE_ROUND, 3), (SPARE, 2), (HELP, 1), (AHEAD, 0)]


class Noting(Threads):
    """``Threads`` that note each task's priority, who sent it (the searching thread or a
    worker of the team) and, for a task of the search, the guesses of its history (-1 for a
    split's helper)."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.sent: list[tuple[int, str, int]] = []

    def submit_at(self, priority: int, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        who = "searching" if threading.current_thread() is threading.main_thread() else "team"
        self.sent.append((priority, who, len(args[5]) if fn is solve_task else -1))
        return super().submit_at(priority, fn, *args, **kwargs)

    def priorities(self) -> set[tuple[int, str, int]]:
        return set(self.sent)


#: The priorities each task of a search may be sent at, by who sent it and its depth.
ALLOWED = {
    ("searching", 1): {SPARE},  # a spare part
    ("searching", 2): {ROUND, AHEAD},
    ("team", 2): {SPARE_ROUND, AHEAD},  # a spare part's rounds
    ("searching", -1): {HELP},
    ("team", -1): {HELP},
}


def test_a_search_sends_each_task_at_its_priority() -> None:
    # The whole search on 4 threads: the searching thread's rounds at ROUND, the spare
    # parts at SPARE, their own rounds (asked on a worker) at SPARE_ROUND, a split's helpers
    # at HELP, and only the rounds sent ahead at AHEAD; the same tree.
    every = universe(RULES).secrets
    alone = Search(SearchOptions(RULES)).solve(every, 9, INFEASIBLE, ())
    with Noting(4) as team:
        search = Search(SearchOptions(RULES), Run(executor=team, task=solve_task))
        found = search.solve(every, 9, INFEASIBLE, ())
    assert found == alone
    assert all(priority in ALLOWED[who, deep] for priority, who, deep in team.sent)
    assert {(ROUND, "searching", 2), (SPARE, "searching", 1)} <= team.priorities()


def test_a_spare_part_s_rounds_come_after_the_searching_thread_s() -> None:
    # A spare part on a worker, two workers idle: its rounds' tasks go to them at
    # SPARE_ROUND, behind any round of the searching thread.
    part, depth, history, alone = largest_part()
    with Noting(3) as team:
        task = (RULES, "total", None, False, 1, history, part, depth, INFEASIBLE)
        found, _ = team.submit_at(SPARE, solve_task, *task).result()
    assert found == alone
    assert all(priority in ALLOWED[who, deep] for priority, who, deep in team.sent)
    assert (SPARE_ROUND, "team", 2) in team.priorities()


def test_a_round_sends_a_task_sent_ahead_and_not_started_at_its_own_priority() -> None:
    # One thread, held busy while a split's helper and a spare part wait, and then a task
    # sent ahead: a round that asks it takes it back and sends it again as its own, so it
    # runs before them, not after (at AHEAD, behind every other task).
    began, release, order = threading.Event(), threading.Event(), []

    def hold() -> None:
        began.set()
        release.wait(WAIT)

    def task(*arguments: Any) -> tuple[Found, int]:
        order.append(("task", arguments[-1]))  # its window
        return None, 1

    history, codes = ((0, 1), (5, 2)), universe(RULES).secrets[:40]
    with Threads(1) as team:
        search = Search(SearchOptions(RULES), Run(executor=team, task=task))
        held = team.submit(hold)
        assert began.wait(WAIT)
        others = [team.submit_at(p, order.append, p) for p in (HELP, SPARE)]
        # what ``send_ahead`` does while a worker is idle
        arguments = (*search.tasks.options, history, codes, 9, 20)
        search.tasks.early[history] = (team.submit_at(AHEAD, task, *arguments), 20)
        answers: list[Found] = []
        asking = threading.Thread(
            target=lambda: answers.extend(search.tasks.round(9, [(history, codes, 15)]))
        )
        asking.start()
        try:
            deadline = time.monotonic() + WAIT
            while history in search.tasks.early or team.waiting() < 3:  # the round has it
                if time.monotonic() > deadline:
                    break
                time.sleep(0.01)
            queued = team.waiting(), team.waiting(SPARE)
        finally:
            release.set()
        asking.join(WAIT)
        held.result(WAIT)
        for future in others:
            future.result(WAIT)
    assert queued == (3, 1)  # the task once, as the round's (before a spare part)
    assert answers == [None]
    assert order == [("task", 15), SPARE, HELP]  # sent again, with the round's window


def test_a_spare_part_s_worker_takes_back_only_a_task_not_started() -> None:
    # A spare part's worker solves itself a part of its round that no worker started; one
    # under way is left to run (told to stop, it would count as a lost worker, sent again).
    began, finish = threading.Event(), threading.Event()

    def task() -> int:  # told to stop?
        began.set()
        finish.wait(WAIT)
        flag = stop_flag()
        return -1 if flag is None else int(flag[0])

    with Threads(2) as team:
        tasks = Search(SearchOptions(RULES), Run(executor=team, task=solve_task)).tasks
        running = team.submit(task)
        assert began.wait(WAIT)
        queued = team.submit_at(AHEAD, abs, -1)  # after the worker's own
        try:
            worker = team.submit(lambda: (tasks._take_back(running), tasks._take_back(queued)))
            taken = worker.result(WAIT)
        finally:
            finish.set()
        told = running.result(WAIT)
    assert (taken, told) == ((False, True), 0)
    assert queued.cancelled()
