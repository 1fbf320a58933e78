"""``bullscows tree``: write out a strategy's decision tree, or check a saved one."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from bullscows.cli.bounds import KINDS, print_bound
from bullscows.cli.common import (
    Choice,
    Command,
    Number,
    Whole,
    contradicted,
    executor_options,
    reply_style_option,
    searched_strategy_option,
    variant_options,
    writes,
)
from bullscows.cli.progress import (
    announce_search,
    counting,
    duration,
    log_every_option,
    say,
    searching,
    showing,
)
from bullscows.cli.tree_opening import interrupted, run_opening
from bullscows.errors import BullsCowsError
from bullscows.feedback import counted
from bullscows.outcomes import strategy_tree
from bullscows.readers import quote_path
from bullscows.rules import Rules
from bullscows.strategies import Strategy
from bullscows.strategies.optimal_strategy import OptimalSearch
from bullscows.strategy_spec import StrategySpec
from bullscows.tree import DecisionTree, TreeSummary, check_tree, load_tree, render_text
from bullscows.tree.irving import TREE_ENDINGS, save_tree, to_irving

if TYPE_CHECKING:  # the search loads numba: not for --help
    from bullscows.search.progress import Budget, Standing

#: A heuristic's tree expected to take at least this many seconds is announced first.
ANNOUNCE_SECONDS = 2.0
#: The exit codes of a search stopped by --time-limit or --budget: with the best tree it found
#: (not proven optimal), and before it found any.
STOPPED_WITH_TREE, STOPPED_WITHOUT_TREE = 3, 4


@click.command(cls=Command)
@variant_options
@searched_strategy_option
@click.option(
    "--format",
    "form",
    type=Choice(["summary", "text", "irving"]),
    default="summary",
    show_default=True,
    help="Print the tree's figures, the tree itself as indented text, or the tree in Irving "
    "notation (the text of the literature and of mastermind-strategy).",
)
@click.option(
    "--depth",
    type=Whole(min=1),
    metavar="N",
    help="With --format text: show only the first N guesses of every path.",
)
@reply_style_option("pair", when="with --format text")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the figures (or the check, or where a stopped search stood) as JSON.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),  # a folder, or a file not to be written: writes says
    callback=writes("the tree", *TREE_ENDINGS),
    metavar="FILE.json",
    help="Write the tree to FILE.json, gzip-compressed to FILE.json.gz, or in Irving notation "
    "to FILE.txt (play it with --strategy tree:FILE.json), in a folder that exists (checked "
    "before any search).",
)
@executor_options
@click.option(
    "--checkpoint",
    type=click.Path(path_type=Path),  # a folder: writes says
    callback=writes("the checkpoint", in_place=True),
    metavar="FILE",
    help="With an optimal strategy: keep the search's progress in FILE, in a folder that "
    "exists, as for --out; an interrupted search run again with the same FILE resumes where "
    "it stopped.",
)
@click.option(
    "--time-limit",
    type=Number(min=0, min_open=True),
    metavar="SECONDS",
    help="With an optimal strategy: stop the search after SECONDS and print the bounds it "
    "reached (the proven lower bound, the best tree found, the gap); --out then writes that "
    f"tree. Exit {STOPPED_WITH_TREE} when it stopped with a tree found (not proven optimal), "
    f"{STOPPED_WITHOUT_TREE} when it stopped before finding one, 0 when it finished.",
)
@click.option(
    "--budget",
    type=Whole(min=1),
    metavar="SETS",
    help="With an optimal strategy: stop the search once it has searched SETS sets (it looks "
    "as it goes, not only at its reports), as --time-limit (same exit codes).",
)
@click.option(
    "--bound",
    type=Choice(list(KINDS)),
    help="With --strategy optimal: print a proven lower bound on the lowest total instead of "
    "searching, with each first guess's: the root bound (the search's start), or the deep or "
    "deeper bound (one or two guesses deeper; --jobs N bounds parts on N threads).",
)
@click.option(
    "--opening",
    metavar="CODE|root-bound",
    help="With --strategy optimal: fix the first guess (CODE, or root-bound: the first guess "
    "of the lowest root bound) and in each of its parts the second guess of the root bound's "
    "order, and search every part two guesses deep: the lowest total of that opening, or "
    "under --time-limit a whole tree (the parts left get a heuristic's) with its bounds "
    f"(exit {STOPPED_WITH_TREE}).",
)
@click.option(
    "--check",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE.json",
    help="Check a saved tree (.json, .json.gz, or Irving notation in .txt, read for --rules when "
    "it does not name its variant) instead: exit 0 when it is valid, 1 with its problems "
    "otherwise.",
)
@click.option(
    "--compare",
    nargs=2,
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="A B",
    help="Compare two saved trees of one variant: figures, the first node where they differ, "
    "the secrets whose guess count changes.",
)
@log_every_option
@click.option("--quiet", "-q", is_flag=True, help="No announcement and no progress on stderr.")
def tree(
    rules: Rules,
    strategy: Strategy,
    form: str,
    depth: int | None,
    reply_style: str,
    as_json: bool,
    out: Path | None,
    jobs: int,
    scheduler: str | None,
    checkpoint: Path | None,
    time_limit: float | None,
    budget: int | None,
    bound: str | None,
    opening: str | None,
    check: Path | None,
    compare: tuple[Path, Path] | None,
    log_every: float,
    quiet: bool,
) -> None:
    """Build the decision tree of a deterministic strategy: its guess for every reply.

    \b
    bullscows tree --rules mm --strategy minimax
    bullscows tree --rules mm --out mm-minimax.json
    bullscows tree --check mm-minimax.json
    bullscows tree --rules mm --format text --depth 2
    bullscows tree --rules mm --format irving
    bullscows tree --rules mm --out mm-minimax.txt
    bullscows tree --rules mm --check mm-minimax.txt
    bullscows tree --rules mm --strategy optimal --out mm-optimal.json.gz
    bullscows tree --compare mm-minimax.json mm-optimal.json.gz
    bullscows tree --rules bc --strategy optimal --jobs 2 --checkpoint bc.ckpt --out bc.json
    bullscows tree --rules digits --strategy optimal --time-limit 600 --checkpoint d.ckpt
    bullscows tree --rules digits --strategy optimal --bound deep --jobs 2
    bullscows tree --rules bc5 --strategy optimal --opening root-bound --out bc5.json.gz
    bullscows solve --rules mm --strategy tree:mm-minimax.json

    An optimal strategy's tree is searched for (proven) here, showing progress, and kept in
    the cache so that solve and play use it at once; --jobs and --scheduler spread the search
    over threads of this process or a Dask cluster (same tree), --checkpoint makes it resumable;
    --time-limit and --budget stop it with its bounds (resume it with the same checkpoint;
    exit 3 with the best tree found, 4 with none yet, 0 when the search finished); Ctrl-C or
    SIGTERM (kill) stops it with its bounds too, its checkpoint kept (exit 130). A long build
    or search is announced first and shows its progress on a terminal, and a search a line of
    it every --log-every seconds in a log (--quiet: none of them).
    """
    if quiet:
        log_every = 0.0
    if check is not None or compare is not None:
        if out is not None or form != "summary" or depth is not None:
            raise click.UsageError(
                "--check and --compare read trees: give them without --out, --format, --depth"
            )
        if check is not None and compare is not None:
            raise click.UsageError("give --check or --compare, not both")
        if compare is not None:
            _compare(compare, rules, as_json)
        else:
            assert check is not None
            _check(check, rules, as_json)
        return
    if as_json and form != "summary":
        raise click.UsageError(f"give --json or --format {form}, not both")
    if out is not None and checkpoint is not None and out.resolve() == checkpoint.resolve():
        raise click.UsageError(  # a stopped search writes its tree found over its answers
            f"--out and --checkpoint name one file, {quote_path(out)}: the tree would be "
            "written over the search's answers; give each its own file"
        )
    if depth is not None and form != "text":
        raise click.UsageError("--depth goes with --format text")
    if not strategy.deterministic:
        raise click.UsageError(
            f"strategy {strategy.label!r} is random: it has no decision tree; "
            "choose a deterministic one (`bullscows strategies` lists them)"
        )
    searched = isinstance(strategy, OptimalSearch)
    if bound is not None and opening is not None:
        raise click.UsageError("give --bound or --opening, not both")
    if bound is not None:
        _bound(rules, strategy, bound, jobs, (out, form != "summary", as_json, scheduler,
               checkpoint, time_limit, budget), quiet)  # fmt: skip
        return
    limits = time_limit is not None or budget is not None
    if not searched and (jobs > 1 or scheduler is not None or checkpoint is not None or limits):
        raise click.UsageError(
            "--jobs, --scheduler, --checkpoint, --time-limit and --budget go with the optimal "
            "strategies (optimal, optimal-worst, ...), whose trees are searched for"
        )
    if jobs > 1 and scheduler is not None:
        raise click.UsageError("give --jobs or --scheduler, not both")
    if opening is not None:
        given = (time_limit, budget) if limits else None
        _opening(rules, strategy, opening, form, jobs, scheduler, checkpoint, given, out, as_json,
                 quiet, log_every)  # fmt: skip
        return
    if searched:  # a search shows its progress and can be interrupted
        from bullscows.search.progress import Budget, SearchInterrupted, Standing

        limit = Budget(time_limit, budget) if limits else None
        try:
            built = _search(rules, strategy, jobs, scheduler, checkpoint, limit, quiet, log_every)
        except KeyboardInterrupt as stop:  # under way, where it stood; then as any other
            if isinstance(stop, SearchInterrupted):
                _print_standing(rules, strategy, stop.standing, out, as_json)
            interrupted(checkpoint)
        if isinstance(built, Standing):
            _print_standing(rules, strategy, built, out, as_json)
            sys.exit(STOPPED_WITHOUT_TREE if built.tree is None else STOPPED_WITH_TREE)
    else:
        built = _build(rules, strategy, quiet, log_every)
    if out is not None:
        save_tree(built, out, built.stated)  # the figures its build or search counted
        click.echo(f"Tree written to {out} ({out.stat().st_size:,} bytes)", err=True)
    if form == "text":
        click.echo("\n".join(render_text(built, reply_style, depth)))
    elif form == "irving":
        click.echo(to_irving(built), nl=False)
    elif as_json:
        click.echo(json.dumps(_figures_json(built, _figures(built)), indent=2))
    else:
        _print_summary(built, _figures(built))


def _opening(
    rules: Rules, strategy: Strategy, opening: str, form: str, jobs: int, scheduler: str | None,
    checkpoint: Path | None, limits: tuple[float | None, int | None] | None, out: Path | None,
    as_json: bool, quiet: bool, log_every: float,
) -> None:  # fmt: skip
    """``--opening``: checked here, run by ``cli.tree_opening`` (a line of its progress every
    ``log_every`` seconds in a log); exits ``STOPPED_WITH_TREE`` when a limit stopped it
    before every part was solved."""
    if strategy.spec != StrategySpec("optimal"):
        raise click.UsageError(
            f"--opening goes with --strategy optimal (the lowest total), not {strategy.label!r}"
        )
    if form != "summary":
        raise click.UsageError("--opening prints its figures: give it without --format")
    from bullscows.search.progress import Budget

    budget = None if limits is None else Budget(*limits)
    if run_opening(
        rules, opening, jobs, scheduler, checkpoint, budget, out, as_json, quiet, log_every
    ):
        sys.exit(STOPPED_WITH_TREE)  # a whole tree, its parts not all solved


def _search(
    rules: Rules,
    strategy: Strategy,
    jobs: int,
    scheduler: str | None,
    checkpoint: Path | None,
    budget: Budget | None,
    quiet: bool,
    log_every: float,
) -> DecisionTree | Standing:
    """Search for an optimal tree, showing progress on stderr (on a terminal; else a line
    every ``log_every`` seconds); keep it in the user's cache.
    A search stopped by its ``budget`` gives where it stood; one stopped by Ctrl-C or
    SIGTERM raises ``SearchInterrupted`` once under way, else ``KeyboardInterrupt``."""
    from bullscows.executors import make_executor  # threads or a cluster: for searches only
    from bullscows.search.optimal import MAX_SEARCH_CODES, beyond_limit, check_searchable
    from bullscows.search.progress import SearchStopped

    plain = strategy.spec == StrategySpec("optimal")  # the lowest total, with no options
    if budget is not None and rules.guess_rules.size > MAX_SEARCH_CODES and plain:
        return beyond_limit(rules)  # the bound the search would start from
    check_searchable(rules)  # before the announcement
    until = "" if budget is None or budget.seconds is None else f", at most {budget.seconds:g} s"
    resume = "" if checkpoint is None else f"; run it again to resume from {checkpoint}"
    label = f"{strategy.label} on {rules.spec}"
    try:
        # The workers first: a scheduler that cannot be used is refused before the announcement.
        with make_executor(None, jobs, scheduler, threads=True) as pool:
            if not quiet:  # searched, even when shipped or cached
                announce_search(rules, strategy, until, resume)
            with searching(showing(quiet), label, log_every) as show:
                watch = show if budget is None else budget.watch(show)
                built = strategy_tree(rules, strategy, watch, pool, checkpoint)
    except SearchStopped as stopped:
        return stopped.standing
    return built


def _bound(
    rules: Rules,
    strategy: Strategy,
    kind: str,
    jobs: int,
    others: tuple[object, ...],
    quiet: bool,
) -> None:
    """``--bound``: the root or deep bound of the lowest total, alone."""
    if strategy.spec != StrategySpec("optimal"):
        raise click.UsageError(
            f"--bound goes with --strategy optimal (the lowest total), not {strategy.label!r}"
        )
    if any(other not in (None, False) for other in others):
        raise click.UsageError(
            "--bound prints a bound, not a tree: give it without --out, --format, --json, "
            "--scheduler, --checkpoint, --time-limit and --budget"
        )
    print_bound(rules, kind, jobs, quiet)


def _build(rules: Rules, strategy: Strategy, quiet: bool, log_every: float) -> DecisionTree:
    """A heuristic's tree, announced first when it takes long, with a bar of the codes placed
    in it on a terminal (in a log, a line every ``log_every`` seconds)."""
    from bullscows._kernels.tree_build import reporting
    from bullscows.estimates import expected_seconds

    expected = expected_seconds(rules, strategy, rules.size)
    if not quiet and expected is not None and expected >= ANNOUNCE_SECONDS:
        say(
            f"Building the {strategy.label} tree of {rules.spec} "
            f"({counted(rules.size, 'secret', True)}): "
            f"about {duration(expected)}."
        )
    label = f"{strategy.label} tree"
    with (
        counting(showing(quiet), log_every) as update,
        reporting(lambda done, n: update(label, done, n)),
    ):
        return strategy_tree(rules, strategy)


def _print_standing(
    rules: Rules, strategy: Strategy, standing: Standing, out: Path | None, as_json: bool
) -> None:
    """What a search stopped by its budget (or interrupted) proved and found (``as_json``:
    as JSON); ``out`` gets the tree found."""
    if as_json:
        click.echo(json.dumps(_standing_json(rules, strategy, standing), indent=2))
    else:
        _print_bounds(rules, strategy, standing)
    if out is not None and standing.tree is not None:
        from bullscows.search.found import found_tree  # a search ran: its modules are loaded

        found = found_tree(rules, strategy.label, standing.tree)
        save_tree(found, out)
        click.echo(f"Tree found written to {out} ({out.stat().st_size:,} bytes)", err=True)
    elif out is not None:
        click.echo(f"No tree found yet: nothing written to {out}", err=True)


def _print_bounds(rules: Rules, strategy: Strategy, standing: Standing) -> None:
    costs = standing.costs
    click.echo(f"{rules.spec}: {rules.describe()} ({counted(rules.size, 'secret', True)})")
    click.echo(
        f"  {strategy.label} stopped at {standing.reason}, after {standing.nodes:,} sets "
        f"in {standing.seconds:.0f} s"
    )
    rows = [("lower bound", "none yet"), ("upper bound", "none yet")]
    if standing.lower is not None:
        rows[0] = ("lower bound", f"{costs.text(standing.lower)} (proven: no tree costs less)")
    if standing.upper is not None:
        rows[1] = ("upper bound", f"{costs.text(standing.upper)} (the best tree found)")
    if standing.lower is not None and standing.upper is not None:
        rows.append(("gap", costs.gap(standing.lower, standing.upper)))
    if standing.kept:
        from bullscows.search.kept import kept_words  # a search ran: its modules are loaded

        rows.append(("kept", kept_words(standing.kept)))
    for name, value in rows:
        click.echo(f"  {name:<13} {value}")


def _standing_json(rules: Rules, strategy: Strategy, standing: Standing) -> dict[str, object]:
    """Where a stopped search stood, for a program: each bound as the cost's text and its
    parts (``None`` before the search had one)."""
    costs = standing.costs

    def bound(cost: int | None) -> dict[str, object] | None:
        if cost is None:
            return None
        at_cap, total = costs.split(cost)
        parts = {"at_cap": at_cap, "cap": costs.cap} if costs.penalty else {"cap": costs.cap}
        return {"text": costs.text(cost), "total": total, **parts}

    lower, upper = standing.lower, standing.upper
    return {
        "rules": rules.spec,
        "name": strategy.label,
        "stopped": standing.reason,
        "sets": standing.nodes,
        "seconds": round(standing.seconds, 3),
        "lower": bound(lower),
        "upper": bound(upper),
        "gap": None if lower is None or upper is None else costs.gap(lower, upper),
        "tree_found": standing.tree is not None,
        "kept": standing.kept,
    }


def _figures(built: DecisionTree) -> TreeSummary:
    """The tree's figures: those its build or its search counted while it played every secret
    down it (``stated``), else every secret played down it now."""
    return built.summary() if built.stated is None else built.stated


def _figures_json(built: DecisionTree, s: TreeSummary) -> dict[str, object]:
    return {
        "rules": built.rules.spec,
        "name": built.strategy,
        "objective": built.objective,
        **s.to_json(),
    }


def _print_summary(built: DecisionTree, s: TreeSummary) -> None:
    rules = built.rules
    click.echo(f"{rules.spec}: {rules.describe()} ({counted(s.secrets, 'secret', True)})")
    spread = " ".join(f"{k}:{v}" for k, v in sorted(s.distribution.items()))
    rows = [
        ("strategy", built.strategy),
        ("total", f"{s.total:,}"),
        ("average", f"{s.average:.3f}"),
        ("worst", f"{s.worst:,}"),
        ("at worst", f"{s.at_worst:,}"),
        ("distribution", spread),
        ("nodes", f"{s.nodes:,}"),
    ]
    for name, value in rows:
        click.echo(f"  {name:<13} {value}")


def _compare(paths: tuple[Path, Path], rules: Rules, as_json: bool) -> None:
    """Compare two tree files side by side."""
    from bullscows.tree.compare import compare_trees  # for --compare only

    a, b = (_read_tree(path, rules) for path in paths)
    result = compare_trees(a, b)
    if as_json:
        data = {"a": str(paths[0]), "b": str(paths[1]), "rules": a.rules.spec}
        click.echo(json.dumps({**data, **result.to_json()}, indent=2))
        return
    click.echo(
        f"{a.rules.spec}: {a.rules.describe()} ({counted(result.a.secrets, 'secret', True)})"
    )
    rows = [("", "A", "B"), ("file", str(paths[0]), str(paths[1]))]
    rows.append(("strategy", a.strategy, b.strategy))
    for name, key in (("total", "total"), ("worst", "worst"), ("at worst", "at_worst")):
        rows.append((name, f"{getattr(result.a, key):,}", f"{getattr(result.b, key):,}"))
    rows.append(("average", f"{result.a.average:.3f}", f"{result.b.average:.3f}"))
    rows.append(("nodes", f"{result.a.nodes:,}", f"{result.b.nodes:,}"))
    spreads = [
        " ".join(f"{k}:{v}" for k, v in sorted(s.distribution.items()))
        for s in (result.a, result.b)
    ]
    rows.append(("distribution", spreads[0], spreads[1]))
    width = max(len(row[1]) for row in rows)
    for name, x, y in rows:
        click.echo(f"  {name:<13} {x:<{width}}  {y}".rstrip())
    click.echo(f"First difference: {result.first_difference or 'none, the trees are the same'}")
    fewer = sum(1 for _, n, m in result.changed if m < n)
    click.echo(
        f"Secrets whose guess count changes: {len(result.changed):,} ({fewer:,} need fewer "
        f"guesses in B, {len(result.changed) - fewer:,} more)"
    )
    for code, n, m in result.changed[:SHOWN_CHANGES]:
        click.echo(f"  {code}  {n} -> {m}")
    if len(result.changed) > SHOWN_CHANGES:
        click.echo(f"  ... and {len(result.changed) - SHOWN_CHANGES:,} more (--json lists all)")


#: ``--compare`` lists at most this many changed secrets (``--json`` all of them).
SHOWN_CHANGES = 10


def _read_tree(path: Path, rules: Rules) -> DecisionTree:
    """The tree file at ``path`` (``rules``: its variant if the file does not say); a
    variant given on the command line that the file contradicts is a usage error, not a
    check of another variant's tree passed over in silence."""
    saved = load_tree(path, rules)
    contradicted(f"tree file {quote_path(path)}", saved.rules, rules)
    return saved


