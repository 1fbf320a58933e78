"""A duel: each round the person guesses the computer's code, then the computer guesses theirs.

The game goes on until both codes are broken; fewer guesses wins. ``awaiting`` says whose move
it is; moves out of turn are refused, so any front end plays the same order.

>>> game = Duel(Rules.parse("bc"), "simple", seed=1, secret="0123")
>>> game.awaiting
<DuelTurn.GUESS: 'guess'>
>>> str(game.guess("0123")), game.awaiting, game.suggest().text
('4 bulls, 0 cows', <DuelTurn.REPLY: 'reply'>, '0123')
>>> _ = game.reply("0 0"); game.winner()
<Winner.PERSON: 'person'>
"""

from __future__ import annotations

from enum import Enum
from typing import Protocol

from bullscows.codes import Code
from bullscows.errors import GameOverError, TurnError
from bullscows.feedback import Feedback
from bullscows.knowledge import Knowledge, Step
from bullscows.records import Event, GameRecord, Status, Winner
from bullscows.rules import Rules
from bullscows.seeding import new_seed
from bullscows.sessions.breaking import Codebreaker
from bullscows.sessions.common import T, T_co, reading_record, replay, rules_of
from bullscows.sessions.making import Codemaker
from bullscows.sessions.moves import (
    FIX_HELP,
    REPLY_PROMPT_HELP,
    Fix,
    GiveUp,
    Guess,
    History,
    Move,
    Reply,
    Undo,
    check_move,
    given,
)
from bullscows.sessions.moves import Help as AskHelp
from bullscows.sessions.outcomes import GIVE_UP_SHOWS, GaveUp, Helped, Outcome, Scored, Shown
from bullscows.strategies import DEFAULT_STRATEGY, Strategy, StrategySpec


class DuelViewer(Protocol[T_co]):
    """What a front end shows of a duel (see ``sessions.Viewer``)."""

    def duel(self, game: Duel) -> T_co: ...


class DuelTurn(Enum):
    """What a duel waits for."""

    GUESS = "guess"  # the person's guess at the computer's code
    REPLY = "reply"  # the person's reply to the computer's guess (or a mended contradiction)


