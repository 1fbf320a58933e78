"""``bullscows assist``: help with a game played elsewhere."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from bullscows.cli.breaking import (
    FIX,
    FIX_HELP,
    correct,
    end_inconsistent,
    show_contradiction,
    take_back,
)
from bullscows.cli.common import (
    QUIT,
    REPLY_HELP,
    Terminal,
    computer_player_options,
)
from bullscows.cli.streams import read_lines
from bullscows.codes import Code
from bullscows.errors import BullsCowsError
from bullscows.rules import Rules
from bullscows.sessions import Codebreaker, as_code, as_feedback
from bullscows.sessions.question import read_history
from bullscows.strategies import Strategy

#: At most this many remaining codes are listed after each reply.
LIST_AT_MOST = 12
#: At most this many are listed when asked ('list'): the rest are counted.
LIST_ASKED_AT_MOST = 10_000


@click.command()
@computer_player_options
@click.option(
    "--from",
    "source",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Read the game so far from FILE ('-' for standard input), one guess and reply a line, "
    "then carry on from there.",
)
def assist(
    rules: Rules, seed: int, strategy: Strategy, reply_style: str, source: Path | None
) -> None:
    """Help with a game played elsewhere.

    Enter each guess you made and the reply you got, e.g. '0123 1 2' or '0123 1B2C'. An empty
    line or 'next' asks for a guess; 'list' shows the codes still possible; 'undo' takes back
    the last entry; 'fix N REPLY' replaces the reply to guess #N; 'quit' stops. From a pipe
    or a file, each line must hold a guess and its reply: a line that cannot be used is named
    and skipped (exit code 1 at the end), and a line that makes the replies contradict each
    other is explained and ends the run (exit 1).

    With --from FILE the whole history is read first (a line that cannot be read ends the run
    with exit 1, naming it); what it says is shown, and the prompt carries on from there.
    """
    breaker = Codebreaker(rules, strategy, seed)
    terminal = Terminal()
    terminal.say(f"Assisting a game of {rules.describe()}: {breaker.remaining} codes possible.")
    if source is not None:
        _read_history(terminal, breaker, source, reply_style)
    terminal.say(f"Enter 'GUESS REPLY' for each guess you made. {REPLY_HELP}")
    terminal.say(f"Commands: next (or Enter) suggests a guess, list, undo, {FIX_HELP}, quit.")
    while True:
        text = terminal.ask("> ")
        if text is None or text.lower() in QUIT:
            sys.exit(terminal.exit_code())
        command = text.lower()
        if command in ("", "next", "n", "suggest"):
            _suggest(terminal, breaker)
        elif command == "list":
            _list(terminal, breaker, LIST_ASKED_AT_MOST)
        elif command in ("undo", "u"):
            take_back(terminal, breaker, reply_style)
            _status(terminal, breaker, reply_style)
        elif fix := FIX.fullmatch(text):
            correct(terminal, breaker, int(fix.group(1)), fix.group(2), reply_style, False)
            _status(terminal, breaker, reply_style)
        elif command in ("help", "?"):
            terminal.say(f"Enter 'GUESS REPLY', e.g. '0123 1 2'. {REPLY_HELP}")
        else:
            _record(terminal, breaker, text, reply_style)


def _read_history(terminal: Terminal, breaker: Codebreaker, source: Path, style: str) -> None:
    """Record the history in ``source`` (a file, or ``-``: stdin) and show what it says; from a
    script, a history whose replies contradict each other ends the run (exit 1)."""
    for number, step in enumerate(read_history(read_lines(source), breaker.rules), start=1):
        try:
            breaker.record(step.guess, step.feedback, impossible=True)
        except BullsCowsError as error:
            raise BullsCowsError(f"guess #{number} {step.guess} of the history: {error}") from None
    name = "standard input" if str(source) == "-" else str(source)
    n = len(breaker.history)
    terminal.say(f"Read {n} {'guess' if n == 1 else 'guesses'} and their replies from {name}.")
    if breaker.contradiction is not None and not terminal.interactive:
        show_contradiction(terminal, breaker, style)
        sys.exit(1)
    _status(terminal, breaker, style)


def _record(terminal: Terminal, breaker: Codebreaker, text: str, style: str) -> None:
    """Record the entry 'GUESS REPLY', or refuse that line alone, saying why. From a script,
    replies that contradict each other end the command (``end_inconsistent``)."""
    guess, _, reply = text.partition(" ")
    try:
        code = as_code(guess, breaker.rules)
    except BullsCowsError as error:
        terminal.refuse(str(error))
        return
    if not reply.strip():
        if not terminal.interactive:  # nobody to ask: the next line is an entry of its own
            terminal.refuse(
                f"guess {code.text!r} has no reply; give it on the same line, e.g. "
                f"'{code.text} 1 2'"
            )
            return
        asked = _ask_reply(terminal, breaker, code)
        if asked is None:
            return
        reply = asked
    try:
        # From a script, a reply no secret can give makes the data inconsistent, and says so.
        breaker.record(code, reply, impossible=not terminal.interactive)
    except BullsCowsError as error:
        terminal.refuse(str(error))
        return
    if not terminal.interactive and breaker.contradiction is not None:
        end_inconsistent(terminal, breaker, style)
    _status(terminal, breaker, style)


def _ask_reply(terminal: Terminal, breaker: Codebreaker, code: Code) -> str | None:
    """The reply to ``code``, asked until one can be read; ``None`` if none is given (Enter
    alone, or 'quit')."""
    while True:
        text = terminal.ask(f"Reply to {code}: ")
        if not text or text.lower() in QUIT:
            terminal.say(f"No reply: {code} is not recorded.")
            return None
        try:
            as_feedback(text, breaker.rules)
        except BullsCowsError as error:
            terminal.warn(str(error))
            continue
        return text


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
