"""Optima the search proves, beside the published figure where there is one: the rows of the
results table (``docs/results.md``).

Run: .venv/bin/python benchmarks/published.py                     # every group (bc's take minutes)
     .venv/bin/python benchmarks/published.py --group goddard new  # some groups
     .venv/bin/python benchmarks/published.py --jobs 2 --group slovesnov
     .venv/bin/python benchmarks/published.py --group open --time-limit 600 --only bc5 logik
     .venv/bin/python benchmarks/published.py --group open --time-limit 1 --bound deep

Each row is one exhaustive search in this process (``--jobs N``: its parts on N threads), so
every value printed is proven optimal for its objective; the time includes nothing but the
search (the kernels are compiled first). Groups: ``goddard`` (Goddard 2004's small Mastermind
table), ``koyama`` (Koyama and Lai 1993's Mastermind optima), ``consistent`` (consistent-only
optima), ``lexicographic`` (Mastermind under the lexicographic objectives, Slovesnov's 539),
``ville`` (Ville 2013's 4 pegs x 7 colours), ``arfst`` (4 pegs x 8 colours, the result table
of the arfst23/Mastermind solver), ``tanaka`` (Bulls & Cows's lowest total, Tanaka 1996),
``slovesnov`` (Bulls & Cows, fewest secrets at 7 guesses), ``new`` (figures no publication
gives, as far as this project knows; ``digits`` takes about 15 minutes of CPU).

``--time-limit SECONDS`` stops each search after that long and prints its bounds instead: the
proven lower bound the search reached and the best tree known (its own, or the best of the
heuristic trees, each checked by the independent checker), and the gap. Group ``open`` holds
the variants nobody has settled (``--only`` picks some): those within the search's limit are
searched so (600 s unless told), and each gets the strongest lower bound the project proves
for it, computed now: the deep bound for ``bc5`` (seconds) and ``logik`` (about 12 minutes
on 2 threads), with
``--jobs N`` threads (``search.deep_bound``; docs/results.md, "Bounds"). The row names the
bound's kind (a search's own when it proved more); ``--bound root|deep|deeper`` picks another
kind for every row (root: ``search.frontier``, each part charged its lookahead).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import Executor
from dataclasses import dataclass

from bullscows.cli.bounds import KINDS as BOUND_LEVELS
from bullscows.executors import make_executor
from bullscows.outcomes import build_tree
from bullscows.rules import Rules
from bullscows.search import Objective, optimal_tree
from bullscows.search.deep_bound import deep_bound
from bullscows.search.frontier import root_bound
from bullscows.search.optimal import MAX_SEARCH_CODES, Budget, SearchStopped
from bullscows.strategies import get_strategy
from bullscows.tree import check_tree

GODDARD = "Goddard 2004, Mastermind Revisited"
SUPERMM = "supermastermind site, optimal_strategy page"
ARFST = "arfst23/Mastermind result table"


@dataclass(frozen=True)
class Row:
    """One search of the table and what was published about it."""

    group: str
    spec: str
    objective: Objective = "total"
    consistent_only: bool = False
    published: str = ""
    source: str = ""
    #: An open row's strongest proven lower bound, by kind (docs/results.md, "Bounds").
    bound: str = "root"


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
    Row("koyama", "mm", published="5625", source="Koyama and Lai 1993"),
    Row("koyama", "mm", "worst", published="5626 within 5", source="Koyama and Lai 1993"),
    Row("consistent", "mm", consistent_only=True, published="5660, worst 6", source=SUPERMM),
    Row("consistent", "p3c5r", consistent_only=True, published="455/125", source=SUPERMM),
    Row("lexicographic", "mm", "worst-count", published="539 at 5", source="Slovesnov"),
    Row("lexicographic", "mm", "total-worst"),
    Row("ville", "p4c7r", published="11228 (4.676)", source="Ville 2013"),
    Row("arfst", "p4c8r", published="4.99780, worst 7", source=ARFST),
    Row("arfst", "p4c8r", "worst", published="4.99829 within 6", source=ARFST),
    Row("tanaka", "bc", published="26274", source="Tanaka 1996"),
    Row("slovesnov", "bc", "worst-count", published="50 at 7, total 26484", source="Slovesnov"),
    Row("new", "p3c10n"),
    Row("new", "p3c10n", "worst"),
    Row("new", "p3c10n", "worst-count"),
    Row("new", "p3c10n", "total-worst"),
    Row("new", "p3c10n", consistent_only=True),
    Row("new", "bc-1to9"),
    Row("new", "bc-1to9", "worst"),
    Row("new", "bc-1to9", "worst-count"),
    Row("new", "bc-nolead"),
    Row("new", "bc-nolead", "worst"),
    Row("new", "digits"),
    Row("open", "bc5", bound="deep"),
    Row("open", "logik", published="179929 (upper bound)", source=SUPERMM, bound="deep"),
)  # fmt: skip
#: The heuristic trees whose best gives an open variant's upper bound.
HEURISTICS = ("entropy", "expected-size", "most-parts", "minimax")
#: Seconds an open variant's search runs, unless ``--time-limit`` says otherwise.
OPEN_SECONDS = 600.0


def command(row: Row) -> str:
    """The command that proves the row and writes its tree."""
    strategy = {"total": "optimal", "worst": "optimal-worst"}.get(
        row.objective, f"optimal-{row.objective}"
    )
    consistent = " --consistent-only" if row.consistent_only else ""
    return f"bullscows tree --rules {row.spec} --strategy {strategy}{consistent}"


def run(row: Row, pool: Executor | None, limit: float | None, bound: Bound) -> str:
    """The row's search, as a line of the markdown table: proven, or its bounds when the
    search stops at ``limit`` seconds (or cannot run: too many codes)."""
    rules = Rules.parse(row.spec)
    if row.group == "open":
        limit = limit or OPEN_SECONDS
    if rules.guess_rules.size > MAX_SEARCH_CODES:
        return bounded(row, None, 0, 0.0, None, bound)
    start = time.perf_counter()
    budget = None if limit is None else Budget(seconds=limit)
    try:
        result = optimal_tree(
            rules, row.objective, consistent_only=row.consistent_only, executor=pool,
            budget=budget,
        )  # fmt: skip
    except SearchStopped as stopped:
        standing = stopped.standing
        return bounded(row, standing.lower, standing.nodes, standing.seconds, standing.upper, bound)
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


@dataclass(frozen=True)
class Bound:
    """Which proven lower bound a row the search did not settle gets: ``kind`` (root, deep,
    deeper; ``None``: the row's own, its strongest), computed on ``jobs`` threads."""

    kind: str | None = None
    jobs: int = 1


def lower_bound(row: Row, rules: Rules, bound: Bound) -> tuple[int, str, float, str]:
    """The proven lower bound of ``bound``'s kind of ``row`` (whose variant is ``rules``),
    computed now: its value, its kind (with the first guess that reaches it), the seconds it
    took and the command that prints it."""
    kind = bound.kind or row.bound
    jobs = f" --jobs {bound.jobs}" if bound.jobs > 1 and kind != "root" else ""
    shown = f"`bullscows tree --rules {row.spec} --strategy optimal --bound {kind}{jobs}`"
    start = time.perf_counter()
    if kind == "root":
        root = root_bound(rules)
        lower, first = root.lower, root.text(min(root.firsts, key=lambda pair: pair[1])[0])
    else:
        found = deep_bound(rules, bound.jobs, levels=BOUND_LEVELS[kind])
        lower = found.lower
        first = found.text(min(found.firsts, key=lambda each: (each.deep, not each.exact)).guess)
    return lower, f"{kind} bound, first guess {first}", time.perf_counter() - start, shown


def bounded(
    row: Row, lower: int | None, nodes: int, seconds: float, searched: int | None, bound: Bound
) -> str:
    """A row the search did not settle: the higher of the lower bound it proved (``lower``,
    ``None`` without a search) and ``bound``'s, and the best of its own tree (cost
    ``searched``) and the heuristic trees, each checked by the independent checker."""
    rules = Rules.parse(row.spec)
    if row.objective != "total" or row.consistent_only:
        raise SystemExit(f"{row.spec}: bounds are reported for the lowest total only")
    proven, kind, took, how = lower_bound(row, rules, bound)
    times = f"{took:.1f} s"
    if lower is not None:
        searching = f"`{command(row)} --time-limit {seconds:.0f}`"
        if lower > proven:
            kind = f"search bound (the {kind}: {proven:,})"
            proven = lower
        else:
            kind = f"{kind} (a search stopped after {seconds:.0f} s: {lower:,})"
        how, times = f"{how}; {searching}", f"{times}; the search {seconds:.0f} s"
    upper, source = (searched, "the search's tree") if searched is not None else (None, "")
    for name in HEURISTICS:
        tree = build_tree(rules, get_strategy(name))
        report = check_tree(tree)
        if report.problems or report.summary is None:
            raise SystemExit(f"{row.spec} {name}: the tree fails the check: {report.problems}")
        if upper is None or report.summary.total < upper:
            upper, source = report.summary.total, f"`{name}` tree"
    assert upper is not None
    size = rules.size
    value = (
        f"{proven} to {upper} ({proven / size:.4f} to {upper / size:.4f}), gap {upper - proven} "
        f"({(upper - proven) / upper:.2%}); lower: {kind}; upper: {source}"
    )
    return (
        f"| `{row.spec}` ({size:,}) | {row.objective} | {value} | bound | {nodes:,} | "
        f"{times} | {how} | {row.published} | {row.source} |"
    )


def main(argv: list[str] | None = None) -> int:
    groups = sorted({row.group for row in ROWS})
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--group", nargs="+", choices=groups, help="some groups only")
    parser.add_argument("--jobs", type=int, default=1, help="threads for the parts")
    parser.add_argument(
        "--time-limit", type=float, metavar="SECONDS", help="stop each search; print its bounds"
    )
    parser.add_argument("--only", nargs="+", metavar="SPEC", help="these variants only")
    parser.add_argument(
        "--bound", choices=list(BOUND_LEVELS),
        help="the lower bound of every unsettled row (default: each row's strongest)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    optimal_tree(Rules.parse("p3c6r"))  # load the compiled kernels
    print("| variant (codes) | objective | value | status | sets | time | command | published "
          "| source |\n|---|---|---|---|---|---|---|---|---|", flush=True)  # fmt: skip
    bound = Bound(args.bound, args.jobs)
    for row in ROWS:
        if (args.group is None or row.group in args.group) and (
            args.only is None or row.spec in args.only
        ):
            # A pool a row: one whose search was stopped has its tasks stopped too.
            with make_executor(None, args.jobs, None, threads=True) as pool:
                print(run(row, pool, args.time_limit, bound), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
