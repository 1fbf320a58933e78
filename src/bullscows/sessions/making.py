"""The computer as codemaker: it answers a person's guesses.

* ``Codemaker`` hides a secret and gives each guess its true reply.
* ``Adversary`` commits to no secret and gives, each time, the reply that keeps the most codes
  possible (never one that contradicts another).

Both can give hints (the guess a strategy would make, and how it splits the codes still
possible) and count them; both rebuild from their ``GameRecord``. Two options make the game
harder: ``hard`` (every guess must fit every reply so far; hints then fit too) and
``max_guesses`` (the game is lost when they are used up; the secret is then revealed).
"""

from __future__ import annotations

import shlex
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Protocol

import numpy as np

from bullscows.codes import Code
from bullscows.errors import BullsCowsError, CodeError, GameOverError, NothingToUndoError
from bullscows.feedback import Feedback
from bullscows.hints import Hint, give_hint
from bullscows.knowledge import Knowledge, Step
from bullscows.records import MAX_GUESSES, Event, GameRecord, Status
from bullscows.rules import Rules
from bullscows.seeding import MoveRandom
from bullscows.sessions.common import (
    Logged,
    T,
    T_co,
    as_code,
    random_secret,
    reading_record,
    replay,
    rules_of,
)
from bullscows.sessions.moves import (
    Candidates,
    GiveUp,
    Guess,
    History,
    Move,
    Undo,
    check_move,
    given,
    reads_as_step,
)
from bullscows.sessions.moves import Help as AskHelp
from bullscows.sessions.moves import Hint as AskHint
from bullscows.sessions.outcomes import (
    GIVE_UP_HIDES,
    GIVE_UP_SHOWS,
    GaveUp,
    Helped,
    Hinted,
    Listed,
    Outcome,
    Scored,
    Shown,
    Undone,
)
from bullscows.strategies import Strategy, StrategySpec, get_strategy


class MakerViewer(Protocol[T_co]):
    """What a front end shows of a game of a person's guesses at the computer's code (see
    ``sessions.Viewer``)."""

    def maker(self, game: Codemaker | Adversary) -> T_co: ...


def seeded_secret(rules: Rules, seed: int) -> Code:
    """The secret a ``Codemaker`` of ``rules`` draws from ``seed``.

    >>> seeded_secret(Rules.parse("bc"), 7) == Codemaker(Rules.parse("bc"), seed=7).secret
    True
    """
    return random_secret(rules, MoveRandom(seed, "secret", 0))


#: The heading of a game of a friend's challenge (``Codemaker.challenged``).
CHALLENGE_TITLE = "Challenge: break your friend's code"


