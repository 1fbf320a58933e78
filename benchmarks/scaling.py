"""How far ``--jobs N`` can speed up the optimal search: every task of a real run recorded,
and the time a perfect scheduler would need on N workers, from the search's own structure.

Run: .venv/bin/python benchmarks/scaling.py                 # bc, total
     .venv/bin/python benchmarks/scaling.py mm p4c9n --workers 2 4 8 16 64
     .venv/bin/python benchmarks/scaling.py bc --objective worst --repeats 3
     .venv/bin/python benchmarks/scaling.py bc --objective worst-count --measure 2 \
         --repeats 1 --save bc-worst-count.json        # then --load it: no search

The search is recorded on one worker thread, the search's own code as it runs on N (spare
work included: on one worker no spare part is taken, so each is searched in rounds of tasks,
as a spare part's worker does too, ``search.worker``): every part two guesses deep sent as
a task (one guess deep for variants whose compiled search starts there), each round of
tasks as the search asks it (``PartTasks.round``: the part it branches on, and the round
that asked that part), each task's CPU seconds and each of its guesses' seconds, and the
searching thread's own (``serial``: the levels above the tasks, and parts too small to be
tasks). CPU seconds, not wall: they hardly move when neighbours share the cores.

The prediction keeps what the search's answers force: the root's rounds (its first
guesses, and each question a search asks) one after another; in a round, its tasks and the
parts it asks about run side by side; a part's rounds one after another, each when the one
before is answered. A perfect scheduler runs each round's tasks at once, the longest first,
on N workers; the serial seconds stay serial (in a real run some overlap the tasks: this
side is pessimistic). So it is what better scheduling alone can give with today's tasks: a
task longer than the rest of its round is a straggler no number of workers shortens
(``unlimited``). ``shared`` makes each guess of a task a task of its own.

The predictions are checked against real runs on threads (``--measure``, best of
``--repeats``, the order alternating); speed-ups are against the run on one thread, and each
run's CPU seconds in all (per-thread memos cost CPU that one thread's memo saves).
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
from bullscows.search.optimal import OBJECTIVES, OptimalResult
from bullscows.search.worker import prepare

History = tuple[tuple[int, int], ...]
#: A part as a round asks it: its history, and the round that asked it.
PartKey = tuple[History, int]


@dataclass
class Task:
    """One task of a recorded run: the history it answers and its seconds on a worker."""

    history: tuple[tuple[int, int], ...]
    codes: int = 0
    seconds: float = 0.0
    ran: bool = False
    #: The thread seconds of each guess tried, when its guesses were shared (``search.split``).
    guesses: list[float] = field(default_factory=list)
    #: The round that asked it (``Recording.rounds``); -1: not recorded (its history tells).
    round: int = -1

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
    #: Each round the search asked, by number: the part it branches on, and the round that
    #: asked that part (-1 for the root's rounds).
    rounds: list[tuple[History, int]] = field(default_factory=list)
    #: The process's CPU seconds in all, every thread's.
    cpu: float = 0.0

    @property
    def task_seconds(self) -> float:
        return sum(task.seconds for task in self.tasks if task.ran)


#: The task running on each thread of a ``Recorder``.
_RUNNING = threading.local()


class Recorder(Threads):
    """``Threads`` that note each task's history, round and seconds (and each of its
    guesses', when they are shared: ``search.split``), and each round the search asks
    (``PartTasks.round``). A task sent ahead of its round (``PartTasks.ahead``) counts in
    the round that asks it, or, never asked, in the last round asked as it was sent. A
    context manager: it listens to the search only while open.

    >>> with Recorder(1, Recording()) as team:
    ...     team.submit(abs, -3).result()
    3
    """

    def __init__(self, workers: int, recording: Recording) -> None:
        super().__init__(workers)
        self.recording = recording
        self.asked: dict[History, int] = {}  # each part, and the last round that asked it
        self.windows: dict[History, int] = {}  # and the window that round asked it with
        # Tasks sent ahead of the round that asks them (``PartTasks.ahead``), by part and
        # window: the round noted as they were sent, till one asks them.
        self.early: dict[tuple[History, int], tuple[Task, int]] = {}
        self.lock = threading.Lock()
        self.tasks = part_tasks()
        self.original = self.tasks.round

    def __enter__(self) -> Recorder:
        split.OBSERVERS.append(self._observe)
        recorder, asked = self, self.original

        def round(tasks: Any, depth: int, requests: Any) -> Any:
            recorder._note_round(requests)
            return asked(tasks, depth, requests)

        self.tasks.round = round
        return self

    def __exit__(self, *exc: object) -> None:
        self.tasks.round = self.original
        split.OBSERVERS.remove(self._observe)
        self.shutdown(cancel_futures=True)
        for task, sent in self.early.values():  # never asked: with the round it ran in
            task.round = sent

    def _note_round(self, requests: Any) -> None:
        if not requests:
            return
        part = tuple(requests[0][0][:-1])
        with self.lock:
            number = len(self.recording.rounds)
            self.recording.rounds.append((part, self.asked.get(part, -1)))
            for history, _, window in requests:
                self.asked[tuple(history)], self.windows[tuple(history)] = number, window
                early = self.early.pop((tuple(history), window), None)
                if early is not None:
                    early[0].round = number

    @staticmethod
    def _observe(history: History, rank: int, seconds: float) -> None:
        task = getattr(_RUNNING, "task", None)
        if task is not None and task.history == history:
            task.guesses.append(seconds)

    def submit_at(
        self, priority: int, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> Future[Any]:
        task = Task(tuple(args[-4]), len(args[-3])) if len(args) >= 4 else Task(())
        if task.history:
            with self.lock:
                if self.windows.get(task.history) == args[-1]:  # asked by the last round
                    task.round = self.asked[task.history]
                else:  # sent ahead of its round
                    latest = len(self.recording.rounds) - 1
                    self.early[task.history, args[-1]] = (task, latest)
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
        return super().submit_at(priority, timed)


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


@dataclass
class Timed:
    """One search's wall seconds, the process's CPU seconds, this thread's CPU seconds (the
    searching thread's own part) and its result."""

    wall: float
    cpu: float
    own: float
    found: OptimalResult


