"""How far ``--jobs N`` can speed up the optimal search: every task of a real run recorded,
and the time a perfect scheduler would need on N workers, from the search's own structure.

Run: .venv/bin/python benchmarks/scaling.py                 # bc, total
     .venv/bin/python benchmarks/scaling.py mm p4c9n --workers 2 4 8 16 64
     .venv/bin/python benchmarks/scaling.py bc --objective worst --repeats 3

The search is recorded on one worker thread, every part two guesses deep sent as a task (one
guess deep for variants whose compiled search starts there): each task's CPU seconds, and the
searching thread's own (``serial``: the levels above the tasks, and parts too small to be
tasks). CPU seconds, not wall: they hardly move when neighbours share the cores.

The prediction keeps what the search's answers force: first guesses are tried one after
another; under a first guess, its parts (the chains) are independent; in a chain, the parts
under one second guess (a round) run together, and a round starts when the one before it is
answered. A perfect scheduler runs each round's tasks at once, the longest first, on N
workers; the serial seconds stay serial (in a real run some overlap the tasks: this side is
pessimistic). So it is what better scheduling alone can give with today's tasks: a task longer
than the rest of its round is a straggler no number of workers shortens (``unlimited``).

The prediction at 1 worker is the recorded run; the others are checked against real runs on
threads (``--measure``, best of ``--repeats``, the order alternating).
"""

from __future__ import annotations

import argparse
import heapq
import importlib
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from bullscows.executors import Threads
from bullscows.rules import Rules
from bullscows.search import Objective, optimal_tree
from bullscows.search.optimal import OBJECTIVES


@dataclass
class Task:
    """One task of a recorded run: the history it answers and its seconds on a worker."""

    history: tuple[tuple[int, int], ...]
    seconds: float = 0.0
    ran: bool = False


@dataclass
class Recording:
    """A run's tasks in the order they were sent, and its seconds."""

    tasks: list[Task] = field(default_factory=list)
    wall: float = 0.0
    #: The searching thread's own CPU seconds.
    serial: float = 0.0

    @property
    def task_seconds(self) -> float:
        return sum(task.seconds for task in self.tasks if task.ran)


class Recorder(Threads):
    """``Threads`` that note each task's history and seconds."""

    def __init__(self, workers: int, recording: Recording) -> None:
        super().__init__(workers)
        self.recording = recording

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        task = Task(history=tuple(args[-4]) if len(args) >= 4 else ())
        lock = threading.Lock()

        def timed() -> Any:
            began = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                with lock:
                    task.seconds, task.ran = time.thread_time() - began, True

        self.recording.tasks.append(task)
        return super().submit(timed)


def part_tasks() -> Any:
    """The class that sends a search's parts to its executor (``PartTasks``)."""
    for name in ("bullscows.search.scheduler", "bullscows.search.distribute"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, "PartTasks"):
            return module.PartTasks
    raise SystemExit("no PartTasks in bullscows.search: this benchmark needs updating")


def search(spec: str, objective: Objective, workers: int) -> Recording:
    """One search on ``workers`` threads, recorded. On one worker no part one guess above
    the tasks is kept as spare work (solved whole on the searching thread): each is split
    into its tasks, so that the searching thread's own seconds are the serial part."""
    recording = Recording()
    team = Recorder(workers, recording)
    tasks = part_tasks()
    spare = tasks._is_spare
    if workers == 1:
        tasks._is_spare = lambda *_: False
    try:
        began, own = time.perf_counter(), time.thread_time()
        optimal_tree(Rules.parse(spec), objective, executor=team)
        recording.wall = time.perf_counter() - began
        recording.serial = time.thread_time() - own
    finally:
        tasks._is_spare = spare
        team.shutdown(cancel_futures=True)
    return recording


Rounds = list[list[list[float]]]  # stages -> rounds (in order) -> the seconds of their tasks


def structure(recording: Recording) -> list[dict[object, list[list[float]]]]:
    """The recorded tasks as the search orders them: first guesses (stages) one after
    another; in each, chains of rounds (one chain a part under the first guess); a round is
    the tasks under one second guess of its chain (or the whole stage, when tasks are one
    guess deep)."""
    stages: dict[int, dict[object, dict[object, list[float]]]] = {}
    for task in recording.tasks:
        if not task.ran or not task.history:
            continue
        first = task.history[0][0]
        chain = task.history[0] if len(task.history) > 1 else first
        step = task.history[1][0] if len(task.history) > 1 else first
        stages.setdefault(first, {}).setdefault(chain, {}).setdefault(step, []).append(task.seconds)
    return [
        {chain: list(rounds.values()) for chain, rounds in chains.items()}
        for chains in stages.values()
    ]


