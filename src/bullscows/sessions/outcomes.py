"""What a move tells: the typed outcomes of ``Game.apply``, each with its own words.

Every outcome says what it tells in the lines a terminal prints (``lines(style)``, replies
written in ``style``), what it tells a program besides the game's new state (``scored``,
``hinted``, ``undone``), and what a front end does next (``stops``, ``gives_reply``,
``changes_replies``): no front end needs to know which outcome it holds.

>>> from bullscows.sessions import Codemaker, Guess, Rules, Undo
>>> game = Codemaker(Rules.parse("bc"), secret="2745")
>>> told = game.apply(Guess("1389"))
>>> told.lines("pair"), told.scored.format("bc"), told.stops
(('    0 0',), '0B0C', False)
>>> game.apply(Undo()).lines("bc")
('    took back 1389 -> 0B0C',)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from bullscows.codes import Code
from bullscows.feedback import Feedback, counted
from bullscows.hints import Hint as Explained
from bullscows.knowledge import Knowledge, Step

#: ``Candidates`` lists at most this many codes; the rest are counted.
LIST_AT_MOST = 10_000
#: ``list`` shows at most this many rows of codes, a screenful; ``list all`` shows them all.
SCREENFUL = 20
#: What shows every code still possible (up to ``LIST_AT_MOST``), at a game's prompt.
LIST_ALL = "list all"
#: A line of codes listed is at most this long, unless the front end gives its own width
#: (a terminal's); the count of the others may go beyond.
WIDTH = 100


class Outcome:
    """What a move tells; the defaults are those of an outcome that tells nothing more."""

    #: The game was given up: the front end stops asking.
    stops: ClassVar[bool] = False
    #: A reply was given or put in place of another (what the replies leave is told again).
    gives_reply: ClassVar[bool] = False
    #: The replies changed: one was given, corrected or taken back.
    changes_replies: ClassVar[bool] = False

    def lines(self, style: str = "words", width: int = WIDTH) -> tuple[str, ...]:
        """What it tells, in the lines a terminal prints (replies written in ``style``; a
        list of codes in lines of at most ``width`` characters)."""
        return ()

    @property
    def scored(self) -> Feedback | None:
        """The reply a guess at the computer's code got, if it is one."""
        return None

    @property
    def hinted(self) -> Explained | None:
        """The hint asked for, if it is one."""
        return None

    @property
    def undone(self) -> Step | None:
        """The guess and reply taken back, if it is one."""
        return None


@dataclass(frozen=True)
class Scored(Outcome):
    """A guess and the reply it got; ``remaining``: the codes still possible, told while a
    game with hints goes on."""

    guess: Code
    feedback: Feedback
    remaining: int | None = None

    def lines(self, style: str = "words", width: int = WIDTH) -> tuple[str, ...]:
        line = f"    {self.feedback.format(style)}"
        if self.remaining is not None:
            line += f"  ({counted(self.remaining, 'code')} still possible)"
        return (line,)

    @property
    def scored(self) -> Feedback:
        return self.feedback


@dataclass(frozen=True)
class Noted(Outcome):
    """A reply (to the computer's guess, or to a guess made elsewhere) is recorded; it tells
    nothing by itself."""

    step: Step
    gives_reply = True
    changes_replies = True


@dataclass(frozen=True)
class Undone(Outcome):
    """The step taken back."""

    step: Step
    changes_replies = True

    def lines(self, style: str = "words", width: int = WIDTH) -> tuple[str, ...]:
        return (f"    took back {self.step.guess} -> {self.step.feedback.format(style)}",)

    @property
    def undone(self) -> Step:
        return self.step


@dataclass(frozen=True)
class Fixed(Outcome):
    """Reply ``step`` (from 1) was ``before`` and is now ``after``'s."""

    step: int
    before: Feedback
    after: Step
    gives_reply = True
    changes_replies = True

    def lines(self, style: str = "words", width: int = WIDTH) -> tuple[str, ...]:
        old, new = self.before.format(style), self.after.feedback.format(style)
        return (f"    #{self.step} {self.after.guess}: {old} is now {new}",)


@dataclass(frozen=True)
class GaveUp(Outcome):
    """The game is given up; ``secret``: the computer's code (``None`` where it holds none),
    ``picked``: whether it had picked one (an adversary commits only when asked), ``hidden``:
    whether the code stays hidden (``HIDDEN``: given up before its first guess)."""

    secret: Code | None
    picked: bool = True
    hidden: bool = False
    stops = True

    def lines(self, style: str = "words", width: int = WIDTH) -> tuple[str, ...]:
        return (HIDDEN,) if self.hidden else revealed(self.secret, self.picked)


#: What a game given up before its first guess says of its secret, which it does not show: the
#: game does not count, and the same secret (a daily puzzle's, a seeded game's) can be played.
HIDDEN = "The secret stays hidden, so that this game can be played again."
#: The words that confirm giving up (a game's ``giving_up``): the computer's code is shown,
#: or, before the first guess at a code it picked, stays hidden (``HIDDEN``).
GIVE_UP_SHOWS = "Yes, give up and show the code"
GIVE_UP_HIDES = "Yes, give up before a guess (the code stays hidden)"


