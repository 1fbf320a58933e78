"""Long searches: spread over threads, processes or a Dask cluster, interrupted and resumed
from a checkpoint; the tree is the one a single uninterrupted search finds."""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bullscows._kernels import drivers
from bullscows._kernels.tables import INFEASIBLE
from bullscows.cli import main
from bullscows.executors import TaskStopped, Threads, make_executor, workers
from bullscows.rules import Rules
from bullscows.search import OptimalResult, distribute, optimal_tree, reporting
from bullscows.search import optimal as search_optimal
from bullscows.search.distribute import RETRIES, Checkpoint
from bullscows.search.engine import Run, Search, SearchOptions
from bullscows.search.optimal import Budget, Objective, SearchReport, SearchStopped
from bullscows.search.worker import prepare, solve_task
from bullscows.universe import universe

MM = Rules.parse("mm")
#: A variant searched in Python two guesses deep (``options.python_levels``; ``mm`` one): its
#: parts one guess deep are spare work for idle workers.
TWO_LEVELS = Rules.parse("p3c10n")


@pytest.fixture(scope="module")
def alone() -> dict[str, OptimalResult]:
    return {objective: optimal_tree(MM, objective) for objective in ("total", "worst")}


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    with ProcessPoolExecutor(2, mp_context=get_context("spawn")) as executor:
        yield executor


