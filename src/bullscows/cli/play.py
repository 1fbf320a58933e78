"""``bullscows play``: you break the computer's secret."""

from __future__ import annotations

import sys

import click

from bullscows.cli.common import QUIT, Terminal, play_options, strategy_option, variant_options
from bullscows.errors import BullsCowsError
from bullscows.feedback import counted
from bullscows.rules import Rules
from bullscows.sessions import Adversary, Codemaker
from bullscows.strategies import Strategy


@click.command()
@variant_options
@play_options
@click.option(
    "--hint",
    is_flag=True,
    help="After each reply, say how many codes are still possible; 'hint' proposes a guess.",
)
@strategy_option
@click.option(
    "--adversary",
    is_flag=True,
    help="The computer picks no secret: each reply keeps as many codes possible as it can.",
)
def play(
    rules: Rules,
    seed: int,
    reply_style: str,
    hint: bool,
    strategy: Strategy,
    adversary: bool,
) -> None:
    """Break the computer's secret code.

    Type a guess at each prompt; 'history' shows your guesses, 'hint' (with --hint) proposes
    one and says why, 'quit' gives up and reveals the secret.
    """
    terminal = Terminal()
    hints = strategy if hint else None
    game = Adversary(rules, seed, hints) if adversary else Codemaker(rules, seed=seed, hints=hints)
    if adversary:
        terminal.say(f"I have picked no secret: {rules.describe()}.")
        terminal.say("Each reply keeps as many codes possible as it can; some code fits them all.")
    else:
        terminal.say(f"I have picked a secret: {rules.describe()}.")
    terminal.say("Type your guesses; 'history' shows them so far, 'quit' gives up.")
    while not game.solved:
        number = len(game.history) + 1
        text = terminal.ask(f"[{number}] Your guess: ")
        if text is None or text.lower() in QUIT:
            secret = game.give_up()
            if adversary:
                terminal.say("There was no secret: I never picked one.")
                terminal.say(f"A secret that fits every reply I gave: {secret}.")
            else:
                terminal.say(f"The secret was {secret}.")
            sys.exit(terminal.exit_code())
        if text.lower() == "history":
            for i, step in enumerate(game.history, 1):
                terminal.say(f"  [{i}] {step.guess}  {step.feedback.format(reply_style)}")
            continue
        if text.lower() == "hint":
            if game.hinter is None:
                terminal.say("Hints are off; play with --hint to get them.")
                continue
            try:
                lines = game.hint().describe(reply_style)
            except BullsCowsError as error:
                terminal.warn(str(error))
                continue
            for line in lines:
                terminal.say(line)
            continue
        if text.lower() in ("help", "?"):
            terminal.say(
                f"A guess is a code: {rules.guess_rules.describe()}. Commands: history, hint, quit."
            )
            continue
        try:
            feedback = game.guess(text)
        except BullsCowsError as error:
            terminal.refuse(str(error))
            continue
        line = f"    {feedback.format(reply_style)}"
        if hint and not game.solved:
            line += f"  ({counted(game.remaining, 'code')} still possible)"
        terminal.say(line)
    guesses = counted(len(game.history), "guess")
    if game.hints_given:
        guesses += f" with {counted(game.hints_given, 'hint')}"
    terminal.say(f"You broke it in {guesses}: {game.secret}.")
    sys.exit(terminal.exit_code())
