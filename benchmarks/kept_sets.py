"""What the sets kept beside a checkpoint (``search.kept``) spare the search of a fixed opening
resumed after a stop.

Run: .venv/bin/python benchmarks/kept_sets.py digits --stop 100000
     .venv/bin/python benchmarks/kept_sets.py p4c8n --stop 600 --jobs 2

The search of the variant's opening (``tree --opening root-bound``) is stopped after ``--stop``
sets (a budget) with a checkpoint; the checkpoint is copied, and the two copies are resumed to
the end on ``--jobs`` threads, one with the sets the stopped search kept beside it and one
without, taking turns (``--repeats`` pairs, the first of each pair alternating). Printed for
each run: the sets searched to the end, the wall-clock and CPU seconds
(this process's, every thread), and the total found (the same for both: the lowest of the
opening).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from bullscows.executors import Threads
from bullscows.rules import Rules
from bullscows.search.kept import sets_path
from bullscows.search.opening import OpeningResult, opening_tree
from bullscows.search.progress import Budget
from bullscows.strategies.part_trees import heuristic_part


def opening(rules: Rules, path: Path, jobs: int, budget: Budget | None = None) -> OpeningResult:
    """The search of ``rules``' opening with the checkpoint ``path``, on ``jobs`` threads."""
    if jobs == 1:
        return opening_tree(rules, heuristic_part, checkpoint=path, budget=budget)
    with Threads(jobs) as team:
        return opening_tree(rules, heuristic_part, executor=team, checkpoint=path, budget=budget)


def resume(rules: Rules, folder: Path, stopped: Path, with_sets: bool, jobs: int) -> list[str]:
    """One resumed run from copies of the stopped search's files: its row."""
    path = folder / "run.ckpt"
    sets_path(path).unlink(missing_ok=True)
    shutil.copy(stopped, path)
    if with_sets:
        shutil.copy(sets_path(stopped), sets_path(path))
    clock, cpu = time.perf_counter(), time.process_time()
    found = opening(rules, path, jobs)
    seconds, used = time.perf_counter() - clock, time.process_time() - cpu
    label = "with the sets kept" if with_sets else "without them"
    return [label, f"{found.sets:,}", f"{seconds:.1f}", f"{used:.1f}", f"{found.total:,}"]


def main(argv: list[str] | None = None) -> list[list[str]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", nargs="?", default="digits")
    parser.add_argument("--stop", type=int, default=100_000, help="sets before the stop")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=1, help="pairs of resumed runs")
    args = parser.parse_args(argv)
    rules = Rules.parse(args.variant)
    rows = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        stopped = folder / "stopped.ckpt"
        first = opening(rules, stopped, args.jobs, Budget(sets=args.stop))
        print(
            f"{rules.spec}: the opening's search stopped at {first.stopped} ({first.sets:,} "
            f"sets, {first.solved:,} of {first.parts:,} parts solved), {first.kept:,} sets kept"
        )
        for repeat in range(args.repeats):
            order = (True, False) if repeat % 2 == 0 else (False, True)
            for with_sets in order:
                rows.append(resume(rules, folder, stopped, with_sets, args.jobs))
    head = ["resumed", "sets searched", "seconds", "CPU seconds", "total"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return rows


if __name__ == "__main__":
    main()
