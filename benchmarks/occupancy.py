"""How busy the real scheduler keeps ``--jobs N``'s threads: the optimal search run on
``executors.Threads(N)``, as ``--jobs N`` runs it, with a sampler thread that looks every
``--every`` seconds (5 ms) at the team and at each thread's state in the kernel.

Run: .venv/bin/python benchmarks/occupancy.py p4c9n --objective worst-count --jobs 16
     .venv/bin/python benchmarks/occupancy.py bc --objective worst-count --jobs 16 \
         --one-thread 773                      # the one-thread CPU seconds, not measured
     .venv/bin/python benchmarks/occupancy.py p4c9n --objective worst-count --jobs 16 \
         --share-from 0 12 24                  # the smallest set the shared table holds
     .venv/bin/python benchmarks/occupancy.py p4c9n --objective worst-count --beside 15

Each sample counts the tasks under way (split helpers and spare parts included), the tasks
waiting in the team's queue, the team's threads computing (Linux: running or ready to run,
``/proc/self/task/ID/stat``; a thread waiting for its round's tasks, for a split's helpers,
for the GIL or for work is not) and whether the searching thread computes. It prints the
mean of each, the share of samples at each number of workers computing, the mean by tenth
of the run (the phases that starve show), the CPU seconds on N threads against one, and an
estimate of the speed-up on N real cores: the mean threads computing (the searching
thread's included, at most N at once) times CPU on one thread over CPU on N. It is an
estimate: with fewer cores than threads every thread runs slower, evenly, so the order of
events is roughly that of N cores, and the GIL is held longer relative to the work. With
the shared table it prints the table's traffic: reads, hits, writes, writes left out (the
slot held as much) and writes over another set's entry (``tables.TRAFFIC_*``).

``--beside K`` separates the machine from the table: the search on one thread (no table),
alone and then beside K other processes each running the same search on one thread of its
own (nothing shared), in turn ``--repeats`` times; the CPU seconds a set searched, alone and
beside them, say whether a core with K busy neighbours is slower.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Any
from unittest.mock import patch

import numpy as np
from scaling import timed

from bullscows._kernels import search_calls
from bullscows._kernels.tables import (
    TRAFFIC_AGAIN,
    TRAFFIC_BESIDE,
    TRAFFIC_BESIDE_AHEAD,
    TRAFFIC_DISPLACED,
    TRAFFIC_FLOORED,
    TRAFFIC_KEPT,
    TRAFFIC_LOOKED,
    TRAFFIC_READ,
    TRAFFIC_WRITTEN,
    beat,
)
from bullscows.executors import Threads
from bullscows.rules import Rules
from bullscows.search import Objective, optimal_tree, split, state
from bullscows.search.distribute import PartTasks
from bullscows.search.engine import Search
from bullscows.search.optimal import OBJECTIVES
from bullscows.search.state import SearchState
from bullscows.search.worker import prepare

#: The histogram's bins of workers computing: (low, high) inclusive.
Bins = list[tuple[int, int]]


@dataclass
class Sample:
    """One look at the team: seconds since the start, tasks under way, tasks waiting, the
    team's threads computing, and whether the searching thread computes."""

    at: float
    under_way: int
    waiting: int
    computing: int
    searching: bool


def computing(fd: int) -> bool:
    """Whether the thread whose ``/proc/self/task/ID/stat`` is open as ``fd`` is running or
    ready to run (state ``R``)."""
    stat = os.pread(fd, 512, 0)
    return stat[stat.rindex(b")") + 2 : stat.rindex(b")") + 3] == b"R"


