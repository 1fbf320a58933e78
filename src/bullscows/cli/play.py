"""``bullscows play``: you break the computer's secret."""

from __future__ import annotations

import sys

import click

from bullscows.cli.breaking import apply_move, move_of, say_lines, say_outcome
from bullscows.cli.common import (
    Command,
    Terminal,
    Whole,
    play_options,
    strategy_option,
    variant_options,
)
from bullscows.errors import BullsCowsError
from bullscows.feedback import counted
from bullscows.rules import Rules
from bullscows.sessions import Adversary, Codemaker, Status, revealed
from bullscows.strategies import Strategy
from bullscows.strategies.card import Card
from bullscows.strategies.card_coach import advise, optimum_for, review
from bullscows.strategies.card_strategy import coach_card


@click.command(cls=Command)
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
@click.option("--hard", is_flag=True, help="Hard mode: every guess must fit every reply so far.")
@click.option(
    "--coach",
    is_flag=True,
    help="Before each guess, say what the card (`bullscows card`; with --strategy card:FILE.json "
    "that card) plays and why; after the game, compare it with the card and the optimum.",
)
@click.option(
    "--max-guesses",
    type=Whole(1, 1000),
    metavar="N",
    help="Lose the game when N guesses have not broken the code (the secret is then shown).",
)
@click.option(
    "--analyse",
    "analysed",
    is_flag=True,
    help="After the game, each guess against the best guess at that moment.",
)
def play(
    rules: Rules,
    seed: int,
    reply_style: str,
    hint: bool,
    strategy: Strategy,
    adversary: bool,
    hard: bool,
    coach: bool,
    max_guesses: int | None,
    analysed: bool,
) -> None:
    """Break the computer's secret code.

    Type a guess at each prompt; 'history' shows your guesses, 'list' the codes still possible (a
    screenful; 'list all' every one), 'undo' takes back your last guess, 'hint' (with --hint)
    proposes one and says why, 'quit' gives up and reveals the secret, 'help' lists these. A
    game that ends is kept in your record (`bullscows record`), unless given up before its first
    guess (its secret then stays hidden); `bullscows analyse --last` weighs each of its guesses.

    \b
    bullscows play                        Bulls & Cows: 4 distinct digits
    bullscows play --rules mm --hint      Mastermind, with hints
    bullscows play --hard --max-guesses 7
    bullscows play --adversary            no secret: each reply keeps the most codes
    bullscows play --rules mm --coach     the card's advice before each guess
    """
    card = _card(rules, strategy) if coach else None
    terminal = Terminal()
    hints = strategy if hint else None
    game: Codemaker | Adversary = (
        Adversary(rules, seed, hints, hard=hard, max_guesses=max_guesses, coach=coach)
        if adversary
        else Codemaker(rules, None, seed, hints, hard=hard, max_guesses=max_guesses, coach=coach)
    )
    if adversary:
        terminal.say(f"I have picked no secret: {rules.describe()}.")
        terminal.say("Each reply keeps as many codes possible as it can; some code fits them all.")
    else:
        terminal.say(f"I have picked a secret: {rules.describe()}.")
    if hard:
        terminal.say("Hard mode: every guess must fit every reply so far.")
    if max_guesses is not None:
        terminal.say(f"You have {counted(max_guesses, 'guess')}.")
    terminal.say("Type your guesses; 'history' shows them so far, 'quit' gives up.")
    while not game.over:
        if card is not None:
            terminal.say(advise(card, game.knowledge).text())
        text = terminal.ask(f"[{len(game.history) + 1}] Your guess: ")
        move = move_of(terminal, game, text)
        if move.asks_strategy and game.hinter is None:
            terminal.say("Hints are off; play with --hint to get them.")
            continue
        outcome = apply_move(terminal, game, move)
        if outcome is not None:
            say_outcome(terminal, outcome, reply_style)
    if game.status is Status.SOLVED:
        guesses = counted(len(game.history), "guess")
        if game.hints_given:
            guesses += f" with {counted(game.hints_given, 'hint')}"
        terminal.say(f"You broke it in {guesses}: {game.secret}.")
    elif game.status is Status.LOST:
        used = "your one guess" if max_guesses == 1 else f"all {max_guesses}"
        terminal.say(f"No guesses left: you have used {used}.")
        say_lines(terminal, revealed(game.secret, game.picks_secret))
    if card is not None and game.secret is not None and game.history:
        say_lines(terminal, review(card, game.history, game.secret, optimum_for(rules)).lines())
    _after(terminal, game, analysed, reply_style)
    sys.exit(terminal.exit_code())


def _after(terminal: Terminal, game: Codemaker | Adversary, analysed: bool, style: str) -> None:
    """A game that ended: kept in the player's record (unless given up before its first
    guess), its grid to share, and its analysis if asked."""
    from bullscows.analysis import result_to_share  # what the web offers, the same text
    from bullscows.cli.record import keep
    from bullscows.standings import ABANDONED

    shared = result_to_share(game)
    kept = shared is not None and keep(game.to_record())
    if shared is None:
        terminal.say(ABANDONED)
    else:
        terminal.say("To share (no code in it):")
        terminal.say(shared)
    if analysed and game.history:
        from bullscows.analysis import analyse, move_text

        terminal.say("Each guess against the best guess at that moment:")
        for move in analyse(game):
            terminal.say(move_text(move, style))
    elif kept:
        terminal.say("Kept in your record (bullscows record); bullscows analyse --last weighs "
                     "each guess against the best.")  # fmt: skip


def _card(rules: Rules, strategy: Strategy) -> Card:
    """The card the coach follows (``coach_card``); a variant without one is a usage error."""
    try:
        return coach_card(rules, strategy)
    except BullsCowsError as error:
        raise click.UsageError(f"--coach: {error}") from None