def revealed(secret: Code | None, picked: bool = True) -> tuple[str, ...]:
    """The words that show the computer's code once a game is over (none without one);
    ``picked``: whether it had picked it (an adversary shows a code that fits every reply).

    >>> from bullscows.rules import Rules
    >>> revealed(Code("2745", Rules.parse("bc")))
    ('The secret was 2745.',)
    """
    if secret is None:
        return ()
    if picked:
        return (f"The secret was {secret}.",)
    return ("There was no secret: I never picked one.",
            f"A secret that fits every reply I gave: {secret}.")  # fmt: skip


def duel_stopped(secret: Code) -> str:
    """What a duel stopped before its end says, at either prompt: the computer's secret.

    >>> from bullscows.rules import Rules
    >>> duel_stopped(Code("2745", Rules.parse("bc")))
    'Stopped. My secret was 2745.'
    """
    return f"Stopped. My secret was {secret}."


@dataclass(frozen=True)
class Hinted(Outcome):
    """The hint strategy's guess, explained."""

    hint: Explained

    def lines(self, style: str = "words", width: int = WIDTH) -> tuple[str, ...]:
        return tuple(self.hint.describe(style))

    @property
    def hinted(self) -> Explained:
        return self.hint


@dataclass(frozen=True)
class Suggested(Outcome):
    """The computer's suggested guess; ``source``: where it came from, when not from the
    strategy's own rule."""

    guess: Code
    source: str | None = None

    def lines(self, style: str = "words", width: int = WIDTH) -> tuple[str, ...]:
        source = f" ({self.source})" if self.source else ""
        return (f"Suggested guess: {self.guess}{source}",)


@dataclass(frozen=True)
class Listed(Outcome):
    """At most ``LIST_AT_MOST`` of the ``remaining`` codes still possible, shown a screenful
    at most (``SCREENFUL`` rows) unless ``every`` one was asked for (``list all``).

    >>> from bullscows.knowledge import Knowledge
    >>> from bullscows.rules import Rules
    >>> listed = Listed.of(Knowledge.start(Rules.parse("bc")))
    >>> rows = listed.lines()
    >>> len(rows), rows[-1]
    (20, "  ... and 4,679 more: 'list all' shows them all")
    >>> len(Listed.of(Knowledge.start(Rules.parse("bc")), every=True).lines())
    266
    """

    codes: tuple[Code, ...]
    remaining: int
    every: bool = False

    @classmethod
    def of(cls, knowledge: Knowledge, every: bool = False) -> Listed:
        """The codes ``knowledge`` leaves possible, as a game's ``list`` shows them."""
        return cls(tuple(knowledge.candidate_codes(LIST_AT_MOST)), len(knowledge), every)

    def lines(self, style: str = "words", width: int = WIDTH) -> tuple[str, ...]:
        """The codes, as many to a line as fit in ``width`` characters (``code_rows``), at
        most a screenful unless ``every`` one was asked for."""
        rows = code_rows(self.codes, self.remaining, width)
        if self.every or len(rows) <= SCREENFUL:
            return rows
        shown = sum(len(row.split()) for row in rows[: SCREENFUL - 1])
        then = f": {LIST_ALL!r} shows them all"
        return code_rows(self.codes[:shown], self.remaining, width, then)


def code_rows(
    codes: Iterable[Code], count: int, width: int = WIDTH, then: str = ""
) -> tuple[str, ...]:
    """``codes``, indented, as many to a line as fit in ``width`` characters (at least one),
    then how many of the ``count`` codes possible were not listed (on a row of its own
    where it does not fit on the last), followed by ``then``.

    >>> from bullscows.rules import Rules
    >>> codes = [Code(f"{n:02}", Rules.parse("p2c10r")) for n in range(40)]
    >>> rows = code_rows(codes, 1045)
    >>> [len(row) for row in rows], rows[-1]
    ([100, 41], '  33 34 35 36 37 38 39 ... and 1,005 more')
    >>> code_rows(codes[:5], 5, width=10)
    ('  00 01 02', '  03 04')
    >>> code_rows(codes[:5], 12, width=18)
    ('  00 01 02 03 04', '  ... and 7 more')
    """
    words = [str(code) for code in codes]
    more = count - len(words)
    if more > 0:
        words.append(f"... and {more:,} more{then}")
    rows = [""]
    for word in words:
        if rows[-1] and len(rows[-1]) + len(word) + 3 > width:
            rows.append("")
        rows[-1] += f" {word}" if rows[-1] else word
    return tuple(f"  {row}" for row in rows)


@dataclass(frozen=True)
class Shown(Outcome):
    """The guesses and replies so far."""

    history: tuple[Step, ...]

    def lines(self, style: str = "words", width: int = WIDTH) -> tuple[str, ...]:
        if not self.history:
            return ("  Nothing yet.",)
        return tuple(f"  [{i}] {step.guess}  {step.feedback.format(style)}"
                     for i, step in enumerate(self.history, 1))  # fmt: skip


@dataclass(frozen=True)
class Helped(Outcome):
    """What may be typed at the prompt, in ``text``'s lines."""

    text: tuple[str, ...]

    def lines(self, style: str = "words", width: int = WIDTH) -> tuple[str, ...]:
        return self.text