class Sampler:
    """A daemon thread that samples ``team`` every ``every`` seconds while open (a context
    manager); ``searcher`` is the searching thread's native id (this thread's by default):
    ``with Threads(16) as team, Sampler(team) as sampler: ...``, then ``sampler.samples``."""

    def __init__(self, team: Threads, every: float = 0.005, searcher: int | None = None) -> None:
        self.team, self.every = team, every
        self.searcher = threading.get_native_id() if searcher is None else searcher
        self.samples: list[Sample] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="occupancy", daemon=True)
        self._fds: list[int] = []

    def __enter__(self) -> Sampler:
        ids = [self.searcher, *self.team.native_ids()]
        self._fds = [os.open(f"/proc/self/task/{tid}/stat", os.O_RDONLY) for tid in ids]
        self.began = time.perf_counter()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.seconds = time.perf_counter() - self.began
        for fd in self._fds:
            os.close(fd)

    def _run(self) -> None:
        searcher, *workers = self._fds
        while not self._stop.wait(self.every):
            self.samples.append(
                Sample(
                    time.perf_counter() - self.began,
                    self.team.busy(),
                    self.team.waiting(),
                    sum(computing(fd) for fd in workers),
                    computing(searcher),
                )
            )


@dataclass
class Occupancy:
    """What the samples of one run say."""

    jobs: int
    samples: list[Sample] = field(default_factory=list)

    def mean(self, field_: str) -> float:
        return sum(float(getattr(s, field_)) for s in self.samples) / max(1, len(self.samples))

    def threads(self) -> float:
        """The mean threads computing, the searching thread's included, at most ``jobs``."""
        each = (min(self.jobs, s.computing + s.searching) for s in self.samples)
        return sum(each) / max(1, len(self.samples))

    def histogram(self, bins: Bins) -> list[float]:
        """The share of samples whose workers computing fall in each bin."""
        total = max(1, len(self.samples))
        return [sum(low <= s.computing <= high for s in self.samples) / total for low, high in bins]

    def tenths(self, parts: int = 10) -> list[float]:
        """The mean workers computing in each of ``parts`` equal stretches of the run."""
        if not self.samples:
            return [0.0] * parts
        end = self.samples[-1].at or 1.0
        sums, counts = [0.0] * parts, [0] * parts
        for sample in self.samples:
            slot = min(parts - 1, int(parts * sample.at / end))
            sums[slot] += sample.computing
            counts[slot] += 1
        return [total / max(1, count) for total, count in zip(sums, counts, strict=True)]

    def estimate(self, cpu_one: float, cpu_jobs: float) -> float:
        """The speed-up this run suggests on ``jobs`` real cores (an estimate)."""
        return min(float(self.jobs), self.threads() * cpu_one / cpu_jobs)


def bins(jobs: int) -> Bins:
    """Pairs 0-1, 2-3, ... up to ``jobs``, the last on its own if ``jobs`` is even."""
    return [(low, min(low + 1, jobs)) for low in range(0, jobs + 1, 2)]


#: A run's wall seconds, CPU seconds and sets searched.
Cost = tuple[float, float, int]


def run(spec: str, objective: Objective, jobs: int, every: float) -> tuple[Occupancy, Cost]:
    """One search on ``Threads(jobs)``, sampled: its occupancy and cost."""
    with Threads(jobs) as team, Sampler(team, every) as sampler:
        searched = timed(spec, objective, team)
    return Occupancy(jobs, sampler.samples), (searched.wall, searched.cpu, searched.found.nodes)


def alone(spec: str, objective: Objective) -> Cost:
    """The cost of the search on this thread (``--jobs 1``)."""
    searched = timed(spec, objective)
    return searched.wall, searched.cpu, searched.found.nodes


def sharing(on: bool) -> Any:
    """While open, the threads of a search share a table of sets if ``on``, else each has
    only its memo (``search.state.SHARE``)."""
    return patch.object(state, "SHARE", on)


