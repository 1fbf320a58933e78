"""``bullscows assist``: help with a game played elsewhere."""

from __future__ import annotations

import random

import click

from bullscows.cli.breaking import show_contradiction, take_back
from bullscows.cli.common import (
    QUIT,
    REPLY_HELP,
    Terminal,
    computer_player_options,
)
from bullscows.errors import BullsCowsError
from bullscows.rules import Rules
from bullscows.sessions import Codebreaker
from bullscows.strategies import Strategy

#: At most this many remaining codes are listed after each reply.
LIST_AT_MOST = 12
#: At most this many are listed when asked ('list'): the rest are counted.
LIST_ASKED_AT_MOST = 10_000


@click.command()
@computer_player_options
def assist(rules: Rules, rng: random.Random, strategy: Strategy, reply_style: str) -> None:
    """Help with a game played elsewhere.

    Enter each guess you made and the reply you got, e.g. '0123 1 2' or '0123 1B2C'. An empty
    line or 'next' asks for a guess; 'list' shows the codes still possible; 'undo' takes back
    the last entry; 'quit' stops.
    """
    breaker = Codebreaker(rules, strategy, rng)
    terminal = Terminal()
    terminal.say(f"Assisting a game of {rules.describe()}: {breaker.remaining} codes possible.")
    terminal.say(f"Enter 'GUESS REPLY' for each guess you made. {REPLY_HELP}")
    terminal.say("Commands: next (or Enter) suggests a guess, list, undo, quit.")
    while True:
        text = terminal.ask("> ")
        if text is None or text.lower() in QUIT:
            return
        command = text.lower()
        if command in ("", "next", "n", "suggest"):
            _suggest(terminal, breaker)
        elif command == "list":
            _list(terminal, breaker, LIST_ASKED_AT_MOST)
        elif command in ("undo", "u"):
            take_back(terminal, breaker, reply_style)
            _status(terminal, breaker, reply_style)
        elif command in ("help", "?"):
            terminal.say(f"Enter 'GUESS REPLY', e.g. '0123 1 2'. {REPLY_HELP}")
        else:
            _record(terminal, breaker, text, reply_style)


def _record(terminal: Terminal, breaker: Codebreaker, text: str, style: str) -> None:
    guess, _, reply = text.partition(" ")
    if not reply.strip():
        reply = terminal.ask(f"Reply to {guess}: ") or ""
    try:
        breaker.record(guess, reply)
    except BullsCowsError as error:
        terminal.warn(str(error))
        return
    _status(terminal, breaker, style)


def _status(terminal: Terminal, breaker: Codebreaker, style: str) -> None:
    if breaker.solved:
        terminal.say(f"Solved in {len(breaker.history)} guesses: {breaker.history[-1].guess}.")
        return
    if breaker.contradiction is not None:
        show_contradiction(terminal, breaker, style)
        terminal.say("Type 'undo' to take back the last entry.")
        return
    known = breaker.known
    if known is not None:
        terminal.say(f"One code left: it must be {known}.")
        return
    terminal.say(f"{breaker.remaining} codes possible.")
    if breaker.remaining <= LIST_AT_MOST:
        _list(terminal, breaker, LIST_AT_MOST)
    _suggest(terminal, breaker)


def _suggest(terminal: Terminal, breaker: Codebreaker) -> None:
    try:
        terminal.say(f"Suggested guess: {breaker.suggest()}")
    except BullsCowsError as error:
        terminal.warn(str(error))


def _list(terminal: Terminal, breaker: Codebreaker, limit: int) -> None:
    codes = breaker.knowledge.candidate_codes(limit)
    more = breaker.remaining - len(codes)
    terminal.say("  " + " ".join(map(str, codes)) + (f" ... and {more} more" if more > 0 else ""))
