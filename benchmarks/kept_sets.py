"""What the sets kept beside a checkpoint (``search.kept``) spare a search resumed after a stop.

Run: .venv/bin/python benchmarks/kept_sets.py digits --stop 100000
     .venv/bin/python benchmarks/kept_sets.py bc --whole --stop 40000 --jobs 2
     .venv/bin/python benchmarks/kept_sets.py bc --whole --stop 40000

The search of the variant's opening (``tree --opening root-bound``), or with ``--whole`` the
whole search for the lowest total (``tree --strategy optimal``), is stopped after ``--stop``
sets (a budget) with a checkpoint; the checkpoint is copied, and the two copies are resumed to
the end on ``--jobs`` threads, one with the sets the stopped search kept beside it and one
without, taking turns (``--repeats`` pairs, the first of each pair alternating). Printed for
each run: the sets searched to the end, the wall-clock and CPU seconds (this process's, every
thread), and the total found (the same for both).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np

from bullscows.executors import Threads
from bullscows.rules import Rules
from bullscows.search.kept import sets_path
from bullscows.search.opening import opening_tree
from bullscows.search.optimal import SearchStopped, optimal_tree
from bullscows.search.progress import Budget
from bullscows.strategies.part_trees import heuristic_part


def search(
    rules: Rules, path: Path, jobs: int, whole: bool, budget: Budget | None = None
) -> tuple[int, int, str]:
    """The search of ``rules``' opening (or ``whole``: the whole search) with the checkpoint
    ``path`` on ``jobs`` threads: its total (0 if stopped), sets searched, and what it says of
    its stop (if it stopped)."""
    with Threads(jobs) as team:
        executor = team if jobs > 1 else None
        if not whole:
            found = opening_tree(rules, heuristic_part, None, None, executor, path, budget)
            said = f"{found.solved:,} of {found.parts:,} parts solved, {found.kept:,} sets kept"
            return (0 if found.stopped else found.total), found.sets, said
        try:
            tree = optimal_tree(rules, executor=executor, checkpoint=path, budget=budget)
        except SearchStopped as stopped:
            return 0, stopped.standing.nodes, f"{_count(sets_path(path))} sets kept"
        return tree.total, tree.nodes, ""


def _count(path: Path) -> str:
    """The sets a sets file holds (``search.kept``), or none."""
    if not path.exists():
        return "no"
    with np.load(path) as data:
        return f"{sum(len(data[name]) for name in data.files if name != 'header'):,}"


def resume(
    rules: Rules, folder: Path, stopped: Path, with_sets: bool, jobs: int, whole: bool
) -> list[str]:
    """One resumed run from copies of the stopped search's files: its row."""
    path = folder / "run.ckpt"
    sets_path(path).unlink(missing_ok=True)
    shutil.copy(stopped, path)
    if with_sets and sets_path(stopped).exists():
        shutil.copy(sets_path(stopped), sets_path(path))
    clock, cpu = time.perf_counter(), time.process_time()
    total, sets, _ = search(rules, path, jobs, whole)
    seconds, used = time.perf_counter() - clock, time.process_time() - cpu
    label = "with the sets kept" if with_sets else "without them"
    return [label, f"{sets:,}", f"{seconds:.1f}", f"{used:.1f}", f"{total:,}"]


def main(argv: list[str] | None = None) -> list[list[str]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", nargs="?", default="digits")
    parser.add_argument("--stop", type=int, default=100_000, help="sets before the stop")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--whole", action="store_true", help="the whole search, not an opening's")
    parser.add_argument("--repeats", type=int, default=1, help="pairs of resumed runs")
    args = parser.parse_args(argv)
    rules = Rules.parse(args.variant)
    rows = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        stopped = folder / "stopped.ckpt"
        _, sets, said = search(rules, stopped, args.jobs, args.whole, Budget(sets=args.stop))
        which = "whole search" if args.whole else "opening's search"
        threads = f"{args.jobs} thread" + ("s" if args.jobs > 1 else "")
        print(f"{rules.spec}: the {which} stopped after {sets:,} sets ({said}), on {threads}")
        for repeat in range(args.repeats):
            order = (True, False) if repeat % 2 == 0 else (False, True)
            for with_sets in order:
                rows.append(resume(rules, folder, stopped, with_sets, args.jobs, args.whole))
    head = ["resumed", "sets searched", "seconds", "CPU seconds", "total"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return rows


if __name__ == "__main__":
    main()