@contextmanager
def memos(count: int) -> Iterator[None]:
    """While open, each guess of a shared set (``search.split``) is tried by one of ``count``
    searches in turn, each with its memo, as ``count`` threads would share them: on one
    thread, the work that per-thread memos add, without any scheduling. They share the
    first one's table of sets (``search.state.shared_table``), if it has one."""
    original = split.Split.work
    kept: dict[int, list[Search]] = {}

    def work(self: split.Split, search: Search, enough: object) -> bool:
        pool = kept.setdefault(id(search), [search])
        while len(pool) < count:
            pool.append(Search(search.options))
            pool[-1].state.share(search.state.shared)
        chosen = pool[self.next % count]
        chosen.state.ready(self.codes)
        before = chosen.nodes
        try:
            return original(self, chosen, enough)  # type: ignore[arg-type]
        finally:
            if chosen is not search:
                self.helped += chosen.nodes - before

    split.Split.work = work  # type: ignore[method-assign]
    try:
        yield
    finally:
        split.Split.work = original  # type: ignore[method-assign]


#: The ``Traffic`` fields counted in ``ctx[CTX_TRAFFIC]``, and their places there.
COUNTED = {
    "reads": TRAFFIC_READ, "kept": TRAFFIC_KEPT, "written": TRAFFIC_WRITTEN,
    "displaced": TRAFFIC_DISPLACED, "beside": TRAFFIC_BESIDE,
    "beside_ahead": TRAFFIC_BESIDE_AHEAD, "floored": TRAFFIC_FLOORED, "again": TRAFFIC_AGAIN,
    "looked": TRAFFIC_LOOKED,
}  # fmt: skip


@dataclass
class Traffic:
    """The shared table's traffic in a run, summed over its searches (``tables.TRAFFIC_*``),
    and the sets searched twice at once, or with a floor that did not settle them."""

    reads: int = 0
    hits: int = 0
    kept: int = 0
    written: int = 0
    displaced: int = 0
    beside: int = 0
    beside_ahead: int = 0
    floored: int = 0
    again: int = 0
    looked: int = 0
    branched: int = 0
    ahead: int = 0
    reread: int = 0
    reread_sets: int = 0
    reread_again: int = 0

    def add(self, state: SearchState) -> None:
        """Add one search's counters."""
        for name, place in COUNTED.items():
            setattr(self, name, getattr(self, name) + int(state.traffic[place]))
        self.hits += state.shared_hits
        self.branched += int(state.stats[0])  # sets searched: branched on, looked ahead at
        self.ahead += int(state.stats[1])
        parts, sets, again = state.again  # parts read back from the table, searched again
        self.reread, self.reread_sets, self.reread_again = (
            self.reread + parts, self.reread_sets + sets, self.reread_again + again)  # fmt: skip

    def line(self, nodes: int) -> str:
        """What the run asked of the table, against its ``nodes`` sets, and the sets it
        searched twice at once or again."""
        writes = self.written + self.displaced
        return (f"  shared table: {self.reads:,} reads ({self.reads / max(1, nodes):.2f} a set"
                f" searched), {self.hits:,} hits; {writes:,} writes ({self.displaced:,} over "
                f"another set), {self.kept:,} left out (the slot held as much); "
                f"{self.looked:,} sets it said were looked ahead at\n"
                f"  {self.beside + self.beside_ahead:,} sets searched while another thread "
                f"searched them ({self.beside:,} branched on, {self.beside_ahead:,} looked "
                f"ahead at); sets branched on with a floor that did not settle them: "
                f"{self.floored:,} just read from the table, {self.again:,} from the "
                f"memo\n"
                f"  parts read back from the table and searched again for their trees: "
                f"{self.reread:,}, {self.reread_sets:,} sets ({self.reread_again:,} of them "
                f"branched on again under the memo's own floor)")  # fmt: skip


@contextmanager
def counting() -> Iterator[Traffic]:
    """While open, every search state made (``SearchState``) is kept; the ``Traffic`` yielded
    holds their sums once closed."""
    original, made = SearchState.__init__, []

    def init(self: SearchState, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)  # type: ignore[arg-type]
        made.append(self)

    SearchState.__init__ = init  # type: ignore[method-assign]
    total = Traffic()
    try:
        yield total
    finally:
        SearchState.__init__ = original  # type: ignore[method-assign]
        for one in made:
            total.add(one)