class _Maker(Logged, ABC):
    """What both codemakers share: the replies given so far, hints, giving up."""

    kind: str
    #: Whether the game is a friend's challenge: the secret of a game they played (``challenge``).
    challenged = False
    #: Whether it picks its secret at the start (an adversary commits only when asked).
    picks_secret: bool = True
    #: Whether the computer picks a guess at every move (it breaks a code), not only when
    #: asked (a hint).
    chooses_always = False
    hinter: Strategy | None
    accepts: tuple[type[Move], ...] = (
        Guess, AskHint, Candidates, Undo, GiveUp, History, AskHelp,
    )  # fmt: skip

    def shown_by(self, viewer: MakerViewer[T]) -> T:
        """What ``viewer`` shows of a game of a person's guesses at the computer's code."""
        assert isinstance(self, Codemaker | Adversary)  # the only two kinds of codemaker
        return viewer.maker(self)

    def __init__(
        self,
        rules: Rules,
        seed: int | None = None,
        hints: Strategy | StrategySpec | str | None = None,
        log: list[Event] | None = None,
        hard: bool = False,
        max_guesses: int | None = None,
        coach: bool = False,
    ) -> None:
        if max_guesses is not None and not (
            type(max_guesses) is int and 1 <= max_guesses <= MAX_GUESSES
        ):
            raise BullsCowsError(
                f"a guess limit of {max_guesses!r}: a whole number from 1 to {MAX_GUESSES}"
            )
        self._start(rules, seed, log)
        self.hard = hard
        self.max_guesses = max_guesses
        self.coach = coach  # the front end shows the card's advice (strategies.card_coach)
        self._knowledge = Knowledge.start(rules)
        self.hinter = hints if hints is None or isinstance(hints, Strategy) else get_strategy(hints)
        self._hints: dict[int, Hint] = {}
        self._hinted: set[int] = set()

    @property
    def knowledge(self) -> Knowledge:
        return self._knowledge

    @property
    def lost(self) -> bool:
        """Whether the guesses allowed are used up and the code is not broken."""
        limit = self.max_guesses
        return limit is not None and not self.solved and len(self.history) >= limit

    @property
    def over(self) -> bool:
        return super().over or self.lost

    @property
    def abandoned(self) -> bool:
        """Whether the game was given up before its first guess: never started, so a
        player's record leaves it out, neither won nor lost (``standings``).

        >>> game = Codemaker(Rules.parse("bc"), secret="2745")
        >>> _ = game.give_up()
        >>> game.over, game.abandoned
        (True, True)
        """
        return self.gave_up and not self._guessed

    @property
    def _guessed(self) -> bool:
        """Whether a guess was made (and perhaps taken back since)."""
        return any(event.action == "guess" for event in self.log)

    @property
    def giving_up(self) -> str:
        """The words that confirm giving up now: before the first guess the code the
        computer picked stays hidden (``keeps_secret``), else it is shown.

        >>> game = Codemaker(Rules.parse("bc"), secret="2745")
        >>> game.giving_up
        'Yes, give up before a guess (the code stays hidden)'
        >>> _ = game.guess("0123")
        >>> game.giving_up
        'Yes, give up and show the code'
        """
        return GIVE_UP_HIDES if self.picks_secret and not self._guessed else GIVE_UP_SHOWS

    @property
    def keeps_secret(self) -> bool:
        """Whether the game, over, still hides its secret: given up before its first guess
        (``abandoned``), it costs nothing, so the same secret (a daily puzzle's, a seeded
        game's) must stay hidden to be played again. An adversary holds no secret to keep.

        >>> game = Codemaker(Rules.parse("bc"), secret="2745")
        >>> game.apply(GiveUp()).lines()
        ('The secret stays hidden, so that this game can be played again.',)
        """
        return self.abandoned and self.picks_secret

    @property
    def status(self) -> Status:
        return Status.LOST if self.lost else super().status

    @property
    def title(self) -> str | None:
        """The game's heading where it is not its front end's own for the mode: a friend's
        challenge's (``CHALLENGE_TITLE``)."""
        return CHALLENGE_TITLE if self.challenged else None

    @property
    def chooser(self) -> Strategy | None:
        """The strategy whose guesses this game shows: its hints' (``None`` without)."""
        return self.hinter

    def command(self, analysis: bool = False) -> str:
        """The terminal command that plays a game like this one, hints on; ``analysis``:
        that analyses this one's guesses.

        >>> game = Codemaker(Rules.parse("bc"), secret="2745", hints="minimax")
        >>> _ = game.guess("1389")
        >>> game.command(analysis=True)
        "bullscows analyse --rules bc --strategy minimax '1389 0 0'"
        """
        strategy = "" if self.hinter is None else f" --strategy {self.hinter.name}"
        if analysis:
            steps = (shlex.quote(f"{s.guess.text} {s.feedback.format('pair')}")
                     for s in self.history)  # fmt: skip
            return f"bullscows analyse --rules {self.rules.spec}{strategy} " + " ".join(steps)
        coach = " --coach" if self.coach else ""
        return f"bullscows play --rules {self.rules.spec} --hint{strategy}{coach}"

    def _check_playing(self) -> None:
        super()._check_playing()
        if self.lost:
            raise GameOverError(f"the game is over: all {self.max_guesses} guesses are used")

    def bare_move(self, text: str) -> Move:
        """A line that is no command word is a guess."""
        return Guess(text)

    def apply(self, move: Move) -> Outcome:
        """Carry out ``move`` (see ``sessions.moves``): a guess, a hint, giving up, ..."""
        check_move(self, move)
        if isinstance(move, Guess):
            feedback = self.guess(given(move.code, "code"))
            told = self.remaining if self.hinter is not None and not self.over else None
            return Scored(self.history[-1].guess, feedback, told)
        if isinstance(move, AskHint):
            return Hinted(self.hint())
        if isinstance(move, GiveUp):
            secret = self.give_up()
            hidden = self.keeps_secret
            return GaveUp(None if hidden else secret, self.picks_secret, hidden)
        if isinstance(move, History):
            return Shown(self.history)
        if isinstance(move, Candidates):
            return Listed.of(self.knowledge, move.every)
        if isinstance(move, Undo):
            return Undone(self.undo())
        described = self.rules.guess_rules.describe()
        return Helped(
            (f"A guess is a code: {described}. Commands: history, list, undo, hint, quit.",)
        )

    def undo(self) -> Step:
        """Take back the last guess (while the game goes on).

        >>> game = Codemaker(Rules.parse("bc"), secret="2745")
        >>> _ = game.guess("1389"), game.guess("1234")
        >>> game.undo().guess.text, game.remaining
        ('1234', 360)
        """
        self._check_playing()
        if not self.history:
            raise NothingToUndoError("nothing to undo: no guess has been made yet")
        step = self.history[-1]
        knowledge = Knowledge.start(self.rules)
        for earlier in self.history[:-1]:
            knowledge = knowledge.after(earlier.guess, earlier.feedback)
        self._knowledge = knowledge
        self._note("undo")
        return step

    @abstractmethod
    def guess(self, code: Code | str) -> Feedback:
        """The reply to the person's guess (remembered)."""

    @abstractmethod
    def give_up(self) -> Code | None:
        """End the game unbroken; the code it reveals."""

    @property
    def hints_given(self) -> int:
        """How many moves the person asked a hint for."""
        return len(self._hinted)

    def hint(self) -> Hint:
        """The hint strategy's next guess, explained; asking again before the next guess gives
        the same hint and does not count twice. In hard mode it is a guess hard mode takes."""
        self._check_playing()
        if self.hinter is None:
            raise BullsCowsError("hints are off in this game")
        move = len(self.history)
        if move not in self._hints:
            rng = MoveRandom(self.seed, "hint", move)
            self._hints[move] = give_hint(self.knowledge, self.hinter, rng, fitting=self.hard)
        self._count_hint()
        return self._hints[move]

    def _count_hint(self) -> None:
        if len(self.history) not in self._hinted:
            self._hinted.add(len(self.history))
            self._note("hint")

    def _allowed(self, code: Code | str) -> Code:
        """``code`` as a guess of this game: in hard mode it must fit every reply so far."""
        try:
            guess = as_code(code, self.rules)
        except CodeError as error:
            raise CodeError(f"{error}{_reply_typed(code, self.rules)}") from None
        if not self.hard:
            return guess
        for number, step in enumerate(self.history, 1):
            would = self.knowledge.universe.score_row(step.guess.index, np.array([guess.index]))
            if int(would[0]) != step.feedback.index(self.rules.length):
                true = Feedback.from_index(int(would[0]), self.rules.length)
                raise CodeError(
                    f"hard mode: {guess} does not fit reply #{number} {step.guess} -> "
                    f"{step.feedback} (it would get {true}); every guess must fit every reply "
                    "so far"
                )
        return guess

    def actions(self) -> dict[str, Callable[[Event], object]]:
        """How each event of a record is replayed on this game."""
        return {
            "guess": lambda e: self.guess(str(e.code)),
            "hint": lambda e: self._count_hint(),
            "undo": lambda e: self.undo(),
            "give-up": lambda e: self.give_up(),
        }

    def _give_up(self) -> None:
        self._check_playing()
        self.gave_up = True
        self._note("give-up")

    def to_record(self) -> GameRecord:
        hints = None if self.hinter is None else self.hinter.spec
        return GameRecord(
            self.kind, self.rules.spec, self.seed, hints, self._secret_text(), tuple(self.log),
            self.hard, self.max_guesses, self.coach, self.challenged,
        )  # fmt: skip

    def _secret_text(self) -> str | None:
        return None

    def __repr__(self) -> str:  # never the secret
        return f"{type(self).__name__}({self.rules!r}, {len(self.history)} guesses)"


