"""The card frontier: lines on a card against its exact average and worst game (docs/card.md).

Run: nice .venv/bin/python benchmarks/card_frontier.py [--plot docs/card-frontier.svg] [--ship]
[--any]

For ``bc`` and ``mm``, and the ``first`` rule, the best book found of each size from 0 to 20
lines (``BookSearch``: a search heuristic over books; every figure is exact for the card found),
beside the optimum (the shipped optimal trees) and the plain rule. ``--ship`` writes the best
card of each size to ``src/bullscows/data/cards/SPEC.json`` (what ``card`` plays).
``--any`` adds the ``any`` rule's frontier for bc and mm (its exact expectation over a uniform
choice, sets kept up to symmetry; minutes more); a small variant's is printed always. Last it
prints the table docs/card.md quotes, the time taken and the peak memory.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from pathlib import Path

from bullscows.outcomes import guess_counts
from bullscows.rules import Rules
from bullscows.strategies import get_strategy
from bullscows.strategies.card import Card, CardFigures, frontier_text
from bullscows.strategies.card_exact import RuleCosts
from bullscows.strategies.card_strategy import search_cards

LINES = 20
#: Guesses tried per position at the first, second and third guess of the book.
WIDTHS: dict[str, tuple[int | None, ...]] = {"bc": (3, 12, 6), "mm": (5, 16, 6)}
SMALL: tuple[str, tuple[int | None, ...]] = ("p3c5n", (None, None))
#: A size's best card, its exact figures and the codes read per rule guess.
Row = tuple[Card, CardFigures, float | None]
SHIP = Path(__file__).resolve().parents[1] / "src" / "bullscows" / "data" / "cards"


def optimum(rules: Rules) -> tuple[float, int]:
    """The optimal average (shipped optimal tree) and the lowest worst case (optimal-worst)."""
    average = guess_counts(rules, get_strategy("optimal")).mean()
    worst = guess_counts(rules, get_strategy("optimal-worst")).max()
    return float(average), int(worst)


def frontier(rules: Rules, rule: str, widths: tuple[int | None, ...]) -> list[Row]:
    """Each size's best card with its exact figures and the codes read per rule guess."""
    costs = RuleCosts(rules, rule)  # one for the search and the figures: each set once
    return [
        (card, card.figures(costs), card.checks())
        for card in search_cards(rules, rule, LINES, widths, costs)
    ]


def show(spec: str, rows: list[Row], best: tuple[float, int]) -> None:
    average, worst = best
    print(f"\n{spec}: optimum {average:.3f} average, {worst} worst; 4% over: {average * 1.04:.3f}")
    print(f"{'size':>4} {'lines':>5} {'average':>8} {'over':>6} {'worst':>5} {'reads':>6}  first")
    for size, (card, figures, checks) in enumerate(rows):
        over = figures.average / average - 1
        first = card.describe()[0] if card.book else "-"
        reads = "-" if checks is None else f"{checks:.1f}"
        print(
            f"{size:>4} {card.lines:>5} {figures.average:>8.4f} {over:>6.1%} "
            f"{figures.worst:>5} {reads:>6}  {first}"
        )


#: Per variant: each rule's frontier, and the optimum.
Results = dict[str, tuple[dict[str, list[Row]], tuple[float, int]]]
#: The card sizes of the summary table (docs/card.md quotes it).
TABLE_SIZES = (0, 1, 2, 5, 8, 11, 14, 16, 20)


def table(results: Results) -> list[str]:
    """Every variant's and rule's frontier side by side at ``TABLE_SIZES``, in Markdown."""
    columns = [(spec, rule) for spec, (by_rule, _) in results.items() for rule in by_rule]
    lines = [
        "| lines | " + " | ".join(f"{spec} `{rule}` | worst" for spec, rule in columns) + " |",
        "|------:|" + "-------:|---:|" * len(columns),
    ]
    for size in TABLE_SIZES:
        label = "0 (rule alone)" if size == 0 else f"{size:<5}"
        cells = []
        for spec, rule in columns:
            figures = results[spec][0][rule][size][1]
            cells.append(f"{figures.average:.4f} | {figures.worst}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    optimum = [f"{results[spec][1][0]:.4f} | {results[spec][1][1]}" for spec, _ in columns]
    lines.append("| optimum | " + " | ".join(optimum) + " |")
    return lines


def plot(results: Results, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"  # text as text: a small file
    matplotlib.rcParams["svg.hashsalt"] = "card-frontier"  # the same ids every run
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, len(results), figsize=(4.2 * len(results), 3.4))
    for axis, (spec, (by_rule, (average, _))) in zip(axes, results.items(), strict=True):
        for rule, rows in by_rule.items():
            sizes = list(range(len(rows)))
            averages = [figures.average for _, figures, _ in rows]
            axis.plot(sizes, averages, "o-" if rule == "first" else "s--", ms=3,
                      label=f"card ({rule} rule)")  # fmt: skip
            for size, (_, figures, _) in enumerate(rows):
                axis.annotate(str(figures.worst), (size, averages[size]), fontsize=6,
                              xytext=(0, 4), textcoords="offset points", ha="center")  # fmt: skip
        axis.axhline(average, color="k", lw=0.8, label=f"optimum {average:.3f}")
        axis.axhline(average * 1.04, color="k", ls="--", lw=0.8, label="optimum + 4%")
        axis.set_title(f"{spec}: average guesses (worst case above each point)", fontsize=8)
        axis.set_xlabel("lines on the card")
        axis.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(path, metadata={"Date": None} if path.suffix == ".svg" else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plot", type=Path, help="write the frontier plot (.svg or .png)")
    parser.add_argument("--ship", action="store_true", help="write the best cards to the package")
    parser.add_argument("--any", action="store_true", help="the any rule's frontier too")
    args = parser.parse_args()
    started = time.perf_counter()
    results: Results = {}
    for spec, widths in WIDTHS.items():
        rules = Rules.parse(spec)
        best = optimum(rules)
        by_rule: dict[str, list[Row]] = {}
        for rule in ("first", "any") if args.any else ("first",):
            start = time.perf_counter()
            rows = by_rule[rule] = frontier(rules, rule, widths)
            took = time.perf_counter() - start
            print(f"\n{spec}, {rule} rule: search widths {widths}, {took:.0f} s")
            show(spec, rows, best)
        results[spec] = (by_rule, best)
        rows = by_rule["first"]
        if args.ship:
            SHIP.mkdir(parents=True, exist_ok=True)
            cards = [card for card, _, _ in rows]
            (SHIP / f"{spec}.json").write_text(frontier_text(cards), encoding="utf-8")
    spec, widths = SMALL
    rules = Rules.parse(spec)
    for rule in ("first", "any"):
        rows = frontier(rules, rule, widths)
        show(f"{spec} ({rule} rule, every guess tried)", rows[:4], optimum(rules))
    print("\nThe frontier (docs/card.md):\n")
    print("\n".join(table(results)))
    if args.plot:
        plot(results, args.plot)
        print(f"\nplot: {args.plot}")
    took = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(f"{took:.0f} s in all, {os.cpu_count()} cores; peak memory {peak:.0f} MiB")


if __name__ == "__main__":
    main()
