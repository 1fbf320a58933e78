"""Whole processes of ``bullscows tree --strategy optimal --jobs N``: seconds for each N, each
run with an empty cache, and whether every run's tree is the one of ``--jobs 1``.

Run: .venv/bin/python benchmarks/jobs.py                      # bc optimal, --jobs 1 2 4 8 16
     .venv/bin/python benchmarks/jobs.py --strategy optimal-worst --jobs 1 16
     .venv/bin/python benchmarks/jobs.py --strategy optimal-worst-count --jobs 16 --time-limit 240

A run that fails or is stopped by ``--time-limit`` says why. The trees are
compared with ``bullscows tree --compare`` to the first run's (or to ``--expect FILE``).

A search whose one-thread run is too long to time on the machine at hand (``bc``
``optimal-worst-count``: about 15 minutes) takes its one-thread time from another machine's
record, scaled by how fast this machine's core is: ``--one-thread SECONDS`` is the CPU
seconds of the one-thread search there, ``--calibrate SECONDS`` the CPU seconds there of a
short reference search (``--reference``, one thread, the second of two runs: the first
readies numba's cache), which runs here first. The speed-up is
then the scaled one-thread time over each run's seconds, stated as an estimate:

    .venv/bin/python benchmarks/jobs.py --rules bc --strategy optimal-worst-count --jobs 16 \
        --time-limit 240 --one-thread 850 --calibrate 12.3 \
        --expect docs/trees/bc-worst-count.json.gz
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BULLSCOWS = [sys.executable, "-m", "bullscows"]


def run(
    rules: str, strategy: str, jobs: int, folder: Path, limit: float | None
) -> tuple[float, float] | None:
    """Seconds and CPU seconds (every thread's) of one ``tree`` run with an empty cache (its
    tree goes to ``folder``); ``None`` when it failed (it says why). A run stopped by its
    time limit prints its last words."""
    command = [*BULLSCOWS, "tree", "--rules", rules, "--strategy", strategy, "--jobs", str(jobs),
               "--out", str(folder / "tree.json.gz")]  # fmt: skip
    if limit is not None:
        command += ["--time-limit", str(limit)]
    env = {**os.environ, "BULLSCOWS_CACHE": str(folder / "cache")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        print(f"  --jobs {jobs:>2}: exit {done.returncode} after {seconds:.1f} s: {last}")
        return None
    if not (folder / "tree.json.gz").exists():
        said = (done.stdout + done.stderr).strip().splitlines()
        print(f"  --jobs {jobs:>2}: stopped after {seconds:.1f} s: {said[-1] if said else ''}")
    return seconds, cpu


def same(rules: str, first: Path, tree: Path) -> str:
    """Whether two tree files hold the same tree (``tree --compare``), in words."""
    compared = subprocess.run(
        [*BULLSCOWS, "tree", "--rules", rules, "--compare", str(first), str(tree)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    alike = "the trees are the same" in compared.stdout
    return "same tree" if alike else "trees differ (tree --compare)"


def calibrate(args: argparse.Namespace, folder: Path) -> float | None:
    """The one-thread seconds of the search here, scaled from ``--one-thread`` by the
    reference search's CPU seconds here against ``--calibrate``; ``None`` if not asked."""
    if args.one_thread is None:
        return None
    rules, strategy = args.reference
    here = 0.0
    for warm in ("cold", "warm"):  # the first run readies numba's cache where it is cold
        (folder / warm).mkdir()
        timed = run(rules, strategy, 1, folder / warm, None)
        if timed is None:
            raise SystemExit("the reference search failed: no one-thread estimate")
        here = timed[1]
    ratio = args.calibrate / here if args.calibrate else 1.0
    print(f"  reference {rules} {strategy} --jobs 1: {here:.2f} s CPU here, "
          f"{args.calibrate or here:.2f} s where --one-thread was recorded: this core is "
          f"{ratio:.2f} times as fast")  # fmt: skip
    estimate: float = args.one_thread / ratio
    print(f"  --jobs  1, estimated: {args.one_thread:.1f} s CPU recorded / {ratio:.2f} "
          f"= {estimate:.1f} s")  # fmt: skip
    return estimate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="bc")
    parser.add_argument("--strategy", default="optimal")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    parser.add_argument("--time-limit", type=float, help="stop each run after this many s")
    parser.add_argument("--expect", type=Path, help="compare each tree to this tree file")
    parser.add_argument(
        "--one-thread",
        type=float,
        metavar="SECONDS",
        help="the one-thread CPU seconds of the search, recorded elsewhere",
    )
    parser.add_argument(
        "--calibrate",
        type=float,
        metavar="SECONDS",
        help="the reference's one-thread CPU seconds where --one-thread was",
    )
    parser.add_argument(
        "--reference",
        nargs=2,
        default=["bc", "optimal"],
        metavar=("RULES", "STRATEGY"),
        help="the reference search",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temporary:
        first: Path | None = args.expect
        print(f"{args.rules} {args.strategy}")
        reference = Path(temporary) / "reference"
        reference.mkdir()
        base = calibrate(args, reference)
        for jobs in args.jobs:
            folder = Path(temporary) / f"jobs{jobs}"
            folder.mkdir()
            timed = run(args.rules, args.strategy, jobs, folder, args.time_limit)
            if timed is None:
                continue
            seconds, cpu = timed
            tree = folder / "tree.json.gz"
            alike = "no tree"
            if tree.exists():
                first = first or tree
                alike = same(args.rules, first, tree)
            base = base or seconds
            print(f"  --jobs {jobs:>2}: {seconds:7.2f} s ({cpu:7.2f} s CPU)  speed-up "
                  f"{base / seconds:5.2f} ({base / seconds / jobs:4.2f} N)  {alike}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
