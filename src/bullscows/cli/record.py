"""``bullscows record``: your record against the computer's code, per variant, from the games
kept in your data folder (where the web app keeps its games); ``keep`` adds a finished game."""

from __future__ import annotations

import json
import warnings

import click

from bullscows.cli import streams
from bullscows.cli.common import Command
from bullscows.errors import BullsCowsError, BullsCowsWarning
from bullscows.records import GameRecord

#: The mode under which games against the computer's code are kept (the web app's ``play``).
MODE = "play"


def keep(record: GameRecord) -> bool:
    """Keep a finished game in the user's record: whether it was kept. A store that cannot
    be written is a one-line warning, never the end of the game."""
    from sqlalchemy.exc import SQLAlchemyError

    from bullscows.web.storage import Store

    try:
        with Store() as store:
            store.add(record, MODE)
    except (BullsCowsError, SQLAlchemyError, OSError) as error:
        reason = (str(error).splitlines() or [type(error).__name__])[0][:200]
        warnings.warn(f"the game is not kept in your record: {reason}", BullsCowsWarning, 2)
        return False
    return True


@click.command(cls=Command)
@click.option("--json", "as_json", is_flag=True, help="Print the record as JSON.")
def record(as_json: bool) -> None:
    """Your record against the computer's code, per variant: games played and won, the
    current and best streak of wins, and how many guesses the wins took.

    Every game of `bullscows play` that ends (broken, given up, or out of guesses) is kept in
    your data folder ($XDG_DATA_HOME/bullscows, else ~/.local/share/bullscows), in the
    database the web app (`bullscows serve`) keeps its games in, so games played in either
    count; $BULLSCOWS_DATABASE names another database (a URL or a SQLite file's path). A
    game given up before its first guess was never started: it is not kept, and counts
    neither as won nor as lost.

    \b
    bullscows record
    bullscows record --json
    BULLSCOWS_DATABASE=sqlite:///club.sqlite3 bullscows record
    """
    from bullscows.standings import standings, wins_text
    from bullscows.web.storage import Store, shown_url

    with Store() as store:
        rows = standings(store.records(MODE))
    if as_json:
        for row in rows:
            row["distribution"] = {str(k): v for k, v in row["distribution"].items()}
        click.echo(json.dumps({"database": shown_url(store.url), "variants": rows}, indent=2))
        return
    out = streams.console()
    if not rows:
        out.print(f"No finished game yet in {shown_url(store.url)}: play one (bullscows play).")
        return
    out.print(f"Your record against the computer's code (kept in {shown_url(store.url)}):")
    for row in rows:
        out.print(
            f"{row['rules']}: played {row['played']}, won {row['won']} "
            f"({row['win_percent']}%), streak {row['streak']} (best {row['best_streak']}); "
            f"{wins_text(row['distribution'])}"
        )
