"""The optimal search with one or two levels in Python (``search.engine.python_levels``).

Run: .venv/bin/python benchmarks/levels.py                   # the default variants
     .venv/bin/python benchmarks/levels.py mm p4c7r --repeats 5

The levels above the compiled search are searched in Python, where the guesses are reduced by
symmetry and ordered by their bound one guess deeper (the lookaheads). Two levels pay where two
guesses leave unused symbols to relabel (the symmetry classes two guesses deep are few); where
the variant has fewer symbols than two guesses have places (``mm``: 6 colours, 8 places) the
classes save little and the lookaheads one guess deep cost more than they save. This times
each variant's ``total`` search both ways in this process (best of ``--repeats``, after a
warm-up search), and prints which ``python_levels`` picks: it should be the faster, or nearly.
"""

from __future__ import annotations

import argparse
import time

from bullscows.rules import Rules
from bullscows.search import engine
from bullscows.search.optimal import optimal_tree

#: Variants where two guesses can use every symbol (one level), then the others (two).
DEFAULT: tuple[str, ...] = ("p4c4r", "p5c4r", "mm", "p4c7r", "p5c5r", "p4c6n", "p4c7n")
DEFAULT += ("p3c6r", "p3c8r", "p3c10r", "p3c9n", "p3c10n", "p4c8n", "p4c9n", "p4c8r")


def timed(rules: Rules, levels: int, repeats: int) -> tuple[float, int]:
    """The best seconds of ``repeats`` searches with ``levels`` levels in Python, and the
    optimal total (the same either way)."""
    chosen = engine.python_levels
    engine.python_levels = lambda _: levels  # type: ignore[assignment]
    try:
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            total = optimal_tree(rules, "total").total
            best = min(best, time.perf_counter() - start)
    finally:
        engine.python_levels = chosen
    return best, total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", default=DEFAULT, help="rules to search")
    parser.add_argument("--repeats", type=int, default=3, metavar="N", help="searches each way")
    args = parser.parse_args(argv)
    optimal_tree(Rules.parse("p3c4n"), "total")  # the kernels loaded once, before the timing
    print("| variant | codes | one level | two levels | picked | total |")
    print("|---|---|---|---|---|---|")
    for spec in args.variants:
        rules = Rules.parse(spec)
        one, total = timed(rules, 1, args.repeats)
        two, same = timed(rules, 2, args.repeats)
        if same != total:
            raise SystemExit(f"{spec}: totals differ ({total} and {same}): a bug")
        picked = engine.python_levels(rules)
        print(f"| `{spec}` | {rules.size:,} | {one:.3f} s | {two:.3f} s | {picked} | {total} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
