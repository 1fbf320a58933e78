"""Whole processes of ``bullscows tree --strategy optimal --jobs N``: seconds for each N, each
run with an empty cache, and whether every run's tree is the one of ``--jobs 1``.

Run: .venv/bin/python benchmarks/jobs.py                      # bc optimal, --jobs 1 2 4 8 16
     .venv/bin/python benchmarks/jobs.py --strategy optimal-worst --jobs 1 16
     .venv/bin/python benchmarks/jobs.py --strategy optimal-worst-count --jobs 16 --time-limit 240

A run that fails or is stopped by ``--time-limit`` says why. The trees are
compared with ``bullscows tree --compare`` to the first run's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BULLSCOWS = [sys.executable, "-m", "bullscows"]


def run(rules: str, strategy: str, jobs: int, folder: Path, limit: float | None) -> float | None:
    """Seconds of one ``tree`` run with an empty cache (its tree goes to ``folder``); ``None``
    when it failed (it says why). A run stopped by its time limit prints its last words."""
    command = [*BULLSCOWS, "tree", "--rules", rules, "--strategy", strategy, "--jobs", str(jobs),
               "--out", str(folder / "tree.json.gz")]  # fmt: skip
    if limit is not None:
        command += ["--time-limit", str(limit)]
    env = {**os.environ, "BULLSCOWS_CACHE": str(folder / "cache")}
    began = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - began
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        print(f"  --jobs {jobs:>2}: exit {done.returncode} after {seconds:.1f} s: {last}")
        return None
    if not (folder / "tree.json.gz").exists():
        said = (done.stdout + done.stderr).strip().splitlines()
        print(f"  --jobs {jobs:>2}: stopped after {seconds:.1f} s: {said[-1] if said else ''}")
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="bc")
    parser.add_argument("--strategy", default="optimal")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    parser.add_argument("--time-limit", type=float, help="stop each run after this many s")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temporary:
        first: Path | None = None
        base = None
        print(f"{args.rules} {args.strategy}")
        for jobs in args.jobs:
            folder = Path(temporary) / f"jobs{jobs}"
            folder.mkdir()
            seconds = run(args.rules, args.strategy, jobs, folder, args.time_limit)
            if seconds is None:
                continue
            tree = folder / "tree.json.gz"
            same = "no tree"
            if tree.exists():
                first = first or tree
                compared = subprocess.run(
                    [*BULLSCOWS, "tree", "--rules", args.rules, "--compare", str(first), str(tree)],
                    capture_output=True, text=True, check=False,
                )  # fmt: skip
                alike = "the trees are the same" in compared.stdout
                same = "same tree" if alike else "trees differ (tree --compare)"
            base = base or seconds
            print(f"  --jobs {jobs:>2}: {seconds:7.2f} s  speed-up {base / seconds:5.2f}  {same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