class Codemaker(_Maker):
    """The computer holds a secret; each guess gets its true reply.

    >>> game = Codemaker(Rules.parse("bc"), secret="2745")
    >>> [str(game.guess(g)) for g in ("1389", "1234", "1759", "1785", "2745")]
    ['0 bulls, 0 cows', '0 bulls, 2 cows', '1 bull, 1 cow', '2 bulls, 0 cows', '4 bulls, 0 cows']
    >>> game.status, len(game.history)
    (<Status.SOLVED: 'solved'>, 5)
    """

    kind = "codemaker"

    def __init__(
        self,
        rules: Rules,
        secret: Code | str | None = None,
        seed: int | None = None,
        hints: Strategy | StrategySpec | str | None = None,
        log: list[Event] | None = None,
        hard: bool = False,
        max_guesses: int | None = None,
        coach: bool = False,
        challenged: bool = False,
    ) -> None:
        super().__init__(rules, seed, hints, log, hard, max_guesses, coach)
        self.challenged = challenged
        self.secret = (
            seeded_secret(rules, self.seed)
            if secret is None
            else as_code(secret, rules).as_secret()
        )

    def guess(self, code: Code | str) -> Feedback:
        """Score a guess against the secret and remember it."""
        self._check_playing()
        guess = self._allowed(code)
        reply = self.knowledge.universe.score_row(guess.index, np.array([self.secret.index]))[0]
        feedback = Feedback.from_index(int(reply), self.rules.length)
        self._knowledge = self.knowledge.after(guess, feedback)
        self._note("guess", code=guess.text)
        return feedback

    def give_up(self) -> Code:
        """End the game unbroken; the secret it reveals."""
        self._give_up()
        return self.secret

    def _secret_text(self) -> str:
        return self.secret.text

    @classmethod
    def from_record(cls, record: GameRecord, log: list[Event] | None = None) -> Codemaker:
        """The game ``record`` describes, replayed."""
        with reading_record():
            game = cls(
                rules_of(record), record.secret, record.seed, record.strategy, log, record.hard,
                record.max_guesses, record.coach, record.challenge,
            )  # fmt: skip
        replay(record, cls.kind, game.actions())
        return game


