"""Pair-scores per second of the scoring kernels, and what a busy neighbour costs them (the
figures of docs/explanation/performance.md).

Run: .venv/bin/python benchmarks/kernel.py
     .venv/bin/python benchmarks/kernel.py --neighbour     # alone, then beside a busy process

For each variant it times the full score matrix (every code against every code; for 5 of 10
digits the 30240 x 30240 matrix is built in blocks of rows so as not to hold 0.9 GB at once)
and the partition-size table every heuristic strategy is built on. The best of several
repetitions is reported, after one warm-up call that compiles the kernels.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable

from bullscows.rules import Rules
from bullscows.universe import universe

REPEATS = 5
BLOCK = 2048


def best_seconds(action, repeats: int = REPEATS) -> float:  # type: ignore[no-untyped-def]
    action()  # compile and warm up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def full_matrix(spec: str) -> tuple[int, float]:
    u = universe(Rules.parse(spec))
    everything = u.all()
    blocks = [everything[i : i + BLOCK] for i in range(0, len(u), BLOCK)]
    if len(u) <= BLOCK * 3:
        blocks = [everything]

    def run() -> None:
        for rows in blocks:
            u.score_matrix(rows, everything)

    return len(u) ** 2, best_seconds(run, REPEATS if len(u) < 10_000 else 2)


def partition_table(spec: str) -> tuple[int, float]:
    u = universe(Rules.parse(spec))
    everything = u.all()
    guesses = everything if len(u) < 10_000 else everything[:: max(1, len(u) // 5040)]
    return len(guesses) * len(u), best_seconds(lambda: u.partition_sizes(guesses, everything))


#: The neighbour: one process spinning on one core.
SPIN = "import os; os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})\nwhile True: pass"


def neighbour(rounds: int) -> None:
    """Each work alone and beside a process spinning on one core, in turns (best of
    ``rounds`` each), with the slowdown its share of the CPU explains: with N cores, and the
    busy core shared evenly, this process keeps N - 1/2 of them."""
    from bullscows.outcomes import build_tree
    from bullscows.strategies import get_strategy

    bc = universe(Rules.parse("bc"))
    works: list[tuple[str, Callable[[], object]]] = [
        ("bc partition sizes", lambda: bc.partition_sizes(bc.all(), bc.all())),
        ("bc score matrix", lambda: bc.score_matrix(bc.all(), bc.all())),
        ("p5c10n entropy tree", lambda: build_tree(Rules.parse("p5c10n"), get_strategy("entropy"))),
    ]
    cores = len(os.sched_getaffinity(0))
    print(f"{cores} cores, load average {os.getloadavg()[0]:.1f} at the start; best of {rounds}")
    print(f"share explains at most {cores / (cores - 0.5):.2f}\n")
    print("| work | alone | beside a busy core | slowdown |\n|---|---|---|---|")
    for name, work in works:
        work()  # compile and warm up
        alone, beside = float("inf"), float("inf")
        for _ in range(rounds):
            alone = min(alone, _seconds(work))
            spinning = subprocess.Popen([sys.executable, "-c", SPIN])
            try:
                time.sleep(0.2)
                beside = min(beside, _seconds(work))
            finally:
                spinning.kill()
                spinning.wait()
        print(f"| {name} | {alone:.3f} s | {beside:.3f} s | {beside / alone:.2f} |", flush=True)


def _seconds(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--neighbour", action="store_true", help="alone, then beside a busy core")
    parser.add_argument("--rounds", type=int, default=3, metavar="N")
    args = parser.parse_args()
    if args.neighbour:
        neighbour(args.rounds)
        return
    import numba

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"numba {numba.__version__} with {numba.get_num_threads()} threads")  # fmt: skip
    print(f"{'variant':<10} {'what':<28} {'pairs':>14} {'seconds':>9} {'pair-scores/s':>15}")
    for spec in ("bc", "p5c10n", "mm"):
        for what, measure in (
            ("full score matrix", full_matrix),
            ("partition sizes", partition_table),
        ):
            pairs, seconds = measure(spec)
            print(f"{spec:<10} {what:<28} {pairs:>14,} {seconds:>9.4f} {pairs / seconds:>15.3e}")


if __name__ == "__main__":
    main()