class Duel:
    """Both at once: the person against ``maker``, the computer (``breaker``) against them."""

    kind = "duel"
    #: Its turns are checked by each move (a move out of turn is a ``TurnError``).
    accepts: tuple[type[Move], ...] = (Guess, Reply, Fix, Undo, GiveUp, History, AskHelp)
    #: The computer picks a guess at every round.
    chooses_always = True

    def __init__(
        self,
        rules: Rules,
        strategy: Strategy | StrategySpec | str = DEFAULT_STRATEGY,
        seed: int | None = None,
        secret: Code | str | None = None,
    ) -> None:
        self.rules = rules
        self.seed = new_seed() if seed is None else seed
        self.log: list[Event] = []
        self.maker = Codemaker(rules, secret, self.seed, log=self.log)
        self.breaker = Codebreaker(rules, strategy, self.seed, log=self.log)
        self.gave_up = False

    def __repr__(self) -> str:  # never the secret
        return f"Duel({self.rules!r}, round {self.round})"

    @property
    def move_number(self) -> int:
        """The number of the next move (see ``sessions.moves``)."""
        return len(self.log) + 1

    @property
    def chooser(self) -> Strategy:
        """The strategy that picks the computer's guesses."""
        return self.breaker.strategy

    @property
    def choosing_among(self) -> int:
        """The codes of the person's secret still possible, where ``chooser`` picks."""
        return self.breaker.remaining

    def shown_by(self, viewer: DuelViewer[T]) -> T:
        """What ``viewer`` shows of a duel."""
        return viewer.duel(self)

    def command(self, analysis: bool = False) -> str:
        """The terminal command that plays a game like this one (``analysis`` aside)."""
        return f"bullscows duel --rules {self.rules.spec} --strategy {self.chooser.name}"

    def bare_move(self, text: str) -> Move:
        """A guess at the computer's code at its turn, else what the codebreaker reads."""
        return Guess(text) if self.awaiting is DuelTurn.GUESS else self.breaker.bare_move(text)

    def apply(self, move: Move) -> Outcome:
        """Carry out ``move`` (see ``sessions.moves``), in turn."""
        check_move(self, move)
        if isinstance(move, Guess):
            feedback = self.guess(given(move.code, "code"))
            return Scored(self.maker.history[-1].guess, feedback)
        if isinstance(move, GiveUp):
            return GaveUp(self.give_up())
        guessing = self.awaiting is DuelTurn.GUESS
        if isinstance(move, History) and guessing:
            return Shown(self.maker.history)  # at a reply, the computer's guesses (breaker)
        if isinstance(move, AskHelp):
            described = self.rules.describe()
            guess = (  # undo and fix mend a reply at either turn
                f"A guess is a code: {described}. Commands: history, undo (takes back your "
                f"last reply), {FIX_HELP}, quit."
            )
            return Helped((guess if guessing else REPLY_PROMPT_HELP,))
        self._expect(DuelTurn.REPLY if isinstance(move, Reply) else None)
        return self.breaker.apply(move)

    @property
    def over(self) -> bool:
        return self.gave_up or (self.maker.solved and self.breaker.solved)

    @property
    def status(self) -> Status:
        if self.gave_up:
            return Status.GAVE_UP
        if self.over:
            return Status.SOLVED
        contradictory = self.breaker.status is Status.CONTRADICTORY
        return Status.CONTRADICTORY if contradictory else Status.PLAYING

    @property
    def round(self) -> int:
        """The number of the next round to start (1-based): one side may have finished."""
        return max(len(self.maker.history), len(self.breaker.history)) + 1

    @property
    def awaiting(self) -> DuelTurn | None:
        """The move the duel waits for; ``None`` once it is over.

        Each round the person guesses first; a side that has broken its code sits out; a
        contradiction in the person's replies must be mended before anything else.
        """
        if self.over:
            return None
        maker, breaker = self.maker, self.breaker
        if breaker.status is Status.CONTRADICTORY:
            return DuelTurn.REPLY
        mine, theirs = len(maker.history), len(breaker.history)
        if not maker.solved and (breaker.solved or mine <= theirs):
            return DuelTurn.GUESS
        return DuelTurn.REPLY

    def guess(self, code: Code | str) -> Feedback:
        """The person's guess at the computer's code."""
        self._expect(DuelTurn.GUESS)
        return self.maker.guess(code)

    def suggest(self) -> Code:
        """The computer's guess at the person's code, awaiting their reply."""
        self._expect(DuelTurn.REPLY)
        return self.breaker.suggest()

    def reply(self, feedback: Feedback | str) -> Knowledge:
        """The person's reply to the computer's guess."""
        self._expect(DuelTurn.REPLY)
        return self.breaker.reply(feedback)

    def undo(self) -> Step:
        """Take back the person's last reply (its guess is then asked again)."""
        self._expect(None)
        return self.breaker.undo()

    def correct(self, number: int, feedback: Feedback | str) -> Knowledge:
        """Replace the person's reply number ``number`` (from 1)."""
        self._expect(None)
        return self.breaker.correct(number, feedback)

    #: The words that confirm giving up: a duel always shows the computer's code.
    giving_up = GIVE_UP_SHOWS

    def give_up(self) -> Code:
        """The person stops; the computer's secret, which it reveals."""
        self._expect(None)
        self.gave_up = True
        self.log.append(Event("give-up"))
        return self.maker.secret

    def winner(self) -> Winner | None:
        """Who has won for sure, or ``None`` while either side may still win."""
        mine, theirs = len(self.maker.history), len(self.breaker.history)
        if self.maker.solved and self.breaker.solved:
            if mine == theirs:
                return Winner.DRAW
            return Winner.PERSON if mine < theirs else Winner.COMPUTER
        if self.maker.solved and theirs >= mine:
            return Winner.PERSON
        if self.breaker.solved and mine >= theirs:
            return Winner.COMPUTER
        return None

    def _expect(self, turn: DuelTurn | None) -> None:
        """Refuse a move once the duel is over, or out of turn (``None``: any turn)."""
        if self.over:
            raise GameOverError("the duel is over")
        awaited = self.awaiting
        if turn is not None and awaited is not turn:
            wanted = "your guess at my code" if awaited is DuelTurn.GUESS else "your reply"
            raise TurnError(f"not now: the duel waits for {wanted}")

    def to_record(self) -> GameRecord:
        spec = self.breaker.strategy.spec
        return GameRecord(self.kind, self.rules.spec, self.seed, spec, self.maker.secret.text,
                          tuple(self.log))  # fmt: skip

    @classmethod
    def from_record(cls, record: GameRecord) -> Duel:
        """The duel ``record`` describes, replayed."""
        with reading_record():
            strategy = record.strategy or StrategySpec()
            game = cls(rules_of(record), strategy, record.seed, record.secret)
        actions = game.breaker.actions()
        actions["guess"] = lambda e: game.guess(str(e.code))
        actions["give-up"] = lambda e: game.give_up()
        del actions["record"]
        replay(record, cls.kind, actions)
        return game
