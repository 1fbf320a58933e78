"""The dialogue of a computer codebreaker: ask for replies, undo, explain contradictions.

Shared by ``solve``, ``duel`` and ``assist``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import NoReturn

from bullscows.cli.common import Terminal
from bullscows.errors import BullsCowsError
from bullscows.sessions import Codebreaker, Duel, Game, GiveUp, Move, Outcome, read_move
from bullscows.sessions.moves import FIX_HELP, QUIT, Playable, refusal


def show_contradiction(terminal: Terminal, breaker: Codebreaker, style: str) -> None:
    contradiction = breaker.contradiction
    if contradiction is None:
        return
    terminal.warn("Your replies contradict each other: no code fits them all.")
    for line in contradiction.describe(style):
        terminal.say(line)


def end_if_inconsistent(terminal: Terminal, breaker: Codebreaker, style: str) -> None:
    """From a script: if the replies now contradict each other, name the line that made them
    so, explain the contradiction, and exit 1 (nobody is there to undo it)."""
    if not terminal.interactive and breaker.contradiction is not None:
        end_inconsistent(terminal, breaker, style)


def end_inconsistent(terminal: Terminal, breaker: Codebreaker, style: str) -> NoReturn:
    """Name the line that made the replies contradict each other (on standard error), explain
    the contradiction (in the transcript), and exit 1."""
    terminal.error(f"line {terminal.line} makes the replies contradict each other.")
    show_contradiction(terminal, breaker, style)
    sys.exit(1)


def show_progress(terminal: Terminal, breaker: Codebreaker) -> None:
    """'N choices left' or 'one choice left; it must be X', after a reply."""
    if breaker.solved or breaker.contradiction is not None:
        return
    known = breaker.known
    if known is not None:
        terminal.say(f"    one choice left; it must be {known}")
    else:
        terminal.say(f"    {breaker.remaining} choices left")


def move_of(terminal: Terminal, game: Playable, text: str | None) -> Move:
    """The move a line read at a game's prompt asks for; the end of input gives up. From a
    script, a reply no secret can give is kept, to be explained as a contradiction."""
    if text is None:
        return GiveUp()
    return read_move(game, text, impossible=not terminal.interactive)


def apply_move(terminal: Terminal, game: Game, move: Move) -> Outcome | None:
    """``game.apply(move)``; ``None`` if the move was refused (``refuse_move`` says why)."""
    try:
        return game.apply(move)
    except BullsCowsError as error:
        refuse_move(terminal, move, refusal(game, terminal.typed, error))
        return None


def refuse_move(terminal: Terminal, move: Move, why: str) -> None:
    """Say ``why`` ``move`` was refused: a line that cannot be used (a guess, a reply, a fix)
    is a refused line (from a script, the run then ends with exit code 1); a command the game
    cannot carry out now (undo, hint) is only warned about."""
    if move.refused_as_a_line:
        terminal.refuse(why)
    else:
        terminal.warn(why)


def play_line(
    terminal: Terminal,
    game: Codebreaker | Duel,
    breaker: Codebreaker,
    text: str | None,
    style: str,
) -> Outcome | None:
    """Apply the move ``text`` asks for (``move_of``) and, unless it stops the game, say its
    outcome; a reply that, from a script, makes ``breaker``'s replies contradict each other
    ends the run (``end_if_inconsistent``). ``None`` if the move was refused (saying why)."""
    outcome = apply_move(terminal, game, move_of(terminal, game, text))
    if outcome is None or outcome.stops:
        return outcome
    say_outcome(terminal, outcome, style)
    if outcome.gives_reply:
        end_if_inconsistent(terminal, breaker, style)
    return outcome


def say_outcome(terminal: Terminal, outcome: Outcome, style: str) -> None:
    """The lines a move's outcome shows by itself (a reply recorded shows none), as wide as
    the terminal."""
    say_lines(terminal, outcome.lines(style, terminal.width))


def say_lines(terminal: Terminal, lines: Iterable[str]) -> None:
    """Say each of ``lines`` (the library's words: an outcome's, a secret revealed)."""
    for line in lines:
        terminal.say(line)


def ask_replies(
    terminal: Terminal,
    game: Codebreaker | Duel,
    breaker: Codebreaker,
    style: str,
    until: int,
    label: str,
) -> bool:
    """Ask for replies to the computer's guesses (``breaker``'s, in ``game``) until ``until``
    consistent replies are recorded.

    Undo goes back as far as asked (the guesses are then asked again); a contradiction is
    explained and must be mended. Returns False when the person quits (the game is then given
    up). From a script, a line that cannot be used is named and refused (the next line
    answers the same guess), and a line that makes the replies contradict each other (a reply
    no secret can give included) is explained and ends the command with exit code 1.
    """
    while len(breaker.history) < until or breaker.contradiction is not None:
        if breaker.contradiction is not None:
            show_contradiction(terminal, breaker, style)
            text = terminal.ask(
                f"Type 'undo', a corrected reply to your last guess, {FIX_HELP}, or 'quit': "
            )
            if text == "":
                continue
        else:
            guess = breaker.suggest()
            text = terminal.ask(f"[{len(breaker.history) + 1}] {label}: {guess}  reply: ")
        outcome = play_line(terminal, game, breaker, text, style)
        if outcome is None:
            continue
        if outcome.stops:
            return False
        if outcome.gives_reply:
            show_progress(terminal, breaker)
        if breaker.solved:
            return True
    return True


def audit_secret(terminal: Terminal, breaker: Codebreaker, style: str) -> None:
    """Ask for the person's secret and name every reply that was wrong; Enter, the end of
    input or a word that quits (one that is no code) skips it."""
    while True:
        text = terminal.ask("What was your secret? I'll check your replies (Enter to skip): ")
        if not text:
            return
        try:
            mistakes = breaker.audit(text)
        except BullsCowsError as error:
            if " ".join(text.lower().split()) in QUIT:
                return
            terminal.refuse(f"{error}; type your secret, or Enter to skip")
            continue
        break
    if not mistakes:
        terminal.say("Every reply you gave was right.")
    for m in mistakes:
        step = breaker.history[m.step]
        terminal.warn(
            f"  #{m.step + 1} {step.guess}: you said {m.given.format(style)}, "
            f"but {text} gives {m.true.format(style)}"
        )
