"""``bullscows assist``: help with a game played elsewhere."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from bullscows.cli.breaking import (
    apply_move,
    end_if_inconsistent,
    move_of,
    say_outcome,
    show_contradiction,
)
from bullscows.cli.common import Command, Terminal, computer_player_options
from bullscows.cli.progress import search_first
from bullscows.cli.streams import read_lines
from bullscows.errors import BullsCowsError
from bullscows.feedback import counted
from bullscows.knowledge import Step
from bullscows.readers import quote_path
from bullscows.rules import Rules
from bullscows.sessions import (
    Candidates,
    Codebreaker,
    Move,
    Record,
    Suggest,
    as_code,
    as_feedback,
    read_move,
)
from bullscows.sessions.breaking import read_game
from bullscows.sessions.moves import (
    FIX_HELP,
    NO_REPLY_HELP,
    REPLY_HELP,
    another_step,
    instead_of_reply,
    reply_to,
)
from bullscows.strategies import Strategy

#: At most this many remaining codes are listed after each reply.
LIST_AT_MOST = 12


@click.command(cls=Command)
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

    Enter each guess you made and the reply you got, e.g. '0123 1 2' or '0123 1B2C'. An empty line
    or 'next' asks for a guess; 'list' shows the codes still possible (a screenful; 'list all'
    every one); 'undo' takes back the last entry; 'fix N REPLY' replaces the reply to guess #N;
    'quit' stops; 'help' says how to write a reply. From a pipe or a file, each line must hold a
    guess and its reply: a line that cannot be used is named and skipped (exit code 1 at the
    end), and a line that makes the replies contradict each other is explained and ends the run
    (exit 1).

    With --from FILE the whole history is read first (a line that cannot be read ends the run
    with exit 1, naming it); what it says is shown, and the prompt carries on from there.

    \b
    bullscows assist
    bullscows assist --rules mm --strategy optimal
    bullscows assist --from game.txt
    """
    # where the history is read from, and its steps (a missing file, a bad line: before a
    # search)
    history = None if source is None else (source, _history_of(source, rules))
    search_first(rules, [strategy], quiet=False)  # not silently at the first suggestion
    breaker = Codebreaker(rules, strategy, seed, assist=True)
    terminal = Terminal()
    terminal.say(f"Assisting a game of {rules.describe()}: {breaker.remaining} codes possible.")
    if history is not None:
        _read_history(terminal, breaker, *history, reply_style)
    terminal.say(f"Enter 'GUESS REPLY' for each guess you made. {REPLY_HELP}")
    terminal.say(f"Commands: next (or Enter) suggests a guess, list, undo, {FIX_HELP}, quit.")
    while True:
        text = terminal.ask("> ")
        move = move_of(terminal, breaker, text)
        if move.stops:  # 'quit' stops, also once the code is broken
            if not breaker.over:
                breaker.apply(move)
            sys.exit(terminal.exit_code())
        guess = move.unanswered
        if guess is not None and terminal.interactive:
            asked = _with_reply(terminal, breaker, guess)
            if asked is None:
                continue
            move = asked  # the guess with its reply, or a fix typed instead of the reply
        outcome = apply_move(terminal, breaker, move)
        if outcome is None:
            continue
        say_outcome(terminal, outcome, reply_style)
        if outcome.changes_replies:
            end_if_inconsistent(terminal, breaker, reply_style)
            _status(terminal, breaker, reply_style)


def _history_of(source: Path, rules: Rules) -> tuple[Step, ...]:
    """The history in the file ``source`` (or ``-``: stdin); a line that cannot be read or
    recorded is an error that names the file and the line."""
    where = "standard input," if str(source) == "-" else f"file {quote_path(source)},"
    return read_game(read_lines(source), rules, f"{where} line")


def _read_history(
    terminal: Terminal, breaker: Codebreaker, source: Path, steps: tuple[Step, ...], style: str
) -> None:
    """Record the history ``steps`` read from ``source`` (a file, or ``-``: stdin) and show
    what it says; from a script, a history whose replies contradict each other ends the run
    (exit 1). The steps are those ``read_game`` checked."""
    for step in steps:
        breaker.record(step.guess, step.feedback, impossible=True)
    name = "standard input" if str(source) == "-" else str(source)
    n = len(breaker.history)
    read = "1 guess and its reply" if n == 1 else f"{n} guesses and their replies"
    terminal.say(f"Read {read} from {name}.")
    if breaker.contradiction is not None and not terminal.interactive:
        terminal.error(f"the replies read from {name} contradict each other")
        show_contradiction(terminal, breaker, style)
        sys.exit(1)
    _status(terminal, breaker, style)


def _with_reply(terminal: Terminal, breaker: Codebreaker, guess: str) -> Move | None:
    """``guess``, typed without its reply, with the reply asked for: the ``Record`` to apply,
    a ``Fix`` typed instead of the reply (the guess is then dropped), or ``None`` if the
    guess is no code or no reply is given."""
    try:
        code = as_code(guess, breaker.rules)
    except BullsCowsError as error:
        terminal.refuse(str(error))
        return None
    while True:
        asked = terminal.ask(f"Reply to {code}: ")
        text = "" if asked is None else reply_to(code, asked)
        move = read_move(breaker, text)
        if not text or (move.command and move.changes):
            terminal.say(f"No reply: {code} is not recorded.")
            return instead_of_reply(move)
        try:
            as_feedback(text, breaker.rules)
        except BullsCowsError as error:
            terminal.warn(f"{error}{another_step(code, text)}; {NO_REPLY_HELP}")
            continue
        return Record(guess, text)


def _status(terminal: Terminal, breaker: Codebreaker, style: str) -> None:
    if breaker.solved:
        guesses = counted(len(breaker.history), "guess")
        terminal.say(f"Solved in {guesses}: {breaker.history[-1].guess}.")
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
        say_outcome(terminal, breaker.apply(Candidates()), style)
    say_outcome(terminal, breaker.apply(Suggest()), style)