def makespan(stage: dict[object, list[list[float]]], workers: int) -> float:
    """Seconds for one stage on ``workers``: its chains run side by side; a round's tasks are
    ready when the round before it in its chain ends; a free worker takes the longest ready
    task (an event simulation)."""
    ready: list[tuple[float, float, object, int]] = []  # (-seconds, ready at, chain, round)
    pending: dict[tuple[object, int], int] = {}
    for chain, rounds in stage.items():
        for seconds in rounds[0]:
            ready.append((-seconds, 0.0, chain, 0))
        pending[(chain, 0)] = len(rounds[0])
    heapq.heapify(ready)
    free = [0.0] * workers
    finish: dict[tuple[object, int], float] = defaultdict(float)
    queue: list[tuple[float, float, object, int]] = []  # ready later, by ready time
    end = 0.0
    while ready or queue:
        worker_at = heapq.heappop(free)
        if not ready and queue[0][0] > worker_at:
            worker_at = queue[0][0]  # nothing to do before the next round is ready
        while queue and queue[0][0] <= worker_at:
            at, negative, chain, index = heapq.heappop(queue)
            heapq.heappush(ready, (negative, at, chain, index))
        negative, at, chain, index = heapq.heappop(ready)
        done = max(worker_at, at) - negative
        heapq.heappush(free, done)
        end = max(end, done)
        key = (chain, index)
        finish[key] = max(finish[key], done)
        pending[key] -= 1
        rounds = stage[chain]
        if pending[key] == 0 and index + 1 < len(rounds):
            pending[(chain, index + 1)] = len(rounds[index + 1])
            for seconds in rounds[index + 1]:
                heapq.heappush(queue, (finish[key], -seconds, chain, index + 1))
    return end


def predict(recording: Recording, workers: int | None) -> float:
    """The seconds of the recorded search on ``workers`` (``None``: unlimited)."""
    stages = structure(recording)
    if workers is None:
        spans = [max(sum(max(r) for r in rounds) for rounds in stage.values()) for stage in stages]
        return recording.serial + sum(spans)
    return recording.serial + sum(makespan(stage, workers) for stage in stages)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rules", nargs="*", default=["bc"], help="variants (default: bc)")
    parser.add_argument("--objective", choices=OBJECTIVES, default="total")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4, 8, 16, 64])
    parser.add_argument("--measure", type=int, nargs="+", default=[2],
                        help="also time real runs on these numbers of threads")  # fmt: skip
    parser.add_argument("--repeats", type=int, default=2, help="runs of each, the best kept")
    args = parser.parse_args(argv)
    optimal_tree(Rules.parse("p3c6r"))  # load the compiled kernels
    for spec in args.rules:
        runs: dict[int, list[float]] = defaultdict(list)
        recorded: Recording | None = None
        for repeat in range(args.repeats):
            order = [1, *args.measure]
            for workers in order if repeat % 2 == 0 else order[::-1]:
                recording = search(spec, args.objective, workers)
                runs[workers].append(recording.wall)
                if workers == 1 and (recorded is None or recording.wall < recorded.wall):
                    recorded = recording
        assert recorded is not None
        base = predict(recorded, 1)
        tasks = [task.seconds for task in recorded.tasks if task.ran]
        print(
            f"{spec} {args.objective}: {len(tasks)} tasks, {recorded.task_seconds:.2f} s "
            f"(longest {max(tasks, default=0):.2f} s) CPU, serial {recorded.serial:.2f} s, "
            f"one worker {recorded.wall:.2f} s ({base:.2f} s CPU)"
        )
        head = ("workers", "predicted s", "speed-up", "measured s", "speed-up")
        print("  " + " ".join(f"{h:>{w}}" for h, w in zip(head, (8, 12, 9, 11, 9), strict=True)))
        for workers in [*args.workers, None]:
            seconds = predict(recorded, workers)
            measured = min(runs[workers]) if workers in runs else None
            shown = "unlimited" if workers is None else str(workers)
            real = "" if measured is None else f"{measured:>11.2f} {min(runs[1]) / measured:>9.2f}"
            print(f"  {shown:>8} {seconds:>12.2f} {base / seconds:>9.2f} {real}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
