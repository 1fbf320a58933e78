"""The dialogue of a computer codebreaker: ask for replies, undo, explain contradictions.

Shared by ``solve``, ``duel`` and ``assist``.
"""

from __future__ import annotations

import re
import sys
from typing import NoReturn

from bullscows.cli.common import QUIT, REPLY_HELP, Terminal
from bullscows.errors import BullsCowsError
from bullscows.sessions import Codebreaker


def show_contradiction(terminal: Terminal, breaker: Codebreaker, style: str) -> None:
    contradiction = breaker.contradiction
    if contradiction is None:
        return
    terminal.warn("Your replies contradict each other: no code fits them all.")
    for line in contradiction.describe(style):
        terminal.say(line)


def end_inconsistent(terminal: Terminal, breaker: Codebreaker, style: str) -> NoReturn:
    """From a script: name the line that made the replies contradict each other, explain
    the contradiction, and exit 1 (nobody is there to undo it)."""
    terminal.warn(f"Line {terminal.line} makes the replies contradict each other.")
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


def take_back(terminal: Terminal, breaker: Codebreaker, style: str) -> None:
    try:
        step = breaker.undo()
    except BullsCowsError as error:
        terminal.warn(str(error))
        return
    terminal.say(f"    took back {step.guess} -> {step.feedback.format(style)}")


#: ``fix N REPLY`` (or ``correct #N REPLY``) replaces reply number N.
FIX = re.compile(r"(?:fix|correct)\s+#?(\d{1,9})\s+(\S.*)", re.IGNORECASE)
FIX_HELP = "'fix N REPLY' replaces reply #N"


def correct(
    terminal: Terminal,
    breaker: Codebreaker,
    number: int,
    text: str,
    style: str,
    progress: bool = True,
) -> None:
    """Replace reply ``number`` (from 1) by ``text`` (kept as it was if ``text`` is bad);
    with ``progress``, then say how many choices are left."""
    try:
        before = breaker.history[number - 1].feedback if number <= len(breaker.history) else None
        breaker.correct(number, text)
    except BullsCowsError as error:
        terminal.warn(str(error))
        return
    step = breaker.history[number - 1]
    old = "" if before is None else f"{before.format(style)} is now "
    terminal.say(f"    #{number} {step.guess}: {old}{step.feedback.format(style)}")
    if progress:
        show_progress(terminal, breaker)


def mend(terminal: Terminal, breaker: Codebreaker, text: str, style: str) -> bool:
    """Carry out ``undo`` or ``fix N REPLY``; whether ``text`` was one of them."""
    fix = FIX.fullmatch(text)
    if fix is not None:
        correct(terminal, breaker, int(fix.group(1)), fix.group(2), style)
    elif text.lower() in ("undo", "u"):
        take_back(terminal, breaker, style)
    else:
        return False
    return True


def ask_replies(
    terminal: Terminal, breaker: Codebreaker, style: str, until: int, label: str
) -> bool:
    """Ask for replies to the computer's guesses until ``until`` consistent replies are recorded.

    Undo goes back as far as asked (the guesses are then asked again); a contradiction is
    explained and must be undone. Returns False when the person quits. From a script, a line
    that is no reply is named and refused (the next line answers the same guess), and a line
    that makes the replies contradict each other (a reply no secret can give included) is
    explained and ends the command with exit code 1.
    """
    while len(breaker.history) < until or breaker.contradiction is not None:
        if breaker.contradiction is not None:
            show_contradiction(terminal, breaker, style)
            text = terminal.ask(
                f"Type 'undo', a corrected reply to your last guess, {FIX_HELP}, or 'quit': "
            )
            if text is None or text.lower() in QUIT:
                return False
            if text and not mend(terminal, breaker, text, style):
                correct(terminal, breaker, len(breaker.history), text, style)
            continue
        guess = breaker.suggest()
        text = terminal.ask(f"[{len(breaker.history) + 1}] {label}: {guess}  reply: ")
        if text is None or text.lower() in QUIT:
            return False
        if mend(terminal, breaker, text, style):
            pass
        elif text.lower() in ("help", "?"):
            terminal.say(f"{REPLY_HELP} Commands: undo, {FIX_HELP}, quit.")
        else:
            try:
                breaker.reply(text, impossible=not terminal.interactive)
            except BullsCowsError as error:
                terminal.refuse(str(error))
                continue
            if not terminal.interactive and breaker.contradiction is not None:
                end_inconsistent(terminal, breaker, style)
            show_progress(terminal, breaker)
        if breaker.solved:
            return True
    return True


def audit_secret(terminal: Terminal, breaker: Codebreaker, style: str) -> None:
    """Ask for the person's secret and name every reply that was wrong."""
    while True:
        text = terminal.ask("What was your secret? I'll check your replies (Enter to skip): ")
        if not text:
            return
        try:
            mistakes = breaker.audit(text)
        except BullsCowsError as error:
            terminal.warn(str(error))
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
