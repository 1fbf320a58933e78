"""How far ``--jobs N`` can speed up the optimal search: every task of a real run recorded,
and the time a perfect scheduler would need on N workers, from the search's own structure.

Run: .venv/bin/python benchmarks/scaling.py                 # bc, total
     .venv/bin/python benchmarks/scaling.py mm p4c9n --workers 2 4 8 16 64
     .venv/bin/python benchmarks/scaling.py bc --objective worst --repeats 3
     .venv/bin/python benchmarks/scaling.py bc --objective worst-count --measure 2 \
         --repeats 1 --save bc-worst-count.json        # then --load it: no search

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

The predictions are checked against real runs on threads (``--measure``, best of
``--repeats``, the order alternating); speed-ups are against the run on one thread.
"""

from __future__ import annotations

import argparse
import heapq
import importlib
import json
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
from bullscows.search import Objective, optimal_tree, split
from bullscows.search.optimal import OBJECTIVES


@dataclass
class Task:
    """One task of a recorded run: the history it answers and its seconds on a worker."""

    history: tuple[tuple[int, int], ...]
    codes: int = 0
    seconds: float = 0.0
    ran: bool = False
    #: The thread seconds of each guess tried, when its guesses were shared (``search.split``).
    guesses: list[float] = field(default_factory=list)

    def jobs(self, split: bool) -> list[float]:
        """Its work as independent jobs: whole, or (``split``) each guess and the rest."""
        if not split or not self.guesses:
            return [self.seconds]
        return [*self.guesses, max(0.0, self.seconds - sum(self.guesses))]


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


#: The task running on each thread of a ``Recorder``.
_RUNNING = threading.local()


def _observe(history: tuple[tuple[int, int], ...], rank: int, seconds: float) -> None:
    task = getattr(_RUNNING, "task", None)
    if task is not None and task.history == history:
        task.guesses.append(seconds)


class Recorder(Threads):
    """``Threads`` that note each task's history and seconds (and each of its guesses', when
    they are shared: ``search.split``)."""

    def __init__(self, workers: int, recording: Recording) -> None:
        super().__init__(workers)
        self.recording = recording
        if _observe not in split.OBSERVERS:
            split.OBSERVERS.append(_observe)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        task = Task(tuple(args[-4]), len(args[-3])) if len(args) >= 4 else Task(())
        lock = threading.Lock()

        def timed() -> Any:
            began = time.thread_time()
            _RUNNING.task = task
            try:
                return fn(*args, **kwargs)
            finally:
                _RUNNING.task = None
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


History = tuple[tuple[int, int], ...]
RoundKey = tuple[History, int]  # a part, and the guess whose parts the round asks about


@dataclass
class Round:
    """The questions asked about the parts of one guess at one part: tasks, and parts
    searched one guess deeper on the searching thread, whose own rounds run then."""

    tasks: list[float] = field(default_factory=list)
    parts: list[History] = field(default_factory=list)


def structure(
    recording: Recording, shared: bool = False
) -> tuple[dict[History, list[RoundKey]], dict[RoundKey, Round]]:
    """The recorded tasks as the search asks them: each part's rounds in order (a round is
    answered before the next round of its part is asked), and what each round holds (with
    ``shared``, a task whose guesses were shared as its guesses). The root's rounds are its
    first guesses, tried one after another."""
    rounds: dict[History, list[RoundKey]] = {}
    held: dict[RoundKey, Round] = {}

    def note(key: RoundKey) -> Round:
        if key not in held:
            held[key] = Round()
            rounds.setdefault(key[0], []).append(key)
            part = key[0]
            if part:  # a part is asked about in its parent's round
                parent = note((part[:-1], part[-1][0]))
                if part not in parent.parts:
                    parent.parts.append(part)
        return held[key]

    for task in recording.tasks:
        if task.ran and task.history:
            note((task.history[:-1], task.history[-1][0])).tasks.extend(task.jobs(shared))
    return rounds, held


def makespan(recording: Recording, workers: int, shared: bool = False) -> float:
    """Seconds of the recorded tasks on ``workers``, scheduled perfectly within what the
    search's order forces: a round's tasks and parts start when the round is asked; a part's
    next round when the one before is answered; a free worker takes the longest task ready
    (an event simulation). With ``shared``, a task whose guesses were shared is as many
    tasks as it tried guesses, and one more for the rest of its seconds."""
    rounds, held = structure(recording, shared)
    ready: list[tuple[float, int, RoundKey]] = []  # (-seconds, tiebreak, round)
    waiting: dict[RoundKey, int] = {}  # tasks and parts still open in each round
    free = [0.0] * workers
    running: list[tuple[float, int, RoundKey]] = []  # (ends at, tiebreak, round)
    order = 0

    def ask(part: History, index: int) -> None:
        nonlocal order
        key = rounds[part][index]
        round_ = held[key]
        waiting[key] = len(round_.tasks) + len(round_.parts)
        for seconds in round_.tasks:
            order += 1
            heapq.heappush(ready, (-seconds, order, key))
        for child in round_.parts:
            ask(child, 0)
        if waiting[key] == 0:
            answered(key)

    def answered(key: RoundKey) -> None:
        part = key[0]
        index = rounds[part].index(key)
        if index + 1 < len(rounds[part]):
            ask(part, index + 1)
        elif part:  # the part is settled: one fewer open in its parent's round
            parent = (part[:-1], part[-1][0])
            waiting[parent] -= 1
            if waiting[parent] == 0:
                answered(parent)

    if () not in rounds:
        return 0.0
    ask((), 0)
    now = end = 0.0
    while ready or running:
        while ready and free:
            negative, _, key = heapq.heappop(ready)
            start = max(now, heapq.heappop(free))
            order += 1
            heapq.heappush(running, (start - negative, order, key))
        ends, _, key = heapq.heappop(running)
        now = end = max(end, ends)
        heapq.heappush(free, ends)
        waiting[key] -= 1
        if waiting[key] == 0:
            answered(key)
    return end


