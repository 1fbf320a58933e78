"""Histories pasted into ``assist``: every line is used or refused by itself, and the answer is
the brute force's.

Random histories, honest (every reply the secret's), ambiguous (few guesses: many codes left)
or inconsistent (a reply changed, or one no secret can give), with lines that cannot be used
mixed in, are piped to ``bullscows assist``. The expected answer is worked out here with
itertools over every code (``conftest``), not with the library's knowledge code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from bullscows import Rules
from bullscows.cli import main
from bullscows.feedback import counted

from .conftest import all_codes, bulls_cows, narrow

BC = Rules.parse("bc")
CODES = all_codes(BC)
#: Lines no entry can be made of: not a code, a guess with no reply, a reply that cannot be read
#: or that exceeds the code's length.
UNUSABLE = ["12x4 1 2", "1123", "2", "1263", "12345 0 0", "1234 oops", "1234 5 0", "0123 1 2 3"]


@dataclass(frozen=True)
class Entry:
    """A line of the pasted history; ``reply`` is ``None`` for a line that cannot be used."""

    text: str
    guess: str = ""
    reply: tuple[int, int] | None = None


@st.composite
def histories(draw: st.DrawFn) -> list[Entry]:
    secret = draw(st.sampled_from(CODES))
    kind = draw(st.sampled_from(["honest", "ambiguous", "inconsistent"]))
    size = draw(st.integers(1, 2 if kind == "ambiguous" else 7))
    entries = []
    for _ in range(size):
        guess = draw(st.sampled_from(CODES))
        reply = bulls_cows(secret, guess)
        if kind == "inconsistent" and draw(st.booleans()):
            reply = draw(st.sampled_from([(3, 1), (0, 0), (1, 1), (0, 4), (2, 2), (1, 2)]))
        if reply == (4, 0) and guess == secret and kind != "inconsistent":
            reply = (3, 0)  # keep most histories open: a win is checked on its own
        entries.append(Entry(f"{guess} {reply[0]} {reply[1]}", guess, reply))
        if draw(st.integers(0, 3)) == 0:
            entries.append(Entry(draw(st.sampled_from(UNUSABLE))))
    return entries


@settings(max_examples=60)
@given(histories())
def test_pasted_history_matches_brute_force(entries: list[Entry]) -> None:
    text = "".join(f"{e.text}\n" for e in entries)
    result = CliRunner().invoke(
        main, ["assist", "--strategy", "simple"], input=text, env={"COLUMNS": "300"}
    )
    assert "Traceback" not in result.output
    assert "Reply to" not in result.output  # nothing is asked of a script
    _, *answers = re.split(r"(?m)^> ", result.stdout)
    left, refused, last = list(CODES), False, None
    for number, entry in enumerate(entries, start=1):
        answer = answers[number - 1]
        if entry.reply is None:
            assert answer == "\n", (number, answer)  # said on stderr alone
            assert f"Error: line {number}: " in result.stderr
            refused = True
            continue
        left = narrow(left, entry.guess, entry.reply)
        if not left:  # the first line no code fits: named, explained, and the end
            assert f"Error: line {number} makes the replies contradict each other." in (
                result.stderr
            )
            assert answer.startswith("\nYour replies contradict each other: no code fits them all.")
            assert len(answers) == number
            assert result.exit_code == 1
            return
        last = answer
        if entry.reply == (4, 0):
            guesses = counted(number - _refused(entries, number), "guess")
            assert answer.strip() == f"Solved in {guesses}: {entry.guess}."
            return
    assert result.exit_code == (1 if refused else 0)
    assert len(answers) == len(entries) + 1  # the end of input
    if last is None:
        return
    if len(left) == 1:
        assert last.strip() == f"One code left: it must be {left[0]}."
    else:
        assert f"{len(left)} codes possible." in last.splitlines()
        if len(left) <= 12:
            assert "  " + " ".join(left) in last.splitlines()


def _refused(entries: list[Entry], number: int) -> int:
    """How many of the first ``number`` lines were refused."""
    return sum(e.reply is None for e in entries[:number])


def test_a_win_pasted_mid_history_is_solved() -> None:
    result = CliRunner().invoke(
        main, ["assist", "--strategy", "simple"], input="1389 0 0\n2\n2745 4 0\n"
    )
    assert result.exit_code == 1  # the line '2' was refused
    assert "Error: line 2: " in result.stderr
    assert "Solved in 2 guesses: 2745." in result.output