def _check(path: Path, rules: Rules, as_json: bool) -> None:
    """Check the tree file at ``path`` (in Irving notation, for ``rules`` unless it names its
    variant); exit 1 when it is not valid."""
    try:
        saved = _read_tree(path, rules)
    except BullsCowsError as error:  # unreadable: one line, which quotes the path
        if not as_json:
            raise
        problems, summary, about = [str(error)], None, None
    else:
        report = check_tree(saved)
        problems, summary = report.problems, report.summary
        about = f"{saved.strategy} on {saved.rules.spec}"
    if as_json:
        click.echo(json.dumps(_report_json(path, problems, summary), indent=2))
    elif not problems and summary is not None:
        click.echo(
            f"{path}: a valid tree of {about}: {summary.secrets:,} secrets, total "
            f"{summary.total:,}, worst {summary.worst}, {summary.nodes:,} nodes"
        )
    else:
        click.echo(f"{path}: not a valid tree:", err=True)
        for problem in problems:
            click.echo(f"  {problem}", err=True)
    if problems:
        sys.exit(1)


def _report_json(path: Path, problems: list[str], summary: TreeSummary | None) -> dict[str, object]:
    return {
        "file": str(path),
        "valid": not problems,
        "problems": problems,
        "summary": None if summary is None else summary.to_json(),
    }
