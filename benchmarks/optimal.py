"""Time of the exhaustive optimal-tree search (``bullscows.search.optimal_tree``).

Run: .venv/bin/python benchmarks/optimal.py                 # mm, then mm within 5 guesses
     .venv/bin/python benchmarks/optimal.py bc --timeout 300  # Bulls & Cows (26274 is the optimum)
     .venv/bin/python benchmarks/optimal.py bc --objective worst

Each run is one search in this process (the kernels are loaded first, so compile time is not
counted); a progress line is printed every ``--every`` seconds. ``--timeout`` stops a search
that runs too long (it prints how far it got and exits with status 1). "nodes" counts the sets
of candidates whose guesses were all scored (searched nodes and one-guess-ahead bounds).

Measured on the 2-core development machine (one core used, other work running):
mm 5625 in 0.7-0.9 s (8,444 nodes); mm within 5 guesses 5626 in 0.7-0.9 s (9,179 nodes);
p4c8n 7817 in 2.3 s; p4c9n 14914 in 21-28 s; bc does not finish within 300 s (about 4,000
nodes a second).
"""

from __future__ import annotations

import argparse
import sys
import time

from bullscows.rules import Rules
from bullscows.search import Objective, optimal_tree


class TimedOut(Exception):
    """The search ran past ``--timeout``."""


def run(spec: str, objective: Objective, depth: int | None, consistent: bool, args: object) -> None:
    assert isinstance(args, argparse.Namespace)
    label = f"{spec} objective={objective} max_depth={depth} consistent_only={consistent}"
    last = [time.perf_counter()]

    def report(nodes: int, best: int | None, seconds: float) -> None:
        if seconds > args.timeout:
            raise TimedOut(f"{label}: stopped after {seconds:.1f} s, {nodes:,} nodes, best {best}")
        if time.perf_counter() - last[0] >= args.every:
            last[0] = time.perf_counter()
            print(f"  ... {seconds:7.1f} s  {nodes:>10,} nodes  best so far {best}", flush=True)

    result = optimal_tree(Rules.parse(spec), objective, depth, consistent, progress=report)
    print(
        f"{label}: total {result.total} (avg {result.total / result.rules.size:.4f}), "
        f"worst {result.worst}, {result.nodes:,} nodes, {result.seconds:.2f} s\n"
        f"  distribution {result.distribution}",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rules", nargs="*", help="variants (default: mm, and mm within 5)")
    parser.add_argument("--objective", choices=["total", "worst"], default="total")
    parser.add_argument("--max-depth", type=int, default=None)
    parser.add_argument("--consistent-only", action="store_true")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per search")
    parser.add_argument("--every", type=float, default=10.0, help="seconds between reports")
    args = parser.parse_args(argv)
    optimal_tree(Rules.parse("p2c3r"))  # load the compiled kernels
    plan = [(spec, args.max_depth) for spec in args.rules] or [("mm", None), ("mm", 5)]
    status = 0
    for spec, depth in plan:
        try:
            run(spec, args.objective, depth, args.consistent_only, args)
        except TimedOut as stop:
            print(stop, flush=True)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
