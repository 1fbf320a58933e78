"""``bullscows bench``: how many guesses each strategy needs, over every secret of a variant."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from bullscows.atomic import check_folder
from bullscows.bench import BenchReport, distribution_text, quick_strategies, run_bench
from bullscows.charts import check_plot_path, plot_report
from bullscows.cli import streams
from bullscows.cli.common import (
    Command,
    Whole,
    executor_options,
    make_strategy,
    max_depth_option,
    seed_option,
    variant_options,
)
from bullscows.cli.progress import counting, duration, log_every_option, search_first, showing
from bullscows.errors import BullsCowsError, interrupted
from bullscows.estimates import expected_seconds
from bullscows.executors import make_executor
from bullscows.feedback import counted
from bullscows.outcomes import DEFAULT_MAX_GUESSES
from bullscows.rules import Rules
from bullscows.strategies import Strategy
from bullscows.strategy_spec import CHOICES


def _strategy_names(
    ctx: click.Context, param: click.Parameter, names: tuple[str, ...]
) -> list[str] | None:
    """The names asked for, ``all`` standing for every registered strategy (each other name
    is made into its strategy once, by the command); none asked for is ``None``: the default,
    every strategy that plays the variant without searching first."""
    from bullscows.strategies import STRATEGIES

    if not names:
        return None
    if "all" in names:
        return list(STRATEGIES)
    return list(dict.fromkeys(names))


def _plot_path(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """Checked before the run, so that a bad file name does not waste a long benchmark."""
    if value is None:
        return None
    try:
        path = check_plot_path(value)
    except BullsCowsError as error:
        raise click.BadParameter(str(error)) from None
    return check_folder(path, "the chart")  # as --out is: one line, exit 1


@click.command(cls=Command)
@variant_options
@click.option(
    "--strategy",
    "strategy_names",
    multiple=True,
    metavar="NAME",
    callback=_strategy_names,
    help=f"A strategy to measure (repeatable): {CHOICES}; or 'all'. Default: every strategy "
    "that needs no search for its tree first (a search may take hours).",
)
@click.option(
    "--consistent-only", is_flag=True, help="Heuristics guess only codes that fit every reply."
)
@max_depth_option
@click.option("--sample", type=Whole(min=1), metavar="N", help="Play N secrets drawn at random.")
@seed_option("Seed for the sample and for random strategies' games")
@click.option(
    "--max-guesses",
    type=Whole(min=1),
    default=DEFAULT_MAX_GUESSES,
    show_default=True,
    help="A game of a random strategy is given up (unsolved) after this many guesses.",
)
@executor_options
@log_every_option
@click.option("--quiet", "-q", is_flag=True, help="No announcement and no progress on stderr.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print the figures as CSV.")
@click.option(
    "--plot",
    metavar="FILE",
    callback=_plot_path,
    help="Also draw the distributions to FILE (.png or .svg), in a folder that exists "
    "(both checked before the run).",
)
def bench(
    rules: Rules,
    strategy_names: list[str] | None,
    consistent_only: bool,
    max_depth: int | None,
    sample: int | None,
    seed: int | None,
    max_guesses: int,
    jobs: int,
    scheduler: str | None,
    log_every: float,
    quiet: bool,
    as_json: bool,
    as_csv: bool,
    plot: Path | None,
) -> None:
    """Measure strategies: total, average and worst number of guesses over every secret.

    \b
    bullscows bench --rules mm --strategy minimax --strategy simple
    bullscows bench --rules bc --jobs 4 --plot bc.png
    bullscows bench --rules bc5 --sample 500 --seed 1 --scheduler tcp://host:8786
    bullscows bench --rules mm --strategy optimal --strategy optimal-worst --max-depth 5
    """
    if as_json and as_csv:
        raise click.UsageError("give --json or --csv, not both")
    if jobs > 1 and scheduler is not None:
        raise click.UsageError("give --jobs or --scheduler, not both")
    err = streams.console(stderr=True)
    secrets = rules.size if sample is None else min(sample, rules.size)
    if strategy_names is None:
        strategies, left_out = quick_strategies(rules, secrets)
        if consistent_only or max_depth is not None:
            names = [s.name for s in strategies]
            strategies = [make_strategy(n, consistent_only, max_depth, "or all") for n in names]
    else:
        # Each strategy is made once, here: --max-depth only with those that take a depth cap.
        strategies = [
            make_strategy(name, consistent_only, max_depth, "or all") for name in strategy_names
        ]
        left_out = []
    if quiet:
        log_every = 0.0
    try:
        # The cluster first: a scheduler that cannot be used is refused before the announcement.
        with make_executor(None, 1, scheduler) as cluster:
            if not quiet:
                _announce(err, rules, strategies, left_out, secrets)
            # _announce said what will run
            search_first(rules, strategies, quiet, announce=False, log_every=log_every)
            with counting(showing(quiet), log_every) as progress:
                report = run_bench(
                    rules, strategies, sample=sample, seed=seed, max_guesses=max_guesses,
                    executor=cluster, jobs=jobs, progress=progress,
                )  # fmt: skip
    except KeyboardInterrupt:
        sys.exit(interrupted("Interrupted: the bench stopped before its figures were complete."))
    if not report.results:
        reasons = "; ".join(f"{s.name}: {s.reason}" for s in report.skipped)
        raise BullsCowsError(f"nothing was played on {rules.spec}: {reasons}")
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2))
    elif as_csv:
        click.echo(report.to_csv(), nl=False)
    else:
        _print_table(report)
    for skipped in report.skipped:
        err.print(f"{skipped.name}: not played: {skipped.reason}")
    if plot is not None:
        plot_report(report, plot)
        click.echo(f"Chart written to {plot}", err=True)


def _announce(
    err: Console,
    rules: Rules,
    strategies: list[Strategy],
    left_out: list[tuple[Strategy, str]],
    secrets: int,
) -> None:
    """What will run and about how long it should take, on stderr, before it starts."""
    everyone = secrets == rules.size
    which = counted(secrets, "secret" if everyone else "random secret", grouped=True)
    estimates = [expected_seconds(rules, s, secrets) for s in strategies]
    known = sum(e for e in estimates if e is not None)
    searching = [s.label for s, e in zip(strategies, estimates, strict=True) if e is None]
    names = ", ".join(s.label for s in strategies)
    err.print(
        f"Playing {len(strategies)} {'strategy' if len(strategies) == 1 else 'strategies'} "
        f"over {'all ' if everyone else ''}{which} of {rules.spec} ({names}): about "
        f"{duration(known)}" + (" after the searches" if searching else "") + "."
    )
    if searching:
        err.print(
            f"{', '.join(searching)}: no tree shipped or cached for {rules.spec}: searched first, "
            "which may take from seconds to hours (Ctrl-C stops)."
        )
    if left_out:
        err.print(
            f"Left out: {', '.join(f'{s.label} ({why})' for s, why in left_out)}: name one "
            "with --strategy, or give --strategy all."
        )


def _print_table(report: BenchReport) -> None:
    console = streams.console()
    rules = report.rules
    secrets = report.results[0].secrets if report.results else rules.size
    which = "a sample of" if report.sample is not None else "all"
    seed = "" if report.seed is None else f", seed {report.seed}"
    title = f"{rules.spec}: {rules.describe()} ({which} {counted(secrets, 'secret', True)}{seed})"
    table = Table(title=title, caption="distribution: guesses:secrets", box=None,
                  pad_edge=False, header_style="bold underline")  # fmt: skip
    unsolved = any(r.unsolved for r in report.results)
    # In a narrow terminal the headers, names and distributions wrap at spaces.
    words = [len(word) for r in report.results for word in r.name.split()]
    table.add_column("strategy", min_width=max(words, default=8))
    for name in ("total", "average", "worst", "at worst"):
        table.add_column(name, justify="right")
    table.add_column("distribution", min_width=12)
    if unsolved:
        table.add_column("unsolved", justify="right")
    table.add_column("seconds", justify="right")
    for r in report.results:
        average = "-" if r.average is None else f"{r.average:.3f}"
        row = [
            r.name,
            f"{r.total:,}",
            average,
            f"{r.worst:,}",
            f"{r.at_worst:,}",
            distribution_text(r),
        ]
        table.add_row(*row, *([f"{r.unsolved:,}"] if unsolved else []), f"{r.seconds:.2f}")
    if report.results:
        wide = console.options.update_width(10_000)
        if console.measure(table, options=wide).minimum > console.width:
            table.collapse_padding = True  # one space between columns rather than cropping
        console.print(table)
