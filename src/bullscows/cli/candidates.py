"""``bullscows candidates``: what a history of guesses and replies says about the secret."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from bullscows.cli.common import Command, Whole, reply_style_option, variant_options
from bullscows.cli.streams import read_lines, width
from bullscows.errors import ContradictionError
from bullscows.rules import Rules
from bullscows.sessions.outcomes import WIDTH
from bullscows.sessions.question import DEFAULT_LIMIT, answer, read_history

F = TypeVar("F", bound=Callable[..., Any])


def history_arguments(function: F) -> F:
    """The history as STEPS arguments or ``--from FILE``, and the variant's options."""
    source = click.option(
        "--from",
        "source",
        type=click.Path(dir_okay=False, path_type=Path),
        metavar="FILE",
        help="Read the history from FILE ('-' for standard input), one guess and reply a line.",
    )
    steps = click.argument("steps", nargs=-1, metavar="['GUESS REPLY' ...]")
    return steps(variant_options(source(function)))


@click.command(cls=Command)
@history_arguments
@click.option(
    "--limit",
    type=Whole(min=0),
    default=DEFAULT_LIMIT,
    show_default=True,
    metavar="N",
    help="List at most N of the codes still possible (their count is always given).",
)
@reply_style_option()
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
def candidates(
    steps: tuple[str, ...],
    rules: Rules,
    source: Path | None,
    limit: int,
    reply_style: str,
    as_json: bool,
) -> None:
    """Say what a history of guesses and replies leaves possible: one code, several, or none.

    Each 'GUESS REPLY' is a guess and its reply ('7019 1 1', '7019 1B1C'); without any, and without
    --from, the history is read from standard input, one a line (blank lines and lines
    starting with # are skipped). A reply no guess can get ('3 1' with 4 positions) makes the
    history inconsistent. Exit 0 when some code fits; 1 when none does (the answer is printed
    all the same) or a line cannot be read.

    \b
    bullscows candidates "7019 1 1" "5873 0 1" "7921 3 1"
    bullscows candidates --rules mm --json < history.txt
    """
    if steps and source is not None:
        raise click.UsageError("give the history as arguments or with --from, not both")
    if steps:
        history = read_history(steps, rules, "argument")
    else:
        history = read_history(read_lines(source), rules)
    found = answer(rules, history, limit)
    if as_json:
        click.echo(json.dumps(found.to_json(), indent=2))
    else:
        click.echo("\n".join(found.lines(reply_style, width(WIDTH))))
    if found.error is not None:  # bad data, as analyse says it: on stderr, exit 1
        raise ContradictionError(found.error, found.contradiction)
