"""``bullscows duel``: you guess the computer's code while it guesses yours."""

from __future__ import annotations

import random

import click

from bullscows.cli.breaking import ask_replies, audit_secret
from bullscows.cli.common import (
    QUIT,
    REPLY_HELP,
    Terminal,
    play_options,
    strategy_named,
    variant_options,
)
from bullscows.errors import BullsCowsError
from bullscows.rules import Rules
from bullscows.sessions import Duel


@click.command()
@variant_options
@play_options
def duel(rules: Rules, rng: random.Random, strategy: str, reply_style: str) -> None:
    """Both at once: each round you guess its code, then it guesses yours.

    The game goes on until both codes are broken; fewer guesses wins. At your guess prompt
    'quit' gives up; at a reply prompt 'undo' takes back your last reply.
    """
    game = Duel(rules, strategy_named(strategy), rng)
    terminal = Terminal()
    terminal.say(f"Duel: {rules.describe()}. I have picked my secret; think of yours.")
    terminal.say(REPLY_HELP)
    while not game.over:
        turn = game.round
        if not game.maker.solved and not _your_guess(terminal, game, turn, reply_style):
            terminal.say(f"My secret was {game.maker.secret}.")
            return
        if not game.breaker.solved and not ask_replies(
            terminal, game.breaker, reply_style, turn, "My guess"
        ):
            terminal.say(f"Stopped. My secret was {game.maker.secret}.")
            return
        _announce(terminal, game)
    winner = game.winner()
    mine, theirs = len(game.maker.history), len(game.breaker.history)
    verdict = {"you": "You win!", "computer": "I win!", "draw": "A draw!"}[winner or "draw"]
    terminal.say(f"{verdict} You needed {mine} guesses, I needed {theirs}.")
    audit_secret(terminal, game.breaker, reply_style)


def _your_guess(terminal: Terminal, game: Duel, turn: int, style: str) -> bool:
    while True:
        text = terminal.ask(f"[{turn}] Your guess: ")
        if text is None or text.lower() in QUIT:
            return False
        try:
            feedback = game.maker.guess(text)
        except BullsCowsError as error:
            terminal.warn(str(error))
            continue
        terminal.say(f"    {feedback.format(style)}")
        if game.maker.solved:
            terminal.say(f"    You broke my code: {game.maker.secret}.")
        return True


def _announce(terminal: Terminal, game: Duel) -> None:
    if game.breaker.solved and len(game.breaker.history) == game.round - 1:
        terminal.say(f"    I broke your code: {game.breaker.history[-1].guess}.")
