"""Compare strategies in the browser: ``bench`` on a small variant, its table, the chart of
the distributions as SVG, and the figures as JSON or CSV.

Reports are kept (least recently used dropped first), so the page, its chart and its downloads
run the bench once.

>>> report = bench_report("p3c4n", ["minimax", "simple"], seed=1)
>>> [(r.name, r.total) for r in report.results]
[('minimax', 72), ('simple', 74)]
>>> chart_svg(report).startswith("<?xml")
True
"""

from __future__ import annotations

import tempfile
import threading
from functools import partial
from pathlib import Path

from bullscows.bench import BenchReport, run_bench
from bullscows.caching import Kept
from bullscows.charts import plot_report
from bullscows.errors import BullsCowsError
from bullscows.rules import Rules
from bullscows.seeding import check_seed
from bullscows.web.compute import INLINE, Client, Pool
from bullscows.web.games import check_size, strategy_for

#: The bench plays every secret of variants of at most this many codes.
MAX_BENCH_CODES = 5_040
#: Strategies compared at once, at most.
MAX_STRATEGIES = 12
#: A random strategy's game is given up after this many guesses (the terminal's cap is larger).
MAX_GUESSES = 20_000
KEPT = 16
#: The strategies the form ticks at first.
DEFAULT = ("simple", "minimax", "expected-size", "entropy", "most-parts")

_reports: Kept[tuple[str, tuple[str, ...], int], BenchReport] = Kept(KEPT)
_charts: dict[int, str] = {}  # by the id of a report kept
_lock = threading.Lock()


def bench_report(spec: str, names: list[str], seed: int = 1, pool: Pool | None = None,
                 client: Client | None = None) -> BenchReport:  # fmt: skip
    """Every secret of the variant played by each named strategy (a random one's games seeded
    from ``seed``), in ``pool`` when large; a variant too large, or a strategy that cannot play
    it here, is refused."""
    rules = check_size(Rules.parse(spec.strip()[:200]), MAX_BENCH_CODES,
                       "the bench here plays variants")  # fmt: skip
    chosen = tuple(dict.fromkeys(name.strip() for name in names if name.strip()))
    if not chosen:
        raise BullsCowsError("choose at least one strategy to compare")
    if len(chosen) > MAX_STRATEGIES:
        raise BullsCowsError(f"{len(chosen)} strategies: compare at most {MAX_STRATEGIES}")
    check_seed(seed)
    strategies = [strategy_for(name, rules) for name in chosen]
    key = (rules.spec, chosen, seed)
    kept = _reports.get(key)
    if kept is not None:
        return kept
    work = rules.size * rules.guess_rules.size * len(strategies)
    command = f"bullscows bench --rules {rules.spec} " + " ".join(f"--strategy {n}" for n in chosen)
    play = partial(run_bench, seed=seed, max_guesses=MAX_GUESSES)
    report = (pool or INLINE).call(client, work, play, rules, strategies, command=command)
    dropped = _reports.put(key, report)
    with _lock:
        for old in dropped:
            _charts.pop(id(old), None)
    return report


def chart_svg(report: BenchReport) -> str:
    """The chart of ``report``'s distributions, as SVG text (drawn once per report)."""
    with _lock:
        if id(report) in _charts:
            return _charts[id(report)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "chart.svg"
        plot_report(report, path)
        svg = path.read_text(encoding="utf-8")
    with _lock:
        _charts[id(report)] = svg
    return svg
