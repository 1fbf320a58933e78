"""Pair-scores per second of the scoring kernels (the figures the README quotes).

Run: .venv/bin/python benchmarks/kernel.py

For each variant it times the full score matrix (every code against every code; for 5 of 10
digits the 30240 x 30240 matrix is built in blocks of rows so as not to hold 0.9 GB at once)
and the partition-size table every heuristic strategy is built on. The best of several
repetitions is reported, after one warm-up call that compiles the kernels.
"""

from __future__ import annotations

import os
import platform
import time

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


def main() -> None:
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
