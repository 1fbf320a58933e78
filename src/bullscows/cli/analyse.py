"""``bullscows analyse``: a game's guesses, move by move, against the best guess of each move."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from bullscows.cli import streams
from bullscows.cli.candidates import history_arguments
from bullscows.cli.common import Command, contradicted, make_strategy, reply_style_option
from bullscows.errors import BullsCowsError, ContradictionError
from bullscows.readers import quote_path, read_named
from bullscows.records import GameRecord
from bullscows.rules import Rules
from bullscows.strategy_spec import CHOICES

if TYPE_CHECKING:  # the game's modules load NumPy: not for --help
    from bullscows.knowledge import Step


@click.command(cls=Command)
@history_arguments
@click.option(
    "--record",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Analyse the game saved in FILE (a game record, as the web app and --json give it).",
)
@click.option(
    "--last",
    is_flag=True,
    help="Analyse the last game kept in your record (`bullscows record`): your last game played.",
)
@click.option(
    "--strategy",
    default="minimax",
    show_default=True,
    metavar="NAME",
    help=f"Where no exact figure exists, the strategy that plays on to measure a guess: {CHOICES}.",
)
@reply_style_option()
@click.option("--json", "as_json", is_flag=True, help="Print the moves as JSON.")
def analyse(
    steps: tuple[str, ...],
    rules: Rules,
    source: Path | None,
    record: Path | None,
    last: bool,
    strategy: str,
    reply_style: str,
    as_json: bool,
) -> None:
    """Each guess of a game against the best guess at that moment: how it split the codes
    still possible, and how many guesses it costs on average against the best.

    The game is a history of guesses and replies (as arguments, or one a line from --from
    or standard input), a saved game record (--record), or your last game played (--last).
    Where a few hundred codes are left
    the best guess is proven by the search; along the variant's shipped optimal tree it is the
    tree's; elsewhere the strategy plays on after each guess to measure it. Replies that
    contradict each other end the analysis at the move that left no code, explained (in
    the JSON too, as "contradiction"), and the command exits 1.

    \b
    bullscows analyse "0123 0 1" "4561 0 1" "7412 3 0" "7492 4 0"
    bullscows analyse --rules mm --from game.txt
    bullscows analyse --record game.json --json
    bullscows analyse --last
    """
    from bullscows.analysis import analyse_history, contradiction_in, move_text
    from bullscows.sessions.question import read_history

    if sum((bool(steps), source is not None, record is not None, last)) > 1:
        raise click.UsageError(
            "give the history as arguments, with --from, --record or --last: one of them"
        )
    player = make_strategy(strategy)
    if record is not None or last:
        played, history, seed = _played(_read_record(record) if record else _last_kept())
        what = f"game record {quote_path(record)}" if record else "your last game"
        contradicted(what, played, rules, "the game's" if last else "the file's")
        rules = played
        given = click.get_current_context().get_parameter_source("reply_style")
        if given is click.core.ParameterSource.DEFAULT:  # the game's variant's own style
            from bullscows.feedback import default_style

            reply_style = default_style(rules)
    else:
        lines = steps if steps else streams.read_lines(source)
        history, seed = read_history(lines, rules, "argument" if steps else "line"), 0
    if not history:
        why = "give a history of guesses and replies"
        if record or last:
            why = (f"{'your last game' if last else 'the game'} has none (given up before a "
                   "first guess, or with every guess taken back)")  # fmt: skip
        raise BullsCowsError(f"no guess to analyse: {why}")
    moves = analyse_history(rules, history, player, seed)
    contradiction = contradiction_in(rules, history, moves)
    if as_json:
        data: dict[str, Any] = {"rules": rules.spec, "moves": moves}
        if contradiction is not None:
            data["contradiction"] = contradiction[1].to_json()
        click.echo(json.dumps(data, indent=2))
    else:
        out = streams.console()
        out.print(
            f"{rules.spec}: {rules.describe()}: {len(moves)} of {len(history)} moves analysed"
        )
        for move in moves:
            out.print(move_text(move, reply_style))
        for line in contradiction[1].describe(reply_style) if contradiction else ():
            out.print(line)
    if contradiction is not None:  # bad input: said on stderr, exit 1
        raise ContradictionError(*contradiction)


def _read_record(path: Path) -> GameRecord:
    return GameRecord.loads(*read_named(path, "game record"))


def _last_kept() -> GameRecord:
    """The last game kept in the user's record (``cli.record``)."""
    from bullscows.cli.record import MODE
    from bullscows.web.storage import Store, shown_url

    with Store() as store:
        kept = store.records(MODE)
    if not kept:
        raise BullsCowsError(f"no game kept in {shown_url(store.url)} yet: play one first")
    return kept[-1]


def _played(record: GameRecord) -> tuple[Rules, list[Step], int]:
    """The variant, the guesses and replies, and the seed of the game ``record``: the
    person's guesses (the computer's, in a game where it breaks the person's code)."""
    from bullscows.sessions import Duel, restore

    game = restore(record)
    played = game.maker if isinstance(game, Duel) else game
    return played.rules, list(played.history), played.seed
