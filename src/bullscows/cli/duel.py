"""``bullscows duel``: you guess the computer's code while it guesses yours."""

from __future__ import annotations

import random
import sys

import click

from bullscows.cli.breaking import ask_replies, audit_secret
from bullscows.cli.common import (
    QUIT,
    REPLY_HELP,
    Terminal,
    computer_player_options,
)
from bullscows.errors import BullsCowsError
from bullscows.feedback import counted
from bullscows.rules import Rules
from bullscows.sessions import Duel
from bullscows.strategies import Strategy


@click.command()
@computer_player_options
def duel(rules: Rules, rng: random.Random, strategy: Strategy, reply_style: str) -> None:
    """Both at once: each round you guess its code, then it guesses yours.

    The game goes on until both codes are broken; fewer guesses wins. At your guess prompt
    'quit' gives up; at a reply prompt 'undo' takes back your last reply.
    """
    game = Duel(rules, strategy, rng)
    terminal = Terminal()
    terminal.say(f"Duel: {rules.describe()}. I have picked my secret; think of yours.")
    terminal.say(REPLY_HELP)
    while not game.over:
        turn = game.round
        if not game.maker.solved and not _your_guess(terminal, game, turn, reply_style):
            terminal.say(f"My secret was {game.maker.secret}.")
            sys.exit(terminal.exit_code())
        if not game.breaker.solved:
            wanted = len(game.breaker.history) + 1
            if not ask_replies(terminal, game.breaker, reply_style, wanted, "My guess"):
                terminal.say(f"Stopped. My secret was {game.maker.secret}.")
                sys.exit(terminal.exit_code())
            if game.breaker.solved:
                terminal.say(f"    I broke your code: {game.breaker.history[-1].guess}.")
    winner = game.winner()
    mine, theirs = len(game.maker.history), len(game.breaker.history)
    verdict = {"you": "You win!", "computer": "I win!", "draw": "A draw!"}[winner or "draw"]
    terminal.say(
        f"{verdict} You needed {counted(mine, 'guess')}, I needed {counted(theirs, 'guess')}."
    )
    audit_secret(terminal, game.breaker, reply_style)
    sys.exit(terminal.exit_code())


def _your_guess(terminal: Terminal, game: Duel, turn: int, style: str) -> bool:
    while True:
        text = terminal.ask(f"[{turn}] Your guess: ")
        if text is None or text.lower() in QUIT:
            return False
        try:
            feedback = game.maker.guess(text)
        except BullsCowsError as error:
            terminal.refuse(str(error))
            continue
        terminal.say(f"    {feedback.format(style)}")
        if game.maker.solved:
            terminal.say(f"    You broke my code: {game.maker.secret}.")
        return True