def challenge(game: object) -> Codemaker:
    """A new game of the same secret as ``game``, a finished game against the computer's
    secret, for a friend to play (with the same hints).

    >>> game = Codemaker(Rules.parse("bc"), secret="2745")
    >>> _ = game.guess("2745")
    >>> challenge(game).secret.text, challenge(game).history, challenge(game).title
    ('2745', (), "Challenge: break your friend's code")
    """
    if not (isinstance(game, Codemaker) and game.over):
        raise BullsCowsError("only a finished game against my secret can be a challenge")
    if game.keeps_secret:  # its secret is to be played again, not peeked at in a copy
        raise BullsCowsError(
            "a game given up before its first guess cannot be a challenge: its secret stays "
            "hidden, so that it can be played again"
        )
    return Codemaker(game.rules, secret=game.secret, hints=game.hinter, challenged=True)


class Adversary(_Maker):
    """A codemaker that picks no secret: each reply keeps as many codes possible as any could.

    The replies are always consistent: at every moment some code gives all of them. Only when
    the guess is the last code left is the reply all bulls. It is greedy, the hardest opponent
    one guess ahead; equal parts are chosen between at random (from the game's seed).

    ``commit()`` binds it to a random code still possible: from then on it answers like a
    ``Codemaker`` hiding that code. Giving up commits it, to show a code that fits every reply.

    >>> game = Adversary(Rules.parse("moo2,2"), seed=1)
    >>> [game.guess(g).format("bc") for g in ("00", "11", "10", "01")]
    ['1B0C', '1B0C', '0B2C', '2B0C']
    >>> game.solved, game.secret.text
    (True, '01')
    """

    kind = "adversary"
    picks_secret = False
    _secret: Code | None = None  # the code it committed to

    @property
    def secret(self) -> Code | None:
        """The code the adversary is bound to: the last guess once it is broken, the code it
        committed to, else ``None``. Reading it changes nothing."""
        if self.solved:
            return self.history[-1].guess
        return self._secret

    def commit(self) -> Code:
        """Bind the adversary to a random code still possible (once; later calls return it)."""
        if self.secret is None:
            candidates = self.knowledge.candidates
            rng = MoveRandom(self.seed, "commit", len(self.history))
            self._secret = self.knowledge.code(int(candidates[rng.randrange(len(candidates))]))
            self._note("commit")
        assert self.secret is not None
        return self.secret

    def guess(self, code: Code | str) -> Feedback:
        """The reply that leaves the most codes possible (all bulls only when no other can)."""
        self._check_playing()
        guess = self._allowed(code)
        knowledge, length = self.knowledge, self.rules.length
        replies = knowledge.universe.score_row(guess.index, knowledge.candidates)
        if self._secret is not None:
            chosen = int(replies[np.flatnonzero(knowledge.candidates == self._secret.index)[0]])
        else:
            sizes = np.bincount(replies, minlength=self.rules.reply_slots)
            win = Feedback.win(length).index(length)
            if sizes.sum() > sizes[win]:
                sizes[win] = 0  # never concede while another reply is still true of some code
            best = np.flatnonzero(sizes == sizes.max())
            rng = MoveRandom(self.seed, "adversary", len(self.history))
            chosen = int(best[0] if len(best) == 1 else best[rng.randrange(len(best))])
        feedback = Feedback.from_index(chosen, length)
        # The same as knowledge.after(guess, feedback), without scoring the guess again.
        step = Step(guess, feedback)
        self._knowledge = Knowledge(
            self.rules, (*knowledge.history, step), knowledge.candidates[replies == chosen]
        )
        self._note("guess", code=guess.text)
        if self.lost:
            self.commit()  # the game is lost: a code that fits every reply is revealed
        return feedback

    def give_up(self) -> Code:
        """End the game unbroken; a code that fits every reply (the adversary commits to it)."""
        self._check_playing()
        secret = self.commit()
        self._give_up()
        return secret

    @classmethod
    def from_record(cls, record: GameRecord, log: list[Event] | None = None) -> Adversary:
        """The game ``record`` describes, replayed."""
        with reading_record():
            game = cls(rules_of(record), record.seed, record.strategy, log, record.hard,
                       record.max_guesses, record.coach)  # fmt: skip
        replay(record, cls.kind, game.actions())
        return game

    def actions(self) -> dict[str, Callable[[Event], object]]:
        """How each event of a record is replayed: a commit as it was logged, so giving up
        (which logged its own commit before) commits nothing more."""
        return {**super().actions(), "commit": lambda e: self.commit(),
                "give-up": lambda e: self._give_up()}  # fmt: skip


def _reply_typed(text: Code | str, rules: Rules) -> str:
    """What to say when ``text``, refused as a guess, is a guess and a reply (as assist
    takes them): the game gives the reply. Nothing otherwise.

    >>> _reply_typed("0123 1 2", Rules.parse("bc")), _reply_typed("0123 x", Rules.parse("bc"))
    ('; type only your guess: the game gives its reply', '')
    """
    return (
        "; type only your guess: the game gives its reply"
        if reads_as_step(str(text), rules)
        else ""
    )