def predict(recording: Recording, workers: int | None, shared: bool = False) -> float:
    """The seconds of the recorded search on ``workers`` (``None``: one for each task)."""
    jobs = sum(len(task.jobs(shared)) for task in recording.tasks)
    count = max(1, jobs) if workers is None else workers
    return recording.serial + makespan(recording, count, shared)


def save(path: str, runs: dict[int, list[Recording]]) -> None:
    """Write every run's recording to ``path`` (JSON), to be read back by ``load``."""
    data = {
        str(workers): [
            {"wall": run.wall, "serial": run.serial,
             "tasks": [[task.history, task.codes, task.seconds, task.ran, task.guesses]
                       for task in run.tasks]}
            for run in done
        ]
        for workers, done in runs.items()
    }  # fmt: skip
    with open(path, "w", encoding="utf-8") as file:
        json.dump(data, file)


def load(path: str) -> dict[int, list[Recording]]:
    """The runs ``save`` wrote to ``path``."""
    with open(path, encoding="utf-8") as file:
        data = json.load(file)
    return {
        int(workers): [
            Recording(
                [Task(tuple(tuple(step) for step in history), codes, seconds, ran, guesses)
                 for history, codes, seconds, ran, guesses in run["tasks"]],
                run["wall"], run["serial"],
            )
            for run in done
        ]
        for workers, done in data.items()
    }  # fmt: skip


def longest(recording: Recording, count: int) -> None:
    """Print the ``count`` longest tasks: their share of the tasks' CPU seconds, codes and
    history; and how many rounds the search asked."""
    tasks = sorted((task for task in recording.tasks if task.ran), key=lambda t: -t.seconds)
    whole = recording.task_seconds or 1.0
    rounds = structure(recording)[1]
    print(f"  {len(rounds)} rounds; the {count} longest tasks:")
    for task in tasks[:count]:
        steps = " ".join(f"{guess}:{reply}" for guess, reply in task.history)
        print(f"  {task.seconds:>8.2f} s {100 * task.seconds / whole:>5.1f}% "
              f"{task.codes:>6} codes  {steps}")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rules", nargs="*", default=["bc"], help="variants (default: bc)")
    parser.add_argument("--objective", choices=OBJECTIVES, default="total")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4, 8, 16, 64])
    parser.add_argument("--measure", type=int, nargs="+", default=[2],
                        help="also time real runs on these numbers of threads")  # fmt: skip
    parser.add_argument("--repeats", type=int, default=2, help="runs of each, the best kept")
    parser.add_argument("--save", help="write the runs to this JSON file (one variant)")
    parser.add_argument("--load", help="read the runs from this JSON file instead of searching")
    parser.add_argument("--longest", type=int, default=0, help="print the N longest tasks")
    args = parser.parse_args(argv)
    if args.load is None:
        optimal_tree(Rules.parse("p3c6r"))  # load the compiled kernels
    for spec in args.rules:
        runs: dict[int, list[Recording]] = defaultdict(list)
        if args.load is not None:
            runs.update(load(args.load))
        for repeat in range(args.repeats if args.load is None else 0):
            order = [1, *args.measure]
            for workers in order if repeat % 2 == 0 else order[::-1]:
                runs[workers].append(search(spec, args.objective, workers))
                if args.save is not None:
                    save(args.save, runs)
        best = {workers: min(done, key=lambda run: run.wall) for workers, done in runs.items()}
        recorded = alone = best[1]
        base = predict(alone, 1)
        tasks = [task.seconds for task in recorded.tasks if task.ran]
        guesses = [s for task in recorded.tasks if task.ran for s in task.guesses]
        print(
            f"{spec} {args.objective}: one worker {alone.wall:.2f} s ({base:.2f} s CPU): "
            f"{len(tasks)} tasks, {recorded.task_seconds:.2f} s CPU (longest "
            f"{max(tasks, default=0):.2f} s), serial {recorded.serial:.2f} s; "
            f"{len(guesses)} guesses shared, {sum(guesses):.2f} s CPU (longest "
            f"{max(guesses, default=0):.2f} s)"
        )
        head = ("workers", "whole s", "speed-up", "shared s", "speed-up", "measured s", "speed-up")
        widths = (9, 9, 9, 9, 9, 11, 9)
        print("  " + " ".join(f"{h:>{w}}" for h, w in zip(head, widths, strict=True)))
        for workers in [*args.workers, None]:
            whole, shared = predict(recorded, workers), predict(recorded, workers, shared=True)
            shown = "unlimited" if workers is None else str(workers)
            real = ""
            if workers in best:
                measured = best[workers].wall
                real = f"{measured:>11.2f} {alone.wall / measured:>9.2f}"
            print(f"  {shown:>9} {whole:>9.2f} {base / whole:>9.2f} {shared:>9.2f} "
                  f"{base / shared:>9.2f} {real}")  # fmt: skip
        if args.longest:
            longest(recorded, args.longest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
