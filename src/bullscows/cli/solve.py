"""``bullscows solve``: the computer breaks your secret."""

from __future__ import annotations

import sys

import click

from bullscows.cli.breaking import ask_replies, audit_secret
from bullscows.cli.common import Command, Terminal, computer_player_options
from bullscows.cli.progress import search_first
from bullscows.cli.streams import read_line
from bullscows.errors import BullsCowsError
from bullscows.feedback import counted
from bullscows.readers import read_text
from bullscows.rules import Rules
from bullscows.sessions import Codebreaker
from bullscows.sessions.moves import REPLY_PROMPT_HELP
from bullscows.strategies import Strategy


@click.command(cls=Command)
@computer_player_options
@click.option(
    "--plain",
    is_flag=True,
    help="Print only guesses, one per line; read one reply per line from stdin.",
)
def solve(rules: Rules, seed: int, strategy: Strategy, reply_style: str, plain: bool) -> None:
    """The computer breaks your secret code.

    Think of a code; reply to each guess with bulls and cows, bulls first ('1 2', '1B2C'; 'help'
    at the prompt shows every way). 'undo' takes back your last reply, 'fix N REPLY' replaces
    reply #N, 'quit' stops. With --plain it plays against another
    program: exit 0 when the code is found, 1 (with the reason on stderr) on a contradiction or
    a bad reply.

    \b
    bullscows solve                       think of 4 distinct digits
    bullscows solve --rules mm --strategy optimal
    bullscows solve --rules mm --plain    guesses on stdout, replies from stdin
    """
    search_first(rules, [strategy], quiet=False)  # not silently at the first guess
    breaker = Codebreaker(rules, strategy, seed)
    if plain:
        sys.exit(solve_plain(breaker, reply_style))
    terminal = Terminal()
    terminal.say(f"Think of a secret: {rules.describe()}. I will guess it.")
    terminal.say(REPLY_PROMPT_HELP)
    while not breaker.solved:
        wanted = len(breaker.history) + 1
        if not ask_replies(terminal, breaker, breaker, reply_style, wanted, "My guess"):
            terminal.say("Stopped.")
            if breaker.contradiction is not None:  # which replies were wrong, if they say
                audit_secret(terminal, breaker, reply_style)
            sys.exit(terminal.exit_code())
    guesses = len(breaker.history)
    terminal.say(f"I found it in {counted(guesses, 'guess')}: {breaker.history[-1].guess}.")
    audit_secret(terminal, breaker, reply_style)
    sys.exit(terminal.exit_code())


def solve_plain(breaker: Codebreaker, style: str) -> int:
    """Guesses on stdout, replies from stdin, reasons on stderr; the exit code.

    A line that is no reply is an error naming it; a reply no secret can give (3 bulls and 1
    cow) makes the replies contradict each other, explained like any contradiction.
    """
    number = 0
    while True:
        print(breaker.suggest(), flush=True)
        line = read_line()
        number += 1
        if line is None:
            print("Error: input ended before the code was found", file=sys.stderr)
            return 1
        try:
            breaker.reply(read_text(line, "the reply"), impossible=True)
        except BullsCowsError as error:
            print(f"Error: line {number}: {error}", file=sys.stderr)
            return 1
        if breaker.solved:
            return 0
        contradiction = breaker.contradiction
        if contradiction is not None:
            print(
                f"Error: line {number} makes the replies contradict each other: no code fits "
                "them all.",
                file=sys.stderr,
            )
            for text in contradiction.describe(style):
                print(text, file=sys.stderr)
            return 1