@dataclass
class Ahead:
    """The guesses of shared sets (``search.split``) taken while a guess before them was
    still being tried, and of those, the ones taken with a wider window than one thread
    would have given them (a guess before them, still under way, lowered the best later),
    and the ones one thread would not have tried at all: each with the sets they searched."""

    early: list[int] = field(default_factory=lambda: [0, 0])
    wider: list[int] = field(default_factory=lambda: [0, 0])
    needless: list[int] = field(default_factory=lambda: [0, 0])
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, done: split.Split) -> None:
        """Count one split's guesses tried (``split.FINISHED``)."""
        ranks = len(done.guesses)
        best = done.limit * ranks  # one thread's incumbent before each guess, in order
        with self.lock:
            for rank, taken, early, sets, key in sorted(done.tried):
                alone = beat(np.array([best, ranks]), rank)
                counts = ((self.early, early), (self.wider, beat(np.array([taken, ranks]), rank)
                          > alone), (self.needless, done.bounds[rank] >= alone))  # fmt: skip
                for count, counted in counts:
                    if counted:
                        count[0], count[1] = count[0] + 1, count[1] + sets
                if key >= 0:
                    best = min(best, key)

    def line(self) -> str:
        """The counts in words."""
        return (f"  guesses of shared sets taken while one before them was under way: "
                f"{self.early[0]:,}, {self.early[1]:,} sets; of them with a wider window than "
                f"one thread's: {self.wider[0]:,}, {self.wider[1]:,} sets; not tried on one "
                f"thread: {self.needless[0]:,}, {self.needless[1]:,} sets")  # fmt: skip


@contextmanager
def guessing_ahead() -> Iterator[Ahead]:
    """While open, the guesses of every shared set solved are counted (``Ahead``)."""
    counted = Ahead()
    split.FINISHED.append(counted.add)
    try:
        yield counted
    finally:
        split.FINISHED.remove(counted.add)


@contextmanager
def rounds_ahead(on: bool) -> Iterator[None]:
    """While open, the rounds of the guesses to come are sent ahead to idle workers only if
    ``on`` (``distribute.PartTasks.ahead`` told of none otherwise)."""
    original = PartTasks.ahead

    def none_ahead(self: PartTasks, depth: int, upcoming: object) -> None:
        original(self, depth, None)

    if not on:
        PartTasks.ahead = none_ahead  # type: ignore[method-assign]
    try:
        yield
    finally:
        PartTasks.ahead = original  # type: ignore[method-assign]


def busy(spec: str, objective: Objective) -> None:
    """Search ``spec`` on this thread again and again (``--beside``'s neighbours): says
    ``ready`` once the kernels are loaded, then each search's CPU seconds and sets."""
    optimal_tree(Rules.parse("p3c6r"))
    print("ready", flush=True)
    while True:
        searched = timed(spec, objective)
        print(f"{searched.cpu} {searched.found.nodes}", flush=True)


def beside(spec: str, objective: Objective, others: int) -> tuple[Cost, list[Cost]]:
    """The search on this thread while ``others`` processes each search ``spec`` on one thread
    of their own (``busy``): its cost, and each search they finished meanwhile."""
    command = [sys.executable, os.path.abspath(__file__), spec, "--objective", objective]
    started = [
        subprocess.Popen([*command, "--busy"], stdout=subprocess.PIPE, text=True)
        for _ in range(others)
    ]
    finished: list[Cost] = []
    try:
        for process in started:
            assert process.stdout is not None
            if process.stdout.readline().strip() != "ready":
                raise SystemExit("occupancy: a process beside this one did not start")
        cost = alone(spec, objective)
    finally:
        for process in started:
            process.terminate()
        for process in started:
            out, _ = process.communicate()
            for row in out.split("\n"):
                if row.strip():
                    cpu, nodes = row.split()
                    finished.append((0.0, float(cpu), int(nodes)))
    return cost, finished


