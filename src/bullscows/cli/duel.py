"""``bullscows duel``: you guess the computer's code while it guesses yours."""

from __future__ import annotations

import sys

import click

from bullscows.cli.breaking import ask_replies, audit_secret, play_line
from bullscows.cli.common import Command, Terminal, computer_player_options
from bullscows.feedback import counted
from bullscows.rules import Rules
from bullscows.sessions import Duel, DuelTurn, Winner
from bullscows.sessions.moves import REPLY_HELP
from bullscows.sessions.outcomes import duel_stopped
from bullscows.strategies import Strategy


@click.command(cls=Command)
@computer_player_options
def duel(rules: Rules, seed: int, strategy: Strategy, reply_style: str) -> None:
    """Both at once: each round you guess its code, then it guesses yours.

    The game goes on until both codes are broken; fewer guesses wins. At your guess prompt
    'history' shows your guesses and 'quit' gives up; at either prompt 'undo' takes back your
    last reply, 'fix N REPLY' replaces reply #N, and 'help' says what the prompt takes.

    \b
    bullscows duel
    bullscows duel --rules mm --strategy entropy
    """
    game = Duel(rules, strategy, seed)
    terminal = Terminal()
    terminal.say(f"Duel: {rules.describe()}. I have picked my secret; think of yours.")
    terminal.say(REPLY_HELP)
    while not game.over:
        if game.awaiting is DuelTurn.GUESS:
            if not _your_guess(terminal, game, reply_style):
                terminal.say(duel_stopped(game.maker.secret))
                sys.exit(terminal.exit_code())
            continue
        wanted = len(game.breaker.history) + 1
        if not ask_replies(terminal, game, game.breaker, reply_style, wanted, "My guess"):
            terminal.say(duel_stopped(game.maker.secret))
            sys.exit(terminal.exit_code())
        if game.breaker.solved:
            terminal.say(f"    I broke your code: {game.breaker.history[-1].guess}.")
    verdict = {Winner.PERSON: "You win!", Winner.COMPUTER: "I win!", Winner.DRAW: "A draw!"}
    mine, theirs = len(game.maker.history), len(game.breaker.history)
    terminal.say(
        f"{verdict[game.winner() or Winner.DRAW]} You needed {counted(mine, 'guess')}, "
        f"I needed {counted(theirs, 'guess')}."
    )
    audit_secret(terminal, game.breaker, reply_style)
    sys.exit(terminal.exit_code())


def _your_guess(terminal: Terminal, game: Duel, style: str) -> bool:
    """One move at the guess prompt (a guess, or an undo or fix of a reply); False when the
    person gives up (the duel is then over)."""
    while True:
        text = terminal.ask(f"[{len(game.maker.history) + 1}] Your guess: ")
        outcome = play_line(terminal, game, game.breaker, text, style)  # a fix may end it
        if outcome is None:
            continue
        if outcome.stops:
            return False
        if game.maker.solved:  # only a guess breaks it
            terminal.say(f"    You broke my code: {game.maker.secret}.")
        if game.awaiting is not DuelTurn.GUESS:
            return True