def timed(spec: str, objective: Objective, executor: Threads | None = None) -> Timed:
    """The optimal search of ``spec`` on ``executor`` (on this thread if none), timed."""
    began, own, cpu = time.perf_counter(), time.thread_time(), time.process_time()
    found = optimal_tree(Rules.parse(spec), objective, executor=executor)
    return Timed(time.perf_counter() - began, time.process_time() - cpu,
                 time.thread_time() - own, found)  # fmt: skip


def search(spec: str, objective: Objective, workers: int) -> Recording:
    """One search on ``workers`` threads, recorded, as ``--jobs`` runs it."""
    recording = Recording()
    with Recorder(workers, recording) as team:
        run = timed(spec, objective, team)
        recording.wall, recording.serial, recording.cpu = run.wall, run.own, run.cpu
    return recording


@dataclass
class Round:
    """The questions asked about the parts of one guess at one part: tasks, and parts
    searched one guess deeper, whose own rounds run then."""

    tasks: list[float] = field(default_factory=list)
    parts: list[PartKey] = field(default_factory=list)


def numbered(recording: Recording) -> tuple[list[tuple[History, int]], list[int]]:
    """The recording's rounds and each task's round; for a recording without them, one
    round for each part and guess, as the tasks' histories tell (the passes of a part's
    rounds, and the questions of the search, merge: such a prediction is optimistic)."""
    if recording.rounds:
        return recording.rounds, [task.round for task in recording.tasks]
    rounds: list[tuple[History, int]] = []
    known: dict[tuple[History, int], int] = {}

    def number(history: History) -> int:  # the round that asked the part ``history``
        key = (history[:-1], history[-1][0])
        if key not in known:
            parent = number(history[:-1]) if history[:-1] else -1
            known[key] = len(rounds)
            rounds.append((history[:-1], parent))
        return known[key]

    return rounds, [number(task.history) if task.history else -1 for task in recording.tasks]


def structure(
    recording: Recording, shared: bool = False
) -> tuple[dict[PartKey, list[int]], dict[int, Round]]:
    """The recorded tasks as the search asks them: each part's rounds in order (a round is
    answered before the next round of its part is asked), and what each round holds (with
    ``shared``, a task whose guesses were shared as its guesses). The root's rounds run one
    after another."""
    numbers, of_task = numbered(recording)
    rounds: dict[PartKey, list[int]] = {}
    held: dict[int, Round] = {}

    def note(number: int) -> Round:
        if number not in held:
            held[number] = Round()
            part, parent = numbers[number]
            key = (part, parent)
            rounds.setdefault(key, []).append(number)
            if parent >= 0:  # a part is asked about in its parent's round
                asking = note(parent)
                if key not in asking.parts:
                    asking.parts.append(key)
        return held[number]

    for task, number in zip(recording.tasks, of_task, strict=True):
        if task.ran and number >= 0:
            note(number).tasks.extend(task.jobs(shared))
    for key in rounds:
        rounds[key].sort()
    return rounds, held