def per_set(cost: Cost) -> float:
    """Microseconds of CPU a set searched."""
    return 1e6 * cost[1] / max(1, cost[2])


def compare_beside(spec: str, objective: Objective, others: int, repeats: int) -> None:
    """Print the search's CPU a set on this thread, alone and beside ``others`` busy
    processes, in turn ``repeats`` times."""
    ratios = []
    for _ in range(repeats):
        own = alone(spec, objective)
        near, theirs = beside(spec, objective, others)
        ratios.append(per_set(near) / per_set(own))
        print(f"  alone: {own[1]:.2f} s CPU, {own[2]:,} sets, {per_set(own):.2f} us a set; "
              f"beside {others} busy: {near[1]:.2f} s CPU, {near[2]:,} sets, "
              f"{per_set(near):.2f} us a set ({ratios[-1]:.2f} x alone)")  # fmt: skip
        if theirs:
            mean = sum(per_set(c) for c in theirs) / len(theirs)
            print(f"  the {others} beside it: {len(theirs)} searches finished meanwhile, "
                  f"{mean:.2f} us a set")  # fmt: skip
    print(f"  CPU a set beside {others} busy processes over alone: "
          f"{' '.join(f'{r:.2f}' for r in ratios)}")  # fmt: skip


def report(
    occupancy: Occupancy, cost: Cost, one: Cost, traffic: Traffic | None = None,
    ahead: Ahead | None = None,
) -> None:  # fmt: skip
    """Print one run's occupancy, against one thread's (``one``; wall 0: not run)."""
    jobs, (wall, cpu, nodes) = occupancy.jobs, cost
    print(f"  --jobs {jobs}: {wall:.2f} s, {cpu:.2f} s CPU ({cpu / one[1]:.2f} x one thread's; "
          f"{cpu / wall:.2f} cores), {nodes:,} sets searched, "
          f"{len(occupancy.samples)} samples")  # fmt: skip
    print(f"  mean: tasks under way {occupancy.mean('under_way'):.2f}, waiting "
          f"{occupancy.mean('waiting'):.2f}, workers computing {occupancy.mean('computing'):.2f}"
          f", searching thread computing {100 * occupancy.mean('searching'):.0f}%")  # fmt: skip
    shares = occupancy.histogram(bins(jobs))
    print("  workers computing: " + ", ".join(
        f"{low}{'' if low == high else f'-{high}'} {100 * share:.0f}%"
        for (low, high), share in zip(bins(jobs), shares, strict=True)))  # fmt: skip
    print("  by tenth of the run: " + " ".join(f"{mean:.1f}" for mean in occupancy.tenths()))
    line = (f"  estimated speed-up on {jobs} cores: {occupancy.threads():.2f} threads computing"
            f" x {one[1]:.2f} / {cpu:.2f} s CPU = {occupancy.estimate(one[1], cpu):.2f}"
            f" ({occupancy.estimate(one[1], cpu) / jobs:.2f} N)")  # fmt: skip
    if one[2]:
        by_sets = min(float(jobs), occupancy.threads() * one[2] / nodes)
        line += f"; by sets searched {by_sets:.2f}"
    if one[0]:
        line += f"; measured here {one[0] / wall:.2f}"
    print(line)
    if traffic is not None:
        print(traffic.line(nodes))
    if ahead is not None:
        print(ahead.line())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rules", nargs="?", default="bc", help="variant (default: bc)")
    parser.add_argument("--objective", choices=OBJECTIVES, default="total")
    parser.add_argument("--jobs", type=int, nargs="+",
                        help="threads of each run (default 16; none with --beside)")  # fmt: skip
    parser.add_argument("--every", type=float, default=0.005, help="seconds between samples")
    parser.add_argument("--one-thread", type=float,
                        help="CPU seconds of the search on one thread (not run then)")  # fmt: skip
    parser.add_argument("--one-thread-sets", type=int, default=0, metavar="SETS",
                        help="with --one-thread: the sets it searches, for the estimate by "
                             "sets searched")  # fmt: skip
    parser.add_argument("--memos", type=int, nargs="*", default=[],
                        help="also on one thread, each shared set's guesses over this many "
                             "memos in turn")  # fmt: skip
    parser.add_argument("--private", action="store_true",
                        help="also each run with the memos alone, no table shared")  # fmt: skip
    parser.add_argument("--share-from", type=int, nargs="+",
                        help="a run with the shared table for each: the fewest codes of a "
                             "set it holds (default: the search's own)")  # fmt: skip
    parser.add_argument("--slots", type=int,
                        help="the shared table's slots, a power of two (default: as the "
                             "search sizes it)")  # fmt: skip
    parser.add_argument(
        "--no-rounds-ahead",
        action="store_true",
        help="send no round of the guesses to come ahead to idle workers",
    )
    parser.add_argument("--beside", type=int, metavar="K",
                        help="the search on one thread alone and beside K processes each "
                             "running it on one thread of its own")  # fmt: skip
    parser.add_argument("--repeats", type=int, default=1, help="pairs of --beside runs")
    parser.add_argument("--busy", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one_thread_sets and not args.one_thread:
        parser.error("--one-thread-sets goes with --one-thread (else one thread's run counts them)")
    if args.slots is not None and (args.slots < 2 or args.slots & (args.slots - 1)):
        parser.error(f"--slots {args.slots}: give a power of two, as 1048576")
    if args.busy:
        busy(args.rules, args.objective)
    if not os.path.exists("/proc/self/task"):
        raise SystemExit("occupancy: needs Linux's /proc/self/task")
    optimal_tree(Rules.parse("p3c6r"))  # load the compiled kernels
    prepare()  # and a team's (once a process), outside the first run sampled on threads
    if args.beside is not None:
        print(f"{args.rules} {args.objective} on one thread, alone and beside {args.beside}:")
        compare_beside(args.rules, args.objective, args.beside, args.repeats)
        if args.jobs is None:
            return 0
    with counting() as single:
        one = ((0.0, args.one_thread, args.one_thread_sets) if args.one_thread
               else alone(args.rules, args.objective))  # fmt: skip
    print(f"{args.rules} {args.objective}: one thread {one[0]:.2f} s, {one[1]:.2f} s CPU, "
          f"{one[2]:,} sets searched ({single.again:,} branched on again: their memo's floor, "
          f"from a narrower window, did not settle them)")  # fmt: skip
    froms = args.share_from or [state.SHARE_FROM]
    ways = [(True, f, "a shared table" + (f", sets from {f} codes" if args.share_from else ""))
            for f in froms] + [(False, 0, "memos alone")] * args.private  # fmt: skip
    for jobs in args.jobs or [16]:
        for on, codes, way in ways:
            print(f"  with {way}:")
            sized = patch.object(search_calls, "SHARED_SLOTS", (args.slots,) * 2)
            with (
                sharing(on),
                patch.object(state, "SHARE_FROM", codes),  # only sets of this many codes or more
                sized if args.slots else nullcontext(),
                rounds_ahead(not args.no_rounds_ahead),
                counting() as traffic,
                guessing_ahead() as ahead,
            ):
                found = run(args.rules, args.objective, jobs, args.every)
            report(*found, one, traffic if on else None, ahead)
    for count in args.memos:
        for on, _, way in ways[:1] + ways[len(froms) :]:
            with memos(count), sharing(on):
                _, cost = run(args.rules, args.objective, 1, args.every)
            print(f"  one thread, {count} memos, {way}: {cost[1]:.2f} s CPU ({cost[1] / one[1]:.2f}"
                  f" x one memo's), {cost[2]:,} sets searched")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
