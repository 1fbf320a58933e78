"""The computer as codebreaker: it guesses a code it cannot see from a person's replies.

With ``record`` it also assists a person who plays elsewhere (any guess, any reply,
suggestions, undo). Every reply is kept, even one that makes the history contradictory:
``contradiction`` then explains it, and ``undo`` or ``correct`` mends it.

>>> breaker = Codebreaker(Rules.parse("bc"), "minimax", seed=1)
>>> breaker.suggest().text, breaker.reply("0 0").history[-1].feedback.format("pair")
('0123', '0 0')
>>> breaker.correct(1, "0 1").history[-1].feedback.format("pair"), breaker.remaining
('0 1', 1440)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from bullscows.codes import Code, code_and_rest
from bullscows.errors import (
    BullsCowsError,
    FeedbackError,
    GameOverError,
    NothingToUndoError,
)
from bullscows.feedback import Feedback
from bullscows.knowledge import Contradiction, Knowledge, Mistake, Step, audit
from bullscows.records import Event, GameRecord
from bullscows.rules import Rules
from bullscows.seeding import MoveRandom
from bullscows.sessions.common import (
    RECORD_STYLE,
    Logged,
    T,
    T_co,
    as_code,
    as_feedback,
    reading_record,
    replay,
    rules_of,
)
from bullscows.sessions.moves import (
    REPLY_HELP,
    REPLY_PROMPT_HELP,
    Candidates,
    Fix,
    GiveUp,
    History,
    Move,
    Record,
    Reply,
    Suggest,
    Undo,
    check_move,
    fix_usage,
    given,
)
from bullscows.sessions.moves import Help as AskHelp
from bullscows.sessions.outcomes import (
    Fixed,
    GaveUp,
    Helped,
    Listed,
    Noted,
    Outcome,
    Shown,
    Suggested,
    Undone,
)
from bullscows.sessions.question import numbered_steps
from bullscows.strategies import DEFAULT_STRATEGY, Strategy, StrategySpec, get_strategy


class BreakerViewer(Protocol[T_co]):
    """What a front end shows of a game of the computer's guesses (see ``sessions.Viewer``)."""

    def breaker(self, game: Codebreaker) -> T_co: ...


