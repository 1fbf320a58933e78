"""Charts of benchmark results: the distributions of several strategies side by side.

>>> chart_groups(4)
[(1, 1), (2, 2), (3, 3), (4, 4)]
"""

from __future__ import annotations

import io
import itertools
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from bullscows.atomic import write_file
from bullscows.errors import BullsCowsError
from bullscows.readers import quote_path

if TYPE_CHECKING:
    from bullscows.bench import BenchReport

#: Plot formats, by file extension.
PLOT_FORMATS = (".png", ".svg")
#: The chart has a group of bars per guess count up to the worst case of the strategies whose
#: worst case is at most ``SHORT_TAIL`` (``EXACT_UP_TO`` if there are none)...
SHORT_TAIL = 24
EXACT_UP_TO = 10
#: ... and past it, this many groups of geometrically growing ranges.
BINS_PAST = 14
#: Up to this many bar widths (a group's bars and a gap, times the groups), bars show counts.
LABELLED_SLOTS = 60


def check_plot_path(path: str | Path) -> Path:
    """``path`` if its extension names a format the chart can be drawn in."""
    path = Path(path)
    if path.suffix.lower() not in PLOT_FORMATS:
        kind = f"a {path.suffix} file" if path.suffix else "a file without an extension"
        raise BullsCowsError(
            f"plot file {quote_path(path)}: cannot draw {kind}; "
            f"name it with {' or '.join(PLOT_FORMATS)}"
        )
    return path


def chart_groups(worst: int, exact: int = EXACT_UP_TO) -> list[tuple[int, int]]:
    """The x-axis groups ``(first, last)`` for guess counts up to ``worst`` (see ``plot_report``):
    one per guess count up to ``exact``, then ``BINS_PAST`` geometrically growing ranges.

    >>> chart_groups(4)
    [(1, 1), (2, 2), (3, 3), (4, 4)]
    >>> chart_groups(100, 9)[8:12]
    [(9, 9), (10, 11), (12, 13), (14, 15)]
    """
    single = [(g, g) for g in range(1, min(worst, exact) + 1)]
    if worst <= exact:
        return single
    edges = np.geomspace(exact + 1, worst + 1, BINS_PAST + 1)
    bounds = sorted(set(edges.round().astype(int).tolist()) | {exact + 1, worst + 1})
    return single + [(a, b - 1) for a, b in itertools.pairwise(bounds)]


def plot_report(report: BenchReport, path: str | Path) -> None:
    """Draw ``report``'s distributions side by side as grouped bars (PNG or SVG, by extension).

    Each guess count up to the worst case of the short-tailed strategies (those that never
    need more than ``SHORT_TAIL`` guesses) has its own group of bars. Past it (a random
    strategy's tail may reach thousands of guesses) the groups are ranges growing
    geometrically, ``BINS_PAST`` of them in all (``chart_groups``), so the chart stays readable
    whatever the tail. Games that hit the guess cap get a last group, ``unsolved``.
    """
    path = check_plot_path(path)
    # The object-oriented API draws without pyplot, so no global backend is chosen.
    from matplotlib import colormaps
    from matplotlib.figure import Figure

    if not report.results:
        raise BullsCowsError(f"nothing to plot: no strategy could play {report.rules.spec}")
    # Every guess count of the short-tailed strategies gets its own group.
    exact = max((r.worst for r in report.results if r.worst <= SHORT_TAIL), default=EXACT_UP_TO)
    groups = chart_groups(max(r.worst for r in report.results), exact)
    labels = [str(a) if a == b else f"{a}-{b}" for a, b in groups]
    heights = [[sum(r.distribution.get(g, 0) for g in range(a, b + 1)) for a, b in groups]
               for r in report.results]  # fmt: skip
    if any(r.unsolved for r in report.results):
        labels.append(f"unsolved\n(> {report.max_guesses:,})")
        for row, r in zip(heights, report.results, strict=True):
            row.append(r.unsolved)
    n = len(report.results)
    width = 0.8 / n
    slots = len(labels) * (n + 1)  # a bar's width each, with a gap between groups
    wide = min(18.0, max(9.0, 4.5 + 0.22 * slots))
    figure = Figure(figsize=(wide, 6.0), layout="constrained")
    axes = figure.add_subplot()
    palette = colormaps["tab10" if n <= 10 else "tab20"]
    x = np.arange(len(labels))
    for i, (row, r) in enumerate(zip(heights, report.results, strict=True)):
        average = "-" if r.average is None else f"{r.average:.3f}"
        offset = (i - (n - 1) / 2) * width
        bars = axes.bar(x + offset, row, width, color=palette(i % palette.N),
                        label=f"{r.name} (average {average})")  # fmt: skip
        if slots <= LABELLED_SLOTS:  # counts on the bars, so that 1 secret shows
            axes.bar_label(bars, [f"{h:,}" if h else "" for h in row], fontsize=7)
    ranged = groups[-1][0] != groups[-1][1]
    axes.set_xticks(x, labels, rotation=45 if ranged else 0, ha="right" if ranged else "center")
    axes.set_xlabel("guesses needed" + (" (ranges grow geometrically)" if ranged else ""))
    axes.set_ylabel("number of secrets")
    secrets = report.results[0].secrets
    which = f"a sample of {secrets:,}" if report.sample is not None else f"all {secrets:,}"
    axes.set_title(f"{report.rules.spec}: {report.rules.describe()} ({which} secrets)")
    figure.legend(loc="outside right upper")  # beside the bars, never over them
    axes.grid(axis="y", alpha=0.3)
    axes.set_axisbelow(True)
    drawn = io.BytesIO()
    figure.savefig(drawn, format=path.suffix.lower()[1:])
    # Whole or not at all: a chart that was there stays if this one cannot be written.
    write_file(path, drawn.getvalue(), "the chart")
