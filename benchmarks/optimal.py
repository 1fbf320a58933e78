"""Time of the exhaustive optimal-tree search (``bullscows.search.optimal_tree``), with the
sets searched and how the lower bound of each first guess climbs as its parts are settled.

Run: .venv/bin/python benchmarks/optimal.py                  # mm (3 ways), then bc (2 ways)
     .venv/bin/python benchmarks/optimal.py --jobs 2         # the same, bc's parts on 2 threads
     .venv/bin/python benchmarks/optimal.py p4c9n --objective worst
     .venv/bin/python benchmarks/optimal.py bc --parts     # each part under the first guess
     .venv/bin/python benchmarks/optimal.py bc --objective worst-count --jobs 2   # Slovesnov's
     .venv/bin/python benchmarks/optimal.py bc --objective worst-count --jobs 2 \
         --checkpoint bc-wc.ckpt --time-limit 3600   # resumable, stopped with its bounds

Each search runs in this process (the kernels are loaded first: compile time is not counted),
or with ``--jobs N`` its parts two guesses deep on N threads of it (``executors.Threads``,
made for each run: their start counted), or N local processes with ``--processes``. Beside
the seconds it took, each run shows the CPU time of this process (its threads included) and of
the searching thread: on a machine shared with other work it varies less than the seconds, so
two versions of the search compare best by it (run them alternately). With ``--jobs`` each run
also shows, for each worker thread or process (on Linux), its seconds on a core, waiting for
one (other work held both cores) and idle (no task to run, or not started yet): idle time is
what the search's design loses, whatever the load. On threads each run also accounts for its
tasks' CPU time: tasks whose answer the search used, and tasks started ahead in a round whose
guess was refuted meanwhile (answered but not used, stopped under way, or cancelled before
they started), and shows its timeline: when the first task started, each thread's busy
seconds and when its last task ended, and the seconds that both, one or none of the threads
were busy (none: the searching thread's own work before the first task and between rounds).
"sets" counts the sets of candidates whose guesses were all scored (branched on or looked
ahead at). The trajectory lists, at the moments it changed, the bound of the first guess
being settled (the total no tree under it can beat) and the best total found. ``--parts``
times the parts under the first code as first guess instead, each searched alone (a search of
its own, nothing remembered from the others), smallest first.

Measured on the 2-core development machine, one process / ``--jobs 2`` (2 processes, as
``--processes`` gives now): mm 5625 in 0.3 / 0.9 s; mm within 5 guesses 5626 in 0.2 / 0.2 s; mm
optimal-worst (5, 5626) in 0.3 / 0.4 s; bc 26274 (worst 7) in 27 / 19 s; bc optimal-worst (7,
26274) in 25 / 20 s (runs vary by about 10%). ``bc --parts``: the 1,440-code part "0 bulls, 1
cow" takes 21 s, the other twelve 4 s; since the lookahead's own kernel and the cheap bounds
before lookaheads, bc takes 9.5-9.8 s on one process (CPU 6.6 s) and ``--parts`` 8.2 s and 2.5
s, on a machine busy with other work.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import numpy as np

from bullscows._kernels.tables import INFEASIBLE
from bullscows.executors import TaskStopped, Threads, make_executor
from bullscows.feedback import Feedback
from bullscows.rules import Rules
from bullscows.search import Objective, optimal_tree, reporting
from bullscows.search.engine import Search, SearchOptions
from bullscows.search.optimal import OBJECTIVES, Budget, SearchStopped
from bullscows.search.progress import SearchReport
from bullscows.universe import universe

#: The default runs: (rules, objective, max depth).
PLAN: list[tuple[str, Objective, int | None]] = [
    ("mm", "total", None),
    ("mm", "total", 5),
    ("mm", "worst", None),
    ("bc", "total", None),
    ("bc", "worst", None),
]


def run(
    spec: str,
    objective: Objective,
    depth: int | None,
    consistent: bool,
    pool: Executor | None,
    checkpoint: Path | None = None,
    budget: Budget | None = None,
) -> None:
    label = f"{spec} objective={objective} max_depth={depth} consistent_only={consistent}"
    steps: list[SearchReport] = []

    def report(now: SearchReport) -> None:
        if not steps or (now.bound, now.best) != (steps[-1].bound, steps[-1].best):
            steps.append(now)

    cpu, own = time.process_time(), time.thread_time()
    before, began = _worker_clocks(pool), time.perf_counter()
    try:
        result = optimal_tree(
            Rules.parse(spec), objective, depth, consistent, progress=report, executor=pool,
            checkpoint=checkpoint, budget=budget,
        )  # fmt: skip
    except SearchStopped as stopped:
        print(f"{label}: {stopped.standing}", flush=True)
        return
    cpu, own = time.process_time() - cpu, time.thread_time() - own
    ended = time.perf_counter()
    print(
        f"{label}: total {result.total} (avg {result.total / result.rules.size:.4f}), "
        f"worst {result.worst}, {result.nodes:,} sets, {result.seconds:.2f} s "
        f"(CPU {cpu:.2f} s in this process, {own:.2f} s in its searching thread)\n"
        f"  distribution {result.distribution}",
        flush=True,
    )
    trajectory = [f"{step.seconds:.1f}s:{step.bound or '-'}/{step.best or '-'}" for step in steps]
    print(f"  bound/best {' '.join(_thin(trajectory, 12))}", flush=True)
    clocks = []
    for pid, (ran, waited) in _worker_clocks(pool).items():
        ran_before, waited_before = before.get(pid, (0.0, 0.0))
        ran, waited = ran - ran_before, waited - waited_before
        idle = result.seconds - ran - waited
        clocks.append(f"{ran:.2f} s on a core, {waited:.2f} s waiting for one, {idle:.2f} s idle")
    if clocks:
        print(f"  workers: {'; '.join(clocks)}", flush=True)
    if isinstance(pool, Accounted):
        print(f"  tasks: {pool.account()}", flush=True)
        print(f"  timeline: {pool.timeline(began, ended)}", flush=True)
        pool.tasks.clear()
        pool.spans.clear()


class Accounted(Threads):
    """``Threads`` that note each task's CPU time and whether the search wanted its answer
    (a task whose future the search cancels was started in vain)."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.tasks: list[tuple[list[Any], Future[Any]]] = []
        #: Each task run: its thread, and the moments it started and ended.
        self.spans: list[tuple[int, float, float]] = []

    def submit_at(
        self, priority: int, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> Future[Any]:
        note: list[Any] = [0.0, False]  # CPU seconds, unwanted

        def timed() -> Any:
            start, began = time.thread_time(), time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                note[0] = time.thread_time() - start
                self.spans.append((threading.get_ident(), began, time.perf_counter()))

        future = super().submit_at(priority, timed)
        cancel = future.cancel

        def unwanted() -> bool:
            note[1] = True
            return cancel()

        future.cancel = unwanted  # type: ignore[method-assign]
        self.tasks.append((note, future))
        return future

    def account(self) -> str:
        """How many tasks ran and their CPU seconds: used, and started in vain."""
        kinds = ("answer used", "answered, not used", "stopped under way", "cancelled before start")
        counts = dict.fromkeys(kinds, 0)
        seconds = dict.fromkeys(kinds, 0.0)
        for (cpu, unwanted), future in self.tasks:
            if future.cancelled():
                kind = kinds[3]
            elif not future.done():
                continue
            elif isinstance(future.exception(), TaskStopped):
                kind = kinds[2]
            else:
                kind = kinds[1] if unwanted else kinds[0]
            counts[kind] += 1
            seconds[kind] += cpu
        return "; ".join(f"{kind} {counts[kind]} ({seconds[kind]:.2f} s CPU)" for kind in kinds)

    def timeline(self, start: float, end: float) -> str:
        """When the worker threads ran tasks between ``start`` and ``end`` (the search's
        moments): the first task's start, each thread's busy seconds and last task's end, and
        the seconds that all, some or none of them were busy (none: the searching thread's own
        work, between rounds or on parts no worker took)."""
        if not self.spans:
            return "no task ran"
        events = sorted([(b, 1) for _, b, _ in self.spans] + [(e, -1) for _, _, e in self.spans])
        busy = [0.0] * (len(self._threads) + 1)  # seconds with k threads busy
        level, at = 0, start
        for moment, step in [*events, (end, 0)]:
            busy[min(level, len(busy) - 1)] += max(0.0, moment - at)
            level, at = level + step, max(at, moment)
        threads: dict[int, list[float]] = {}
        for ident, began, ended in self.spans:
            seconds, last = threads.get(ident, [0.0, start])
            threads[ident] = [seconds + ended - began, max(last, ended)]
        each = ", ".join(f"{s:.2f} s busy, done at {e - start:.2f}" for s, e in threads.values())
        shares = ", ".join(f"{k} busy {s:.2f} s" for k, s in enumerate(busy))
        first = min(b for _, b, _ in self.spans) - start
        return f"first task at {first:.2f} s; {each}; {shares} (of {end - start:.2f} s)"


def _worker_clocks(pool: Executor | None) -> dict[int, tuple[float, float]]:
    """Each worker thread's or local process's seconds on a core and seconds waiting for one
    (runnable but not running: the cores were busy), from Linux's ``schedstat``; none
    elsewhere. A search's seconds less both are the seconds the worker had nothing to do (or
    was not started yet)."""
    clocks = {}
    if isinstance(pool, Threads):
        paths = {tid: f"/proc/self/task/{tid}/schedstat" for tid in pool.native_ids()}
    else:
        processes = (getattr(pool, "_processes", None) or {}).values()
        paths = {process.pid: f"/proc/{process.pid}/schedstat" for process in list(processes)}
    for pid, path in paths.items():
        try:
            with open(path) as stat:
                ran, waited = stat.read().split()[:2]
        except (OSError, ValueError):
            continue
        clocks[pid] = (int(ran) / 1e9, int(waited) / 1e9)
    return clocks


def run_parts(spec: str, depth: int | None, consistent: bool) -> None:
    rules = Rules.parse(spec)
    everything = universe(rules).secrets
    first = int(everything[0])
    win = rules.length * (rules.length + 1)
    replies = universe(rules).score_row(first, everything)
    parts = [(int(r), everything[replies == r]) for r in np.unique(replies) if r != win]
    print(f"{spec}: the parts under {universe(rules).text(first)}, each searched alone")
    for reply, part in sorted(parts, key=lambda item: len(item[1])):
        search = Search(SearchOptions(rules, "total", depth, consistent))
        start = time.perf_counter()
        cap = search.state.unlimited if depth is None else depth - 1
        found = search.solve(part, cap, INFEASIBLE, ((first, reply),))
        cost = "none" if found is None else f"{found[0]:,}"
        label = Feedback.from_index(reply, rules.length)
        print(
            f"  {label!s:>16} {len(part):>6,} codes: cost {cost}, {search.nodes:,} sets, "
            f"{time.perf_counter() - start:.1f} s",
            flush=True,
        )


def _thin(items: list[str], most: int) -> list[str]:
    """At most ``most`` items, evenly spread, the last kept."""
    if len(items) <= most:
        return items
    step = len(items) / most
    return [items[int(i * step)] for i in range(most - 1)] + [items[-1]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rules", nargs="*", help="variants (default: mm 3 ways, bc 2 ways)")
    parser.add_argument("--objective", choices=OBJECTIVES, default="total")
    parser.add_argument("--max-depth", type=int, default=None)
    parser.add_argument("--consistent-only", action="store_true")
    parser.add_argument("--jobs", type=int, default=1, help="threads for the parts")
    parser.add_argument("--processes", action="store_true", help="--jobs as local processes")
    parser.add_argument("--parts", action="store_true", help="time each first-level part alone")
    parser.add_argument("--checkpoint", type=Path, help="keep (and resume from) the answers")
    parser.add_argument("--time-limit", type=float, help="stop each search; print its bounds")
    args = parser.parse_args(argv)
    if args.checkpoint is not None and len(args.rules) != 1:
        parser.error("--checkpoint goes with one variant")
    budget = None if args.time_limit is None else Budget(seconds=args.time_limit)
    reporting.PROGRESS_EVERY = 0.0  # type: ignore[attr-defined]  # every change of the bound is seen
    optimal_tree(Rules.parse("p3c6r"))  # load the compiled kernels
    plan = [(spec, args.objective, args.max_depth) for spec in args.rules] or PLAN
    start = time.perf_counter()
    if args.parts:
        if args.objective != "total":
            parser.error("--parts times the total objective (give --max-depth for a cap)")
        for spec, _, depth in plan:
            run_parts(spec, depth, args.consistent_only)
        return 0
    for spec, objective, depth in plan:
        # A pool a run (as the tree command makes one): its start is counted, and a run
        # stopped by its time limit has its tasks stopped.
        if args.jobs > 1 and not args.processes:
            team = Accounted(args.jobs)
            try:
                run(spec, objective, depth, args.consistent_only, team, args.checkpoint, budget)
            finally:
                team.shutdown(cancel_futures=True)
            continue
        with make_executor(None, args.jobs, None) as pool:
            run(spec, objective, depth, args.consistent_only, pool, args.checkpoint, budget)
    print(f"all runs: {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
