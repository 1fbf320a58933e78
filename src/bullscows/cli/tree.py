"""``bullscows tree``: write out a strategy's decision tree, or check a saved one."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from bullscows.cli.common import reply_style_option, strategy_option, variant_options
from bullscows.errors import BullsCowsError
from bullscows.rules import Rules
from bullscows.strategies import Strategy
from bullscows.tree import DecisionTree, TreeSummary, build_tree, check_tree, load_tree, render_text


@click.command()
@variant_options
@strategy_option
@click.option(
    "--format",
    "form",
    type=click.Choice(["summary", "text"]),
    default="summary",
    show_default=True,
    help="Print the tree's figures, or the tree itself as indented text.",
)
@click.option(
    "--depth",
    type=click.IntRange(min=1),
    metavar="N",
    help="With --format text: show only the first N guesses of every path.",
)
@reply_style_option("pair", when="with --format text")
@click.option("--json", "as_json", is_flag=True, help="Print the figures (or the check) as JSON.")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    metavar="FILE.json",
    help="Write the tree to FILE.json, or gzip-compressed to FILE.json.gz (play it with "
    "--strategy tree:FILE.json).",
)
@click.option(
    "--check",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE.json",
    help="Check a saved tree (.json or .json.gz) instead: exit 0 when it is valid, 1 with its "
    "problems otherwise.",
)
def tree(
    rules: Rules,
    strategy: Strategy,
    form: str,
    depth: int | None,
    reply_style: str,
    as_json: bool,
    out: Path | None,
    check: Path | None,
) -> None:
    """Build the decision tree of a deterministic strategy: its guess for every reply.

    \b
    bullscows tree --rules mm --strategy minimax
    bullscows tree --rules mm --out mm-minimax.json
    bullscows tree --rules mm --format text --depth 2
    bullscows tree --check mm-minimax.json
    bullscows tree --rules mm --strategy optimal --out mm-optimal.json.gz
    bullscows solve --rules mm --strategy tree:mm-minimax.json
    """
    if check is not None:
        if out is not None or form != "summary" or depth is not None:
            raise click.UsageError("--check reads a tree: give it without --out, --format, --depth")
        _check(check, as_json)
        return
    if as_json and form == "text":
        raise click.UsageError("give --json or --format text, not both")
    if depth is not None and form != "text":
        raise click.UsageError("--depth goes with --format text")
    if not strategy.deterministic:
        raise click.UsageError(
            f"strategy {strategy.label!r} is random: it has no decision tree; "
            "choose a deterministic one (`bullscows strategies` lists them)"
        )
    built = build_tree(rules, strategy)
    if out is not None:
        built.save(out)
        click.echo(f"Tree written to {out}", err=True)
    if form == "text":
        click.echo("\n".join(render_text(built, reply_style, depth)))
    elif as_json:
        click.echo(json.dumps(_figures_json(built), indent=2))
    else:
        _print_summary(built)


def _figures_json(built: DecisionTree) -> dict[str, object]:
    return {
        "rules": built.rules.spec,
        "name": built.strategy,
        "objective": built.objective,
        **built.summary().to_json(),
    }


def _print_summary(built: DecisionTree) -> None:
    s = built.summary()
    rules = built.rules
    click.echo(f"{rules.spec}: {rules.describe()} ({s.secrets:,} secrets)")
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


def _check(path: Path, as_json: bool) -> None:
    """Check the tree file at ``path``; exit 1 when it is not valid."""
    try:
        saved = load_tree(path)
    except BullsCowsError as error:
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