class Counting(Executor):
    """An executor that counts the tasks it is given (and notes their functions) and hands
    them on."""

    def __init__(self, inner: Executor) -> None:
        self.inner = inner
        self._max_workers = 2
        self.submitted = 0
        self.functions: list[Callable[..., Any]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.submitted += 1
        self.functions.append(fn)
        return self.inner.submit(fn, *args, **kwargs)


@pytest.mark.parametrize("objective", ["total", "worst"])
def test_processes_find_the_same_tree(
    objective: Objective, alone: dict[str, OptimalResult], pool: ProcessPoolExecutor
) -> None:
    counting = Counting(pool)
    spread = optimal_tree(MM, objective, executor=counting)
    assert counting.submitted > 0  # the tasks did go to the processes
    assert spread.tree == alone[objective].tree
    assert (spread.total, spread.worst) == (alone[objective].total, alone[objective].worst)


def test_the_workers_start_up_before_the_first_task(alone: dict[str, OptimalResult]) -> None:
    # Each worker is sent ``prepare`` as the search starts (it loads the compiled kernels
    # while this process gets its own search ready), then the tasks.
    with ThreadPoolExecutor(2) as threads:
        counting = Counting(threads)
        spread = optimal_tree(MM, "total", executor=counting)
    assert counting.functions[:2] == [prepare, prepare]
    assert set(counting.functions[2:]) == {solve_task}
    assert spread.tree == alone["total"].tree


def test_a_dask_cluster_finds_the_same_tree(alone: dict[str, OptimalResult]) -> None:
    distributed = pytest.importorskip("dask.distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        assert workers(client.get_executor()) == 2  # tasks started at once
        spread = optimal_tree(MM, "total", executor=client.get_executor())
    assert spread.tree == alone["total"].tree


def test_an_interrupt_stops_the_local_processes_at_once() -> None:
    # A task in compiled code does not see Ctrl-C until it returns: its process is stopped
    # instead of waited for (it would have ended by itself, exit code 0, after its task).
    with pytest.raises(KeyboardInterrupt), make_executor(None, 2, None) as pool:
        assert pool is not None
        pool.submit(time.sleep, 120)
        processes = list(pool._processes.values())  # type: ignore[attr-defined]
        raise KeyboardInterrupt
    assert processes and all(process.exitcode == -signal.SIGTERM for process in processes)


def _dies_once(*arguments: Any) -> Any:
    """``solve_task``, but the first process to take a task dies (as a worker killed
    mid-task would): the file named by ``BULLSCOWS_TEST_DIE`` is taken, once."""
    marker = os.environ.get("BULLSCOWS_TEST_DIE", "")
    try:
        os.rename(marker, marker + ".taken")
    except OSError:
        return solve_task(*arguments)
    os._exit(1)


class _LosesWorkers:
    """``solve_task`` whose first ``lost`` calls fail as a Dask worker lost for good does."""

    def __init__(self, lost: int) -> None:
        self.lost = lost
        self.calls = 0

    def __call__(self, *arguments: Any) -> Any:
        self.calls += 1
        if self.calls <= self.lost:
            raise ConnectionResetError("worker lost")  # KilledWorker, CommClosedError, ...
        return solve_task(*arguments)


def _search_with(
    task: Callable[..., Any], executor: Executor, path: Path | None, rules: Rules = MM
) -> tuple[Any, Any]:
    store = Checkpoint(path, rules.spec, "total", None, False)
    search = Search(SearchOptions(rules), Run(checkpoint=store, executor=executor, task=task))
    found = search.solve(universe(rules).secrets, search.state.unlimited, INFEASIBLE, ())
    store.close()
    assert found is not None
    return found[1], search


def test_a_killed_worker_process_loses_no_answer(
    tmp_path: Path, alone: dict[str, OptimalResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "die"
    marker.write_text("")
    monkeypatch.setenv("BULLSCOWS_TEST_DIE", str(marker))
    with ProcessPoolExecutor(2, mp_context=get_context("spawn")) as broken:
        tree, search = _search_with(_dies_once, broken, tmp_path / "mm.ckpt")
    assert not marker.exists()  # a worker did die
    assert search.tasks.lost >= 1  # its task (and the pool's others) were solved here
    assert tree == alone["total"].tree
    # Every task's answer is in the checkpoint, which alone gives the tree again.
    again = optimal_tree(MM, "total", checkpoint=tmp_path / "mm.ckpt")
    assert again.tree == alone["total"].tree


def test_a_task_whose_worker_is_lost_is_sent_again(
    tmp_path: Path, alone: dict[str, OptimalResult]
) -> None:
    for lost in (1, RETRIES + 2):  # sent again; or lost too often and solved here
        task = _LosesWorkers(lost)
        with ThreadPoolExecutor(2) as threads:
            tree, search = _search_with(task, threads, tmp_path / f"mm-{lost}.ckpt")
        assert tree == alone["total"].tree
        assert search.tasks.lost == lost


class Recording(Executor):
    """An executor that notes each task's part and window and hands it on."""

    def __init__(self, inner: Executor) -> None:
        self.inner = inner
        self._max_workers = 2
        self.sent: list[tuple[Any, int]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.sent.append((args[5], args[8]))  # (history, window) of solve_task's arguments
        return self.inner.submit(fn, *args, **kwargs)


def test_idle_workers_take_parts_one_guess_above_the_tasks(
    alone: dict[str, OptimalResult],
) -> None:
    with ThreadPoolExecutor(2) as threads:
        recording = Recording(threads)
        store = Checkpoint(None, "mm", "total", None, False)
        run = Run(checkpoint=store, executor=recording, task=solve_task)
        search = Search(SearchOptions(MM), run)
        here: list[tuple[Any, int]] = []
        local = search.tasks.local

        def noted(history: Any, codes: Any, depth: int, window: int) -> Any:
            here.append((history, window))
            return local(history, codes, depth, window)

        search.tasks.local = noted
        found = search.solve(universe(MM).secrets, search.state.unlimited, INFEASIBLE, ())
    assert found is not None and found[1] == alone["total"].tree
    stolen = {asked for asked in recording.sent if len(asked[0]) == 1}
    solved_here = {asked for asked in here if len(asked[0]) == 1}
    assert stolen and solved_here  # workers took some parts, this process solved others
    assert not stolen & solved_here  # a part a worker took is not solved here too
    assert not search.tasks.spare  # none left behind


class HoldingFirstTask(Executor):
    """Hands tasks on to threads, but the first task two guesses deep (the one the search
    awaits first) waits until a second spare part (one guess deep) has been sent."""

    def __init__(self, inner: Executor) -> None:
        self.inner = inner
        self._max_workers = 2
        self.spares = 0
        self.held = False
        self.released = threading.Event()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if len(args[5]) == 1:  # the history of solve_task's arguments: a spare part
            self.spares += 1
            if self.spares >= 2:
                self.released.set()
        elif not self.held:
            self.held = True
            return self.inner.submit(self._hold, fn, *args)
        return self.inner.submit(fn, *args, **kwargs)

    def _hold(self, fn: Callable[..., Any], *args: Any) -> Any:
        if not self.released.wait(timeout=300):
            raise AssertionError("no second spare part was sent while this task ran")
        return fn(*args)


def test_a_worker_done_with_a_spare_part_gets_another_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # While this process awaits a task, a worker that finishes a spare part is given the
    # next at once: the wait ends when any task in flight is done, not at the next tick.
    monkeypatch.setattr(distribute, "WAIT_TICK", 600.0)
    with ThreadPoolExecutor(2) as threads:
        holding = HoldingFirstTask(threads)
        tree, _ = _search_with(solve_task, holding, None, TWO_LEVELS)
    assert holding.held and holding.spares >= 2
    assert tree == optimal_tree(TWO_LEVELS, "total").tree


def _threads_of_tasks() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name.startswith("bullscows-task")]


def test_jobs_run_the_search_on_threads_of_this_process(
    alone: dict[str, OptimalResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Threads start at once (a process imports numba and loads the kernels first); the
    # compiled search releases the GIL, so they search side by side.
    def no_process(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a search with --jobs starts no process")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", no_process)
    ran_on: set[str] = set()
    processes = set(multiprocessing.active_children())  # other tests' pools

    def noting(*arguments: Any) -> Any:
        ran_on.add(threading.current_thread().name)
        return solve_task(*arguments)

    with make_executor(None, 2, None, threads=True) as pool:
        assert isinstance(pool, Threads) and workers(pool) == 2
        tree, search = _search_with(noting, pool, None)
    assert tree == alone["total"].tree
    assert ran_on and all(name.startswith("bullscows-task") for name in ran_on)
    assert search.reporting.far > 0  # the threads' sets are counted
    assert set(multiprocessing.active_children()) <= processes
    for thread in _threads_of_tasks():
        thread.join(timeout=60)
    assert not _threads_of_tasks()  # shut down with the pool


def test_the_tree_command_with_jobs_starts_no_process(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_process(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a search with --jobs starts no process")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", no_process)
    result = CliRunner().invoke(
        main, ["tree", "--rules", "p4c4r", "--strategy", "optimal", "--jobs", "2"]
    )
    assert result.exit_code == 0, result.output
    assert "total" in result.stdout


def _endless_task() -> tuple[Any, ...]:
    """``solve_task``'s arguments for a task that runs for minutes in compiled code: every
    ``bc`` code, deep enough to be searched there at once."""
    bc = Rules.parse("bc")
    codes = universe(bc).secrets.copy()
    return (bc, "total", None, False, 1, ((0, 0), (1, 0)), codes, len(codes) + 1, INFEASIBLE)


def _await_start(future: Future[Any]) -> None:
    deadline = time.monotonic() + 300  # at once; minutes on a loaded machine
    while not future.running():
        if time.monotonic() > deadline:
            raise AssertionError("the task did not start")
        time.sleep(0.01)


def test_a_task_on_threads_stops_when_its_future_is_cancelled() -> None:
    with Threads(1) as team:
        future = team.submit(solve_task, *_endless_task())
        _await_start(future)
        time.sleep(0.2)  # well into the compiled search
        assert future.cancel() is False  # under way: told to stop, not cancelled
        assert isinstance(future.exception(timeout=120), TaskStopped)
        # The thread's search kept only what it settled before: it answers as a fresh one.
        bc, history = Rules.parse("bc"), ((0, 0), (1, 0))
        codes = universe(bc).secrets[:80].copy()
        asked = (bc, "total", None, False, 1, history, codes, 8, INFEASIBLE)
        fresh = Search(SearchOptions(bc)).solve(codes, 8, INFEASIBLE, history)
        assert team.submit(solve_task, *asked).result()[0] == fresh


def test_an_interrupt_stops_the_tasks_on_threads() -> None:
    # A task in compiled code does not see Ctrl-C: it is told to stop, and does, while the
    # interrupt goes on at once (the threads do not hold up the interpreter's exit).
    with pytest.raises(KeyboardInterrupt), make_executor(None, 2, None, threads=True) as pool:
        assert pool is not None
        future = pool.submit(solve_task, *_endless_task())
        waiting = pool.submit(solve_task, *_endless_task())
        queued = pool.submit(solve_task, *_endless_task())
        _await_start(future)
        _await_start(waiting)
        raise KeyboardInterrupt
    assert queued.cancelled()
    for task in (future, waiting):
        assert isinstance(task.exception(timeout=120), TaskStopped)
    assert all(thread.daemon for thread in _threads_of_tasks())


def test_tasks_on_threads_run_their_kernels_on_their_own_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two tasks calling numba's parallel drivers at once is not safe with every threading
    # layer, and the threads keep the cores busy already.
    seen: list[int] = []
    solve = Search.solve

    def noting(self: Search, *arguments: Any) -> Any:
        seen.append(drivers.threads_for(1 << 40, 1))
        return solve(self, *arguments)

    monkeypatch.setattr(Search, "solve", noting)
    codes = universe(MM).secrets[:100].copy()
    with Threads(2) as team:
        team.submit(solve_task, MM, "total", None, False, 1, (), codes, 9, INFEASIBLE).result()
    assert seen and set(seen) == {1}


def test_threads_of_this_process_get_no_start_up_task(
    alone: dict[str, OptimalResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The kernels are loaded once, before any task, on a thread of their own: no thread of
    # the team gets a start-up task (a process's workers do,
    # ``test_the_workers_start_up_before_the_first_task``).
    started: list[str] = []
    note = lambda: started.append(threading.current_thread().name)  # noqa: E731
    monkeypatch.setattr(search_optimal, "prepare", note)
    with make_executor(None, 2, None, threads=True) as pool:
        spread = optimal_tree(MM, "total", executor=pool)
    assert spread.tree == alone["total"].tree
    assert started == ["bullscows-prepare"]


def test_a_spent_budget_stops_the_tasks_on_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    # The budget is seen in this thread, between its waits; the tasks under way are told to
    # stop and the threads end (they would run on for seconds: bc's parts are large). A
    # budget below the sets this thread searches itself (143, its lookaheads) is seen at the
    # first report once a task two guesses deep is sent (a spare part one guess deep, sent
    # first, may end before): within a tenth of a second, reported at each wait
    # (bc's whole search takes 15 s on 2 threads of a loaded 2-core machine, and no part is
    # settled before its end: a machine 5 times faster settles none in the first second).
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)
    monkeypatch.setattr(distribute, "WAIT_TICK", 0.1)
    stopped: list[Future[Any]] = []
    spent = Budget(sets=100).watch(None)

    deep: list[bool] = []

    def budget(report: SearchReport) -> None:
        if deep:
            spent(report)

    with (
        pytest.raises(SearchStopped) as raised,
        make_executor(None, 2, None, threads=True) as pool,
    ):
        assert isinstance(pool, Threads)
        submit = pool.submit_at

        def noting(priority: int, fn: Callable[..., Any], /, *args: Any) -> Future[Any]:
            future = submit(priority, fn, *args)
            stopped.append(future)
            if len(args) > 5 and len(args[5]) == 2:  # the part's history: two guesses deep
                deep.append(True)
            return future

        pool.submit_at = noting  # type: ignore[method-assign]
        optimal_tree(Rules.parse("bc"), "total", executor=pool, progress=budget)
    assert raised.value.standing.reason == "the budget of 100 sets"
    assert raised.value.standing.lower == 24575  # the root's bound: no part settled yet
    for thread in _threads_of_tasks():
        thread.join(timeout=120)
    assert not _threads_of_tasks()
    assert stopped and all(future.done() for future in stopped)
    # Those not done yet were cancelled, or stopped under way (both workers were busy).
    ended = [
        future.cancelled() or isinstance(future.exception(), TaskStopped) for future in stopped
    ]
    assert any(ended)


def test_the_sets_of_tasks_on_threads_count_while_they_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # bc's first tasks take seconds and its whole search about 160,000 sets: were a task's
    # sets counted only when it ends, the reports would stay at this thread's 143 sets until
    # the first tasks end, then jump past 100,000. Read live, they climb between the waits
    # (a twentieth of a second here: 700 sets on a loaded 2-core machine, so that one 5 or
    # 10 times faster still reports between 1,000 and 20,000), and a budget of 20,000 sets
    # stops the search near it.
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)
    monkeypatch.setattr(distribute, "WAIT_TICK", 0.05)
    seen: list[int] = []
    with (
        pytest.raises(SearchStopped) as raised,
        make_executor(None, 2, None, threads=True) as pool,
    ):
        optimal_tree(
            Rules.parse("bc"), "total", executor=pool, budget=Budget(sets=20_000),
            progress=lambda report: seen.append(report.nodes),
        )  # fmt: skip
    assert seen == sorted(seen)
    assert 20_000 <= seen[-1] <= raised.value.standing.nodes < 80_000
    assert any(1_000 <= sets < 20_000 for sets in seen)  # climbing while the tasks ran


def test_ctrl_c_ends_a_search_on_threads_at_once(tmp_path: Path) -> None:
    # The tasks in compiled code are told to stop and the threads do not hold up the exit:
    # the command says where the answers are and exits 130 (interrupted). The search of bc's
    # fewest worst-case games takes minutes on 2 threads (still under way after 20 s of a
    # loaded 2-core machine), so that it is under way a second after it began on any machine.
    path = tmp_path / "bc.ckpt"
    env = {**os.environ, "BULLSCOWS_CACHE": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "bullscows", "tree", "--rules", "bc", "--strategy",
               "optimal-worst-count", "--jobs", "2", "--checkpoint", str(path)]  # fmt: skip
    with subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # a shell's `&` ignores it
    ) as search:
        deadline = time.monotonic() + 300  # it loads in seconds; minutes on a loaded machine
        while not path.exists() and search.poll() is None:  # until the search has begun
            if time.monotonic() > deadline:
                pytest.fail("the search did not begin within 5 minutes")
            time.sleep(0.01)
        time.sleep(1.0)  # the tasks under way in compiled code
        assert search.poll() is None, "the search ended before it was interrupted"
        search.send_signal(signal.SIGINT)
        _, stderr = search.communicate(timeout=120)
    assert search.returncode == 130, stderr
    assert f"the answers so far are in {path}" in stderr
    assert "Traceback" not in stderr
