"""A one-shot question about a history, as programming contests pose it: given these guesses
and replies, is the secret determined, undetermined, or is the data inconsistent?

A reply that no guess can get (``3 1`` with 4 positions) is data here, not a typo to skip: it
makes the history inconsistent, and the account says so.

>>> rules = Rules.parse("bc")
>>> history = read_history(["7019 1 1", "5873 0 1", "7921 3 1"], rules)
>>> found = answer(rules, history)
>>> found.status, found.count
('inconsistent', 0)
>>> found.lines("pair")[1]
'No code can give reply #3 7921 -> 3 1.'
>>> found.error
'no code fits every reply: the history is inconsistent'
>>> answer(rules, history[:2], limit=3).lines()[0]
'Undetermined: 222 codes possible.'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from bullscows.codes import Code, code_and_rest
from bullscows.errors import BullsCowsError
from bullscows.knowledge import Contradiction, Knowledge, Step
from bullscows.readers import normal_text, quote
from bullscows.rules import Rules
from bullscows.sessions.common import as_code, as_feedback
from bullscows.sessions.outcomes import WIDTH, code_rows

#: Codes listed by default when the secret is not determined.
DEFAULT_LIMIT = 20


def read_step(text: str, rules: Rules, unit: str = "line") -> Step:
    """A guess and its reply on one line (``'7019 1 1'``, ``'7019 1B1C'``), or in one
    command-line argument (``unit``); any reply that fits the code length is taken, even one
    no guess can get.

    >>> read_step("0123 3 1", Rules.parse("bc")).feedback
    Feedback(bulls=3, cows=1)
    >>> read_step("7019", Rules.parse("bc"), "argument")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: '7019': a guess and its reply are one argument: quote ...
    """
    guess, reply = code_and_rest(normal_text(text), rules)
    code = as_code(guess, rules)
    if not reply.strip():
        together = (
            f'are one argument: quote them together, e.g. "{code.text} 1 2"'
            if unit == "argument"
            else f"go on one line, e.g. '{code.text} 1 2'"
        )
        raise BullsCowsError(f"{quote(text.strip())}: a guess and its reply {together}")
    return Step(code, as_feedback(reply, rules, impossible=True))


def read_history(lines: Iterable[str], rules: Rules, unit: str = "line") -> list[Step]:
    """One step per line; blank lines and lines starting with ``#`` are skipped. An error
    names its line (or other ``unit``: ``'argument'``).

    >>> read_history(["0123 1 1", "", "12x4 0 0"], Rules.parse("bc"))
    Traceback (most recent call last):
    ...
    bullscows.errors.CodeError: line 3: code '12x4': 'x' is not a symbol; symbols are 0-9
    """
    return [step for _, step in numbered_steps(lines, rules, unit)]


def numbered_steps(
    lines: Iterable[str], rules: Rules, unit: str = "line"
) -> Iterator[tuple[int, Step]]:
    """Each step (``read_history``) with the number of its line, counted from 1."""
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            yield number, read_step(line, rules, unit)
        except BullsCowsError as error:
            raise type(error)(f"{unit} {number}: {error}") from None


@dataclass(frozen=True, slots=True)
class Answer:
    """What a history says: ``status`` is ``determined`` (one code), ``undetermined``
    (several) or ``inconsistent`` (none, with ``contradiction``); ``codes`` are the first
    ``limit`` codes possible, in the variant's order."""

    rules: Rules
    history: tuple[Step, ...]
    count: int
    codes: tuple[Code, ...]
    contradiction: Contradiction | None

    @property
    def error(self) -> str | None:
        """Why a script is told the history is bad data (``candidates`` exits 1, as
        ``analyse`` does): no code fits it; ``None`` when some code does."""
        if self.contradiction is None:
            return None
        return "no code fits every reply: the history is inconsistent"

    @property
    def status(self) -> str:
        if self.count == 0:
            return "inconsistent"
        return "determined" if self.count == 1 else "undetermined"

    def lines(self, style: str = "words", width: int = WIDTH) -> list[str]:
        """The answer for a person, replies in ``style``, codes listed in lines of at most
        ``width`` characters."""
        if self.contradiction is not None:
            return ["Inconsistent: no code fits every reply.", *self.contradiction.describe(style)]
        if self.count == 1:
            return [f"Determined: the secret is {self.codes[0]}."]
        shown = [f"Undetermined: {self.count:,} codes possible."]
        if self.codes:
            shown += code_rows(self.codes, self.count, width)
        return shown

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "rules": self.rules.spec,
            "status": self.status,
            "count": self.count,
            "codes": [code.text for code in self.codes],
        }
        if self.contradiction is not None:
            data["contradiction"] = self.contradiction.to_json()
        return data


def answer(rules: Rules, history: Iterable[Step], limit: int = DEFAULT_LIMIT) -> Answer:
    """What ``history`` says about the secret (see ``Answer``); at most ``limit`` codes listed."""
    steps = tuple(history)
    knowledge = Knowledge.from_history(rules, steps)
    contradiction = knowledge.explain() if knowledge.is_contradictory and steps else None
    codes = tuple(knowledge.candidate_codes(1 if len(knowledge) == 1 else limit))
    return Answer(rules, steps, len(knowledge), codes, contradiction)
