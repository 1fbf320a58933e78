"""What every game shares: checked codes and replies, its seed and its log of events."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from bullscows.codes import Code, of_variant
from bullscows.errors import BullsCowsError, FeedbackError, GameOverError, RecordError
from bullscows.feedback import Feedback
from bullscows.knowledge import Knowledge, Step
from bullscows.records import Event, GameRecord, Status
from bullscows.rules import Rules
from bullscows.seeding import new_seed
from bullscows.words import with_article

#: How a reply is written in a record: bulls then cows.
RECORD_STYLE = "pair"

#: What a front end makes of a game (the type variables of the viewer protocols).
T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


def as_code(code: Code | str, rules: Rules) -> Code:
    """A ``Code`` of ``rules`` from text or a code (of the same variant)."""
    return of_variant(code, rules) if isinstance(code, Code) else Code(code, rules)


def as_feedback(feedback: Feedback | str, rules: Rules, impossible: bool = False) -> Feedback:
    """A reply of ``rules`` from text or a ``Feedback`` (checked either way; ``impossible``
    as ``Feedback.parse`` takes it)."""
    if isinstance(feedback, Feedback):
        problem = feedback.problem(rules)
        fits = feedback.bulls + feedback.cows <= rules.length
        if problem and not (impossible and fits):
            raise FeedbackError(f"reply {feedback.format('pair')!r}: {problem}")
        return feedback
    if not isinstance(feedback, str):
        raise FeedbackError(f"a reply is a Feedback or its text, not {type(feedback).__name__}")
    return Feedback.parse(feedback, rules, impossible)


def random_secret(rules: Rules, rng: random.Random) -> Code:
    """A secret drawn uniformly from the variant's secrets."""
    knowledge = Knowledge.start(rules)
    return knowledge.code(int(knowledge.candidates[rng.randrange(len(knowledge))]))


class Logged:
    """A game of one side's replies that logs what the person does, to be saved as a
    ``GameRecord``.

    ``log`` may be shared: the two sides of a duel write one log, in the order of play.
    """

    rules: Rules
    seed: int
    log: list[Event]
    gave_up: bool
    #: What a move after the code is broken is told.
    BROKEN = "the code is already broken"

    def _start(self, rules: Rules, seed: int | None, log: list[Event] | None) -> None:
        self.rules = rules
        self.seed = new_seed() if seed is None else seed
        self.log = [] if log is None else log
        self.gave_up = False

    @property
    def knowledge(self) -> Knowledge:
        """What the replies so far tell."""
        raise NotImplementedError

    @property
    def move_number(self) -> int:
        """The number of the next move (see ``sessions.moves``): one more than the moves
        logged so far."""
        return len(self.log) + 1

    @property
    def history(self) -> tuple[Step, ...]:
        return self.knowledge.history

    @property
    def remaining(self) -> int:
        """How many codes still fit the replies given so far."""
        return len(self.knowledge)

    @property
    def choosing_among(self) -> int:
        """The codes still possible where ``chooser`` picks its next guess."""
        return self.remaining

    @property
    def solved(self) -> bool:
        return self.knowledge.is_solved

    @property
    def over(self) -> bool:
        return self.solved or self.gave_up

    @property
    def status(self) -> Status:
        if self.solved:
            return Status.SOLVED
        if self.gave_up:
            return Status.GAVE_UP
        return Status.CONTRADICTORY if self.knowledge.is_contradictory else Status.PLAYING

    def _check_playing(self) -> None:
        if self.solved:
            raise GameOverError(f"{self.BROKEN}: {self.history[-1].guess}")
        self._check_not_given_up()

    def _check_not_given_up(self) -> None:
        """Refuse a move once the game is given up (a broken code may still be undone)."""
        if self.gave_up:
            raise GameOverError("the game is over: it was given up")

    def _note(self, action: str, **fields: object) -> None:
        self.log.append(Event(action, **fields))  # type: ignore[arg-type]


def replay(record: GameRecord, kind: str, actions: dict[str, Callable[[Event], object]]) -> None:
    """Apply each event of ``record`` (of ``kind``) with the function of its action; an
    event that cannot be applied is a ``RecordError`` naming it."""
    if record.kind != kind:
        raise RecordError(f"{with_article(record.kind)} record is not {with_article(kind)} game")
    for number, event in enumerate(record.events, 1):
        act = actions.get(event.action)
        if act is None:
            raise RecordError(f"event #{number}: {with_article(kind)} game has no {event.action!r}")
        try:
            act(event)
        except RecordError:
            raise
        except BullsCowsError as error:
            raise RecordError(f"event #{number} ({event.action}): {error}") from None


@contextmanager
def reading_record() -> Iterator[None]:
    """Turn any error of the library into a ``RecordError`` (a record that does not replay)."""
    try:
        yield
    except RecordError:
        raise
    except BullsCowsError as error:
        raise RecordError(f"the record does not replay: {error}") from None


def rules_of(record: GameRecord) -> Rules:
    """The variant of a record (a ``RecordError`` if its spec is no variant)."""
    with reading_record():
        return Rules.parse(record.rules)