class Codebreaker(Logged):
    """The computer breaks a secret it cannot see, from the replies a person gives.

    With ``assist`` it reads a line as a guess made elsewhere and its reply (``Record``),
    and also suggests guesses and lists the codes left; else a line is a reply to its guess.
    """

    kind = "codebreaker"
    BROKEN = "the code is already broken (undo to change a reply)"
    #: The computer picks a guess at every move.
    chooses_always = True

    def __init__(
        self,
        rules: Rules,
        strategy: Strategy | StrategySpec | str = DEFAULT_STRATEGY,
        seed: int | None = None,
        log: list[Event] | None = None,
        assist: bool = False,
    ) -> None:
        self._start(rules, seed, log)
        self.assist = assist
        self.strategy = strategy if isinstance(strategy, Strategy) else get_strategy(strategy)
        self._stack = [Knowledge.start(rules)]
        self._suggestions: dict[int, Code] = {}
        self._sources: dict[int, str | None] = {}  # where each suggestion came from

    def __repr__(self) -> str:
        return f"Codebreaker({self.rules!r}, {self.strategy!r}, {len(self.history)} replies)"

    @property
    def knowledge(self) -> Knowledge:
        return self._stack[-1]

    @property
    def chooser(self) -> Strategy:
        """The strategy that picks the computer's guesses."""
        return self.strategy

    def shown_by(self, viewer: BreakerViewer[T]) -> T:
        """What ``viewer`` shows of a game of the computer's guesses."""
        return viewer.breaker(self)

    def command(self, analysis: bool = False) -> str:
        """The terminal command that plays a game like this one (``analysis`` aside: only a
        person's guesses are analysed)."""
        name = "assist" if self.assist else "solve"
        return f"bullscows {name} --rules {self.rules.spec} --strategy {self.strategy.name}"

    @property
    def contradiction(self) -> Contradiction | None:
        """Why the replies cannot all be true, or ``None`` while they can."""
        return self.knowledge.explain() if self.knowledge.is_contradictory else None

    @property
    def known(self) -> Code | None:
        """The secret, once exactly one code remains."""
        return (
            self.knowledge.code(int(self.knowledge.candidates[0])) if self.remaining == 1 else None
        )

    @property
    def accepts(self) -> tuple[type[Move], ...]:
        first: tuple[type[Move], ...] = (Record, Suggest, Candidates) if self.assist else (Reply,)
        return (*first, Fix, Undo, GiveUp, History, AskHelp)

    def bare_move(self, text: str) -> Move:
        """A guess and its reply (assist); else a reply to the suggested guess, or, while the
        replies contradict each other, the last reply corrected."""
        if self.assist:
            code, reply = code_and_rest(text, self.rules)
            return Record(code, reply)
        if self.history and self.knowledge.is_contradictory:
            return Fix(len(self.history), text)
        return Reply(text)

    def apply(self, move: Move) -> Outcome:
        """Carry out ``move`` (see ``sessions.moves``): a reply, an undo, a fix, ..."""
        check_move(self, move)
        if isinstance(move, Reply):
            self.reply(given(move.reply, "reply"), move.impossible)
            return Noted(self.history[-1])
        if isinstance(move, Record):
            self._check_playing()
            code = as_code(given(move.code, "code"), self.rules)
            if not move.reply:
                raise FeedbackError(
                    f"guess {code.text!r} has no reply: give a guess and its reply on one "
                    f"line, e.g. '{code.text} 1 2'"
                )
            self.record(code, move.reply, move.impossible)
            return Noted(self.history[-1])
        if isinstance(move, Fix):
            history = self.history
            if move.typed:  # no fix command: given up, said as any move is; a broken code
                self._check_not_given_up()  # may still be fixed, so its usage is told then
                raise FeedbackError(fix_usage(move.typed, len(history)))
            before = history[move.step - 1].feedback if 0 < move.step <= len(history) else None
            self.correct(move.step, given(move.reply, "reply"))
            assert before is not None  # correct refuses a step that was not given
            return Fixed(move.step, before, self.history[move.step - 1])
        if isinstance(move, Undo):
            return Undone(self.undo())
        if isinstance(move, GiveUp):
            self.give_up()
            return GaveUp(None)
        if isinstance(move, Suggest):
            return Suggested(self.suggest(), self.source)  # the suggestion first: its source
        if isinstance(move, Candidates):
            return Listed.of(self.knowledge, move.every)
        if isinstance(move, History):
            return Shown(self.history)
        if self.assist:
            return Helped((f"Enter 'GUESS REPLY', e.g. '0123 1 2'. {REPLY_HELP}",))
        return Helped((REPLY_PROMPT_HELP,))

    def suggest(self) -> Code:
        """The strategy's next guess (the same one until the knowledge changes)."""
        self._check_playing()
        depth = len(self._stack)
        if depth not in self._suggestions:
            self.knowledge.refuse_contradiction()
            rng = MoveRandom(self.seed, "breaker", len(self.history))
            index = self.strategy.next_guess(self.knowledge, rng)
            self._suggestions[depth] = self.knowledge.code(index)
            self._sources[depth] = self.strategy.source
        return self._suggestions[depth]

    @property
    def source(self) -> str | None:
        """Where the suggestion now standing came from, when not from the strategy's own rule
        (``Strategy.source``: an optimal strategy's game off its tree)."""
        depth = len(self._stack)
        return self._sources.get(depth) if depth in self._suggestions else None

    def record(
        self, guess: Code | str, feedback: Feedback | str, impossible: bool = False
    ) -> Knowledge:
        """Remember that ``guess`` got ``feedback``; both are checked first.

        A reply no secret can give (3 bulls and 1 cow) is refused, unless ``impossible``: it is
        then kept, and ``contradiction`` explains it like any other.

        >>> breaker = Codebreaker(Rules.parse("bc"))
        >>> breaker.record("1234", "3 1", impossible=True).is_contradictory
        True
        >>> breaker.contradiction.describe()[0]
        'No code can give reply #1 1234 -> 3 bulls, 1 cow.'
        """
        self._check_playing()
        code = as_code(guess, self.rules)
        reply = as_feedback(feedback, self.rules, impossible)
        self._push(code, reply)
        self._note("record", code=code.text, reply=reply.format(RECORD_STYLE))
        return self.knowledge

    def reply(self, feedback: Feedback | str, impossible: bool = False) -> Knowledge:
        """The reply to the suggested guess (``impossible`` as ``record`` takes it)."""
        guess = self.suggest()
        reply = as_feedback(feedback, self.rules, impossible)
        self._push(guess, reply)
        self._note("reply", code=guess.text, reply=reply.format(RECORD_STYLE))
        return self.knowledge

    def undo(self) -> Step:
        """Take back the last guess and reply (also once the code is broken)."""
        self._check_not_given_up()
        if len(self._stack) == 1:
            raise NothingToUndoError("nothing to undo: no reply has been given yet")
        step = self.knowledge.history[-1]
        self._suggestions.pop(len(self._stack), None)
        self._stack.pop()
        self._note("undo")
        return step

    def correct(self, number: int, feedback: Feedback | str) -> Knowledge:
        """Replace the reply to guess ``number`` (from 1), keeping the guesses after it.

        Only the last reply may become all bulls: guesses came after any other.
        """
        self._check_not_given_up()
        history = self.history
        if not 1 <= number <= len(history):
            given = f"replies #1 to #{len(history)} were given" if history else "none was given"
            raise NothingToUndoError(f"there is no reply #{number} to correct: {given}")
        reply = as_feedback(feedback, self.rules)
        if reply.is_win(self.rules.length) and number < len(history):
            raise FeedbackError(
                f"reply #{number} cannot be all bulls: guesses were made after it; "
                "undo back to it first"
            )
        del self._stack[number:]
        for key in [depth for depth in self._suggestions if depth > number]:
            del self._suggestions[key]
        self._push(history[number - 1].guess, reply)
        for step in history[number:]:
            self._push(step.guess, step.feedback)
        self._note("correct", step=number, reply=reply.format(RECORD_STYLE))
        return self.knowledge

    def give_up(self) -> None:
        """Stop before the code is broken."""
        self._check_playing()
        self.gave_up = True
        self._note("give-up")

    def audit(self, secret: Code | str) -> list[Mistake]:
        """Every reply that ``secret`` would not have given."""
        return audit(self.rules, self.history, as_code(secret, self.rules))

    def _push(self, guess: Code, reply: Feedback) -> None:
        self._stack.append(self.knowledge.after(guess, reply))

    def to_record(self) -> GameRecord:
        return GameRecord(self.kind, self.rules.spec, self.seed, self.strategy.spec, None,
                          tuple(self.log))  # fmt: skip

    @classmethod
    def from_record(
        cls, record: GameRecord, log: list[Event] | None = None, assist: bool = False
    ) -> Codebreaker:
        """The game ``record`` describes, replayed (the strategy is not asked again: each
        ``reply`` event names the guess it answered)."""
        strategy = record.strategy or StrategySpec()
        with reading_record():
            game = cls(rules_of(record), strategy, record.seed, log, assist)
        replay(record, cls.kind, game.actions())
        return game

    def actions(self) -> dict[str, Callable[[Event], object]]:
        """How each event of a record is replayed on this game."""
        return {
            "reply": self._replay_reply,
            "record": lambda e: self.record(str(e.code), str(e.reply), impossible=True),
            "undo": lambda e: self.undo(),
            "correct": lambda e: self.correct(e.step or 0, str(e.reply)),
            "give-up": lambda e: self.give_up(),
        }

    def _replay_reply(self, event: Event) -> None:
        self._check_playing()
        guess = as_code(str(event.code), self.rules)
        reply = as_feedback(str(event.reply), self.rules, impossible=True)
        self._suggestions[len(self._stack)] = guess
        self._sources[len(self._stack)] = None
        self._push(guess, reply)
        self._note("reply", code=guess.text, reply=reply.format(RECORD_STYLE))


def read_game(lines: Iterable[str], rules: Rules, unit: str = "line") -> tuple[Step, ...]:
    """The guesses and replies of a game played elsewhere, one a line (``read_history``),
    each checked as a ``Codebreaker`` records it; an error names its line (or ``unit``).

    >>> read_game(["# a game", "0123 4 0", "4567 0 0"], Rules.parse("bc"))
    Traceback (most recent call last):
    ...
    bullscows.errors.GameOverError: line 3: 4567 comes after the code was broken by 0123
    """
    breaker = Codebreaker(rules, assist=True)
    for number, step in numbered_steps(lines, rules, unit):
        try:
            if breaker.solved:
                broken = breaker.history[-1].guess
                raise GameOverError(f"{step.guess} comes after the code was broken by {broken}")
            breaker.record(step.guess, step.feedback, impossible=True)
        except BullsCowsError as error:
            raise type(error)(f"{unit} {number}: {error}") from None
    return breaker.history
