"""``bullscows play``: you break the computer's secret."""

from __future__ import annotations

import random

import click

from bullscows.cli.common import QUIT, Terminal, play_options, variant_options
from bullscows.errors import BullsCowsError
from bullscows.feedback import counted
from bullscows.rules import Rules
from bullscows.sessions import Codemaker


@click.command()
@variant_options
@play_options
@click.option(
    "--hint", is_flag=True, help="After each reply, say how many codes are still possible."
)
def play(rules: Rules, rng: random.Random, reply_style: str, hint: bool) -> None:
    """Break the computer's secret code.

    Type a guess at each prompt; 'history' shows your guesses, 'quit' gives up and reveals
    the secret.
    """
    terminal = Terminal()
    game = Codemaker(rules, rng=rng)
    terminal.say(f"I have picked a secret: {rules.describe()}.")
    terminal.say("Type your guesses; 'history' shows them so far, 'quit' gives up.")
    while not game.solved:
        number = len(game.history) + 1
        text = terminal.ask(f"[{number}] Your guess: ")
        if text is None or text.lower() in QUIT:
            terminal.say(f"The secret was {game.secret}.")
            return
        if text.lower() == "history":
            for i, step in enumerate(game.history, 1):
                terminal.say(f"  [{i}] {step.guess}  {step.feedback.format(reply_style)}")
            continue
        if text.lower() in ("help", "?"):
            terminal.say(f"A guess is a code: {rules.describe()}. Commands: history, quit.")
            continue
        try:
            feedback = game.guess(text)
        except BullsCowsError as error:
            terminal.warn(str(error))
            continue
        line = f"    {feedback.format(reply_style)}"
        if hint and not game.solved:
            line += f"  ({counted(game.remaining, 'code')} still possible)"
        terminal.say(line)
    guesses = len(game.history)
    terminal.say(f"You broke it in {counted(guesses, 'guess')}: {game.secret}.")
