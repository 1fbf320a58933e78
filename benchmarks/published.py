"""Optima the search proves, beside the published figure where there is one: the rows of the
results table (``docs/results.md``).

Run: .venv/bin/python benchmarks/published.py                     # every group (bc's take minutes)
     .venv/bin/python benchmarks/published.py --group goddard new  # some groups
     .venv/bin/python benchmarks/published.py --jobs 2 --group slovesnov

Each row is one exhaustive search in this process (``--jobs N``: its parts on N processes), so
every value printed is proven optimal for its objective; the time includes nothing but the
search (the kernels are compiled first). Groups: ``goddard`` (Goddard 2004's small Mastermind
table), ``consistent`` (consistent-only optima), ``lexicographic`` (Mastermind under the
lexicographic objectives, Slovesnov's 539), ``ville`` (Ville 2013's 4 pegs x 7 colours),
``slovesnov`` (Bulls & Cows, fewest secrets at 7 guesses), ``new`` (figures no publication
gives, as far as this project knows).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context

from bullscows.rules import Rules
from bullscows.search import Objective, optimal_tree

GODDARD = "Goddard 2004, Mastermind Revisited"
SUPERMM = "supermastermind site, optimal_strategy page"


@dataclass(frozen=True)
class Row:
    """One search of the table and what was published about it."""

    group: str
    spec: str
    objective: Objective = "total"
    consistent_only: bool = False
    published: str = ""
    source: str = ""


def _goddard(pegs: int, colours: int, average: str) -> Row:
    return Row("goddard", f"p{pegs}c{colours}r", published=f"avg {average}", source=GODDARD)


ROWS: tuple[Row, ...] = (
    *(
        _goddard(p, c, a)
        for p, c, a in [
            (2, 2, "2.000"), (3, 2, "2.250"), (4, 2, "2.750"), (5, 2, "3.031"), (6, 2, "3.500"),
            (7, 2, "3.875"), (2, 3, "2.333"), (3, 3, "2.704"), (4, 3, "3.037"), (5, 3, "3.358"),
            (2, 4, "2.813"), (3, 4, "3.219"), (4, 4, "3.535"), (2, 5, "3.240"), (3, 5, "3.608"),
            (4, 5, "3.941"),
        ]
    ),
    Row("consistent", "mm", consistent_only=True, published="5660, worst 6", source=SUPERMM),
    Row("consistent", "p3c5r", consistent_only=True, published="455/125", source=SUPERMM),
    Row("lexicographic", "mm", "worst-count", published="539 at 5", source="Slovesnov"),
    Row("lexicographic", "mm", "total-worst"),
    Row("ville", "p4c7r", published="11228 (4.676)", source="Ville 2013"),
    Row("slovesnov", "bc", "worst-count", published="50 at 7, total 26484", source="Slovesnov"),
    Row("new", "p3c10n"),
    Row("new", "p3c10n", "worst-count"),
    Row("new", "p3c10n", consistent_only=True),
    Row("new", "bc-1to9", "worst-count"),
)  # fmt: skip


def command(row: Row) -> str:
    """The command that proves the row and writes its tree."""
    strategy = {"total": "optimal", "worst": "optimal-worst"}.get(
        row.objective, f"optimal-{row.objective}"
    )
    consistent = " --consistent-only" if row.consistent_only else ""
    return f"bullscows tree --rules {row.spec} --strategy {strategy}{consistent}"


def run(row: Row, pool: Executor | None) -> str:
    """The row's search, as a line of the markdown table."""
    start = time.perf_counter()
    result = optimal_tree(
        Rules.parse(row.spec), row.objective, consistent_only=row.consistent_only, executor=pool
    )
    seconds = time.perf_counter() - start
    size = result.rules.size
    worst = result.worst
    value = (
        f"{result.total} ({result.total / size:.4f}), worst {worst} "
        f"({result.distribution[worst]} at worst)"
    )
    mode = " consistent-only" if row.consistent_only else ""
    return (
        f"| `{row.spec}` ({size:,}) | {row.objective}{mode} | {value} | proven | "
        f"{result.nodes:,} | {seconds:.1f} s | `{command(row)}` | {row.published} | "
        f"{row.source} |"
    )


def main(argv: list[str] | None = None) -> int:
    groups = sorted({row.group for row in ROWS})
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--group", nargs="+", choices=groups, help="some groups only")
    parser.add_argument("--jobs", type=int, default=1, help="local processes for the parts")
    args = parser.parse_args(argv)
    optimal_tree(Rules.parse("p3c6r"))  # load the compiled kernels
    pool = ProcessPoolExecutor(args.jobs, get_context("spawn")) if args.jobs > 1 else None
    print("| variant (codes) | objective | value | status | sets | time | command | published "
          "| source |\n|---|---|---|---|---|---|---|---|---|", flush=True)  # fmt: skip
    try:
        for row in ROWS:
            if args.group is None or row.group in args.group:
                print(run(row, pool), flush=True)
    finally:
        if pool is not None:
            pool.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
