"""What the optimal search's replies cost past ``search.scores.WHOLE_MATRIX_CODES`` codes: the
whole score matrix against the rows the search holds instead (``search.scores.ScoreRows``).

Run: .venv/bin/python benchmarks/blocks.py                       # bc digits bc5 logik p6c9n
     .venv/bin/python benchmarks/blocks.py bc5 --search 60       # and a search of 60 s

For each variant: its codes, the whole matrix's bytes and the CPU seconds to score it
(measured on its first 2,000 rows, scaled to all of them), the largest part one guess deep under the
best first guess (the most rows the searching process holds: the set it looks ahead from) and
two guesses deep under the best second guess (a task's rows). ``--search SECONDS`` then runs
the lowest-total search for that long in this process and prints its lower bound, the rows
scored into its block and this process's peak resident memory (``ru_maxrss``).
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

from bullscows.rules import Rules
from bullscows.search import scores
from bullscows.search.engine import python_levels
from bullscows.search.optimal import Budget, SearchStopped, optimal_tree
from bullscows.symmetry import guess_classes
from bullscows.universe import universe

MIB = 1 << 20


def largest_part(rules: Rules, guesses: list[int], codes: np.ndarray) -> tuple[int, int]:
    """The guess among ``guesses`` whose largest part of ``codes`` is smallest, and that part's
    size (the winning reply aside)."""
    u, win = universe(rules), rules.length * (rules.length + 1)
    best = (-1, len(codes) + 1)
    for guess in guesses:
        sizes = np.bincount(u.score_row(guess, codes), minlength=rules.reply_slots)
        sizes[win] = 0
        if int(sizes.max()) < best[1]:
            best = (guess, int(sizes.max()))
    return best


def costs(spec: str) -> None:
    rules = Rules.parse(spec)
    u = universe(rules)
    n = len(u)
    sample = u.all()[: min(n, 2000)]
    u.score_matrix(sample[:10], u.all())  # the kernels loaded (or compiled) first
    start = time.process_time()  # CPU seconds: on a busy machine they vary less
    u.score_matrix(sample, u.all())
    seconds = (time.process_time() - start) * n / len(sample)
    first, one = largest_part(rules, guess_classes(rules, ()).tolist(), u.all())
    replies = u.score_row(first, u.all())
    sizes = np.bincount(replies, minlength=rules.reply_slots)
    sizes[rules.length * (rules.length + 1)] = 0
    part = u.all()[replies == int(sizes.argmax())]
    two = largest_part(rules, guess_classes(rules, (first,)).tolist(), part)[1]
    path = "whole matrix" if n <= scores.WHOLE_MATRIX_CODES else "rows when needed"
    print(
        f"{spec}: {n:,} codes ({path}, {python_levels(rules)} levels in Python); whole matrix "
        f"{n * n / MIB:,.0f} MiB, {seconds:.1f} s of CPU to score; largest part one guess deep "
        f"{one:,} codes ({one * n / MIB:,.0f} MiB of rows), two deep {two:,} "
        f"({two * n / MIB:,.0f} MiB)"
    )


def search(spec: str, seconds: float) -> None:
    rules = Rules.parse(spec)
    start = time.process_time()
    try:
        result = optimal_tree(rules, budget=Budget(seconds=seconds))
        line = f"optimum {result.total:,}"
    except SearchStopped as stopped:
        line = str(stopped.standing)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    cpu = time.process_time() - start
    print(f"{spec} search: {line}; CPU {cpu:.1f} s; peak resident memory {peak / MIB:,.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules", nargs="*", default=["bc", "digits", "bc5", "logik", "p6c9n"])
    parser.add_argument("--search", type=float, metavar="SECONDS", help="then search each")
    options = parser.parse_args()
    for spec in options.rules:
        costs(spec)
        if options.search:
            search(spec, options.search)


if __name__ == "__main__":
    main()