def makespan(recording: Recording, workers: int, shared: bool = False) -> float:
    """Seconds of the recorded tasks on ``workers``, scheduled perfectly within what the
    search's order forces: a round's tasks and parts start when the round is asked; a part's
    next round when the one before is answered; a free worker takes the longest task ready
    (an event simulation). With ``shared``, a task whose guesses were shared is as many
    tasks as it tried guesses, and one more for the rest of its seconds."""
    rounds, held = structure(recording, shared)
    owner = {number: key for key, numbers in rounds.items() for number in numbers}
    root = ((), -1)
    ready: list[tuple[float, int, int]] = []  # (-seconds, tiebreak, round)
    waiting: dict[int, int] = {}  # tasks and parts still open in each round
    free = [0.0] * workers
    running: list[tuple[float, int, int]] = []  # (ends at, tiebreak, round)
    order = 0

    def ask(part: PartKey, index: int) -> None:
        nonlocal order
        number = rounds[part][index]
        round_ = held[number]
        waiting[number] = len(round_.tasks) + len(round_.parts)
        for seconds in round_.tasks:
            order += 1
            heapq.heappush(ready, (-seconds, order, number))
        for child in round_.parts:
            ask(child, 0)
        if waiting[number] == 0:
            answered(number)

    def answered(number: int) -> None:
        part = owner[number]
        index = rounds[part].index(number)
        if index + 1 < len(rounds[part]):
            ask(part, index + 1)
        elif part != root:  # the part is settled: one fewer open in its parent's round
            parent = part[1]
            waiting[parent] -= 1
            if waiting[parent] == 0:
                answered(parent)

    if root not in rounds:
        return 0.0
    ask(root, 0)
    now = end = 0.0
    while ready or running:
        while ready and free:
            negative, _, number = heapq.heappop(ready)
            start = max(now, heapq.heappop(free))
            order += 1
            heapq.heappush(running, (start - negative, order, number))
        ends, _, number = heapq.heappop(running)
        now = end = max(end, ends)
        heapq.heappush(free, ends)
        waiting[number] -= 1
        if waiting[number] == 0:
            answered(number)
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
            {"wall": run.wall, "serial": run.serial, "cpu": run.cpu, "rounds": run.rounds,
             "tasks": [[task.history, task.codes, task.seconds, task.ran, task.guesses,
                        task.round] for task in run.tasks]}
            for run in done
        ]
        for workers, done in runs.items()
    }  # fmt: skip
    with open(path, "w", encoding="utf-8") as file:
        json.dump(data, file)


def _history(steps: list[list[int]]) -> History:
    return tuple((guess, reply) for guess, reply in steps)


def load(path: str) -> dict[int, list[Recording]]:
    """The runs ``save`` wrote to ``path`` (those saved before rounds were recorded too)."""
    with open(path, encoding="utf-8") as file:
        data = json.load(file)
    return {
        int(workers): [
            Recording(
                [Task(_history(task[0]), *task[1:]) for task in run["tasks"]],
                run["wall"], run["serial"],
                [(_history(part), parent) for part, parent in run.get("rounds", [])],
                run.get("cpu", 0.0),
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
    parser.add_argument("--measure", type=int, nargs="*", default=[2],
                        help="also time real runs on these numbers of threads")  # fmt: skip
    parser.add_argument("--repeats", type=int, default=2, help="runs of each, the best kept")
    parser.add_argument("--save", help="write the runs to this JSON file (one variant)")
    parser.add_argument("--load", help="read the runs from this JSON file instead of searching")
    parser.add_argument("--longest", type=int, default=0, help="print the N longest tasks")
    args = parser.parse_args(argv)
    if args.load is None:
        optimal_tree(Rules.parse("p3c6r"))  # load the compiled kernels
        prepare()  # and a team's (once a process), outside the first run timed on threads
    for spec in args.rules:
        runs: dict[int, list[Recording]] = defaultdict(list)
        if args.load is not None:
            runs.update(load(args.load))
        for repeat in range(args.repeats if args.load is None else 0):
            order = [1, *(workers for workers in args.measure if workers != 1)]
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
        head = ("workers", "whole s", "speed-up", "shared s", "speed-up", "measured s", "speed-up",
                "CPU s")  # fmt: skip
        widths = (9, 9, 9, 9, 9, 11, 9, 9)
        print("  " + " ".join(f"{h:>{w}}" for h, w in zip(head, widths, strict=True)))
        for workers in [*args.workers, None]:
            whole, shared = predict(recorded, workers), predict(recorded, workers, shared=True)
            shown = "unlimited" if workers is None else str(workers)
            real = ""
            if workers in best:
                measured = best[workers].wall
                real = f"{measured:>11.2f} {alone.wall / measured:>9.2f} {best[workers].cpu:>9.2f}"
            print(f"  {shown:>9} {whole:>9.2f} {base / whole:>9.2f} {shared:>9.2f} "
                  f"{base / shared:>9.2f} {real}")  # fmt: skip
        if args.longest:
            longest(recorded, args.longest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
