"""Games as UI-free state machines: the command line and (later) the web only render them.

* ``Codemaker``: the computer hides a secret and scores a person's guesses.
* ``Adversary``: the same game against a computer that commits to no secret and gives, each
  time, the reply that keeps the most codes possible (never a reply that contradicts another).
* ``Codebreaker``: the computer guesses a person's secret from their replies; with ``record``
  it also assists a person who plays elsewhere (any guess, any reply, suggestions, undo).
* ``Duel``: both at once, round by round, until both codes are broken.

>>> game = Codemaker(Rules.parse("bc"), secret="2745")
>>> [str(game.guess(g)) for g in ("1389", "1234", "1759", "1785", "2745")]
['0 bulls, 0 cows', '0 bulls, 2 cows', '1 bull, 1 cow', '2 bulls, 0 cows', '4 bulls, 0 cows']
>>> game.solved, len(game.history)
(True, 5)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from bullscows.codes import Code
from bullscows.errors import BullsCowsError, ContradictionError
from bullscows.feedback import Feedback
from bullscows.knowledge import Contradiction, Knowledge, Mistake, Step, audit
from bullscows.rules import Rules
from bullscows.strategies import DEFAULT_STRATEGY, Strategy, get_strategy


def as_code(code: Code | str, rules: Rules) -> Code:
    """A ``Code`` of ``rules`` from text or a code (of the same variant)."""
    if isinstance(code, Code):
        if code.rules != rules:
            raise BullsCowsError(
                f"code {code.text!r} belongs to {code.rules.describe()}, not {rules.describe()}"
            )
        return code
    return Code(code, rules)


def as_feedback(feedback: Feedback | str, rules: Rules, impossible: bool = False) -> Feedback:
    """A reply of ``rules`` from text or a ``Feedback`` (checked either way; ``impossible``
    as ``Feedback.parse`` takes it)."""
    if isinstance(feedback, Feedback):
        problem = feedback.problem(rules)
        fits = feedback.bulls + feedback.cows <= rules.length
        if problem and not (impossible and fits):
            raise BullsCowsError(f"reply {feedback.format('pair')!r}: {problem}")
        return feedback
    return Feedback.parse(feedback, rules, impossible)


def random_secret(rules: Rules, rng: random.Random) -> Code:
    """A secret drawn uniformly from the variant's codes."""
    knowledge = Knowledge.start(rules)
    return knowledge.code(int(knowledge.candidates[rng.randrange(len(knowledge))]))


class _Replier:
    """What every codemaker shares: the replies given so far, as knowledge."""

    rules: Rules
    knowledge: Knowledge

    @property
    def history(self) -> tuple[Step, ...]:
        return self.knowledge.history

    @property
    def solved(self) -> bool:
        return self.knowledge.is_solved

    @property
    def remaining(self) -> int:
        """How many codes still fit the replies given so far (the ``--hint``)."""
        return len(self.knowledge)


class Codemaker(_Replier):
    """The computer holds a secret; each guess gets its true reply."""

    def __init__(
        self, rules: Rules, secret: Code | str | None = None, rng: random.Random | None = None
    ) -> None:
        self.rules = rules
        self.secret = (
            random_secret(rules, rng or random.Random())
            if secret is None
            else as_code(secret, rules).as_secret()
        )
        self.knowledge = Knowledge.start(rules)

    def guess(self, code: Code | str) -> Feedback:
        """Score a guess against the secret and remember it."""
        if self.solved:
            raise BullsCowsError(f"the code {self.secret} is already broken")
        guess = as_code(code, self.rules)
        reply = self.knowledge.universe.score_row(guess.index, np.array([self.secret.index]))[0]
        feedback = Feedback.from_index(int(reply), self.rules.length)
        self.knowledge = self.knowledge.after(guess, feedback)
        return feedback


class Adversary(_Replier):
    """A codemaker that picks no secret: each reply keeps as many codes possible as any could.

    The replies are always consistent: at every moment some code gives all of them, and
    ``secret`` names one. Only when the guess is the last code left is the reply all bulls. It
    is greedy, the hardest opponent one guess ahead; equal parts are chosen between with ``rng``.

    Reading ``secret`` before the code is broken commits the adversary to a random code still
    possible: from then on it answers like a ``Codemaker`` hiding that code.

    >>> game = Adversary(Rules.parse("moo2,2"), rng=random.Random(1))
    >>> [game.guess(g).format("bc") for g in ("00", "11", "10", "01")]
    ['1B0C', '1B0C', '0B2C', '2B0C']
    >>> game.solved, game.secret.text
    (True, '01')
    """

    def __init__(self, rules: Rules, rng: random.Random | None = None) -> None:
        self.rules = rules
        self.rng = rng or random.Random()
        self.knowledge = Knowledge.start(rules)
        self._secret: Code | None = None

    @property
    def secret(self) -> Code:
        """A code that gives every reply so far: the last guess once it is broken, else a
        random code still possible, to which the adversary is then bound."""
        if self._secret is None:
            if self.solved:
                return self.history[-1].guess
            candidates = self.knowledge.candidates
            self._secret = self.knowledge.code(int(candidates[self.rng.randrange(len(candidates))]))
        return self._secret

    def guess(self, code: Code | str) -> Feedback:
        """The reply that leaves the most codes possible (all bulls only when no other can)."""
        if self.solved:
            raise BullsCowsError(f"the code {self.secret} is already broken")
        guess = as_code(code, self.rules)
        knowledge, length = self.knowledge, self.rules.length
        replies = knowledge.universe.score_row(guess.index, knowledge.candidates)
        if self._secret is not None:
            chosen = int(replies[np.flatnonzero(knowledge.candidates == self._secret.index)[0]])
        else:
            sizes = np.bincount(replies, minlength=self.rules.replies)
            win = Feedback.win(length).index(length)
            if sizes.sum() > sizes[win]:
                sizes[win] = 0  # never concede while another reply is still true of some code
            best = np.flatnonzero(sizes == sizes.max())
            chosen = int(best[0] if len(best) == 1 else best[self.rng.randrange(len(best))])
        feedback = Feedback.from_index(chosen, length)
        # The same as knowledge.after(guess, feedback), without scoring the guess again.
        step = Step(guess, feedback)
        self.knowledge = Knowledge(
            self.rules, (*knowledge.history, step), knowledge.candidates[replies == chosen]
        )
        return feedback


class Codebreaker:
    """The computer breaks a secret it cannot see, from the replies a person gives.

    Every reply is kept, even one that makes the history contradictory: ``contradiction`` then
    explains it, and ``undo`` takes replies back.
    """

    def __init__(
        self,
        rules: Rules,
        strategy: Strategy | str = DEFAULT_STRATEGY,
        rng: random.Random | None = None,
    ) -> None:
        self.rules = rules
        self.strategy = get_strategy(strategy) if isinstance(strategy, str) else strategy
        self.rng = rng or random.Random()
        self._stack = [Knowledge.start(rules)]
        self._suggestions: dict[int, Code] = {}

    @property
    def knowledge(self) -> Knowledge:
        return self._stack[-1]

    @property
    def history(self) -> tuple[Step, ...]:
        return self.knowledge.history

    @property
    def remaining(self) -> int:
        return len(self.knowledge)

    @property
    def solved(self) -> bool:
        return self.knowledge.is_solved

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

    def suggest(self) -> Code:
        """The strategy's next guess (the same one until the knowledge changes)."""
        if self.solved:
            raise BullsCowsError("the code is already broken")
        depth = len(self._stack)
        if depth not in self._suggestions:
            if self.knowledge.is_contradictory:
                raise ContradictionError("no code fits the replies so far", self.contradiction)
            index = self.strategy.next_guess(self.knowledge, self.rng)
            self._suggestions[depth] = self.knowledge.code(index)
        return self._suggestions[depth]

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
        if self.solved:
            raise BullsCowsError("the code is already broken; undo to change a reply")
        code = as_code(guess, self.rules)
        reply = as_feedback(feedback, self.rules, impossible)
        self._stack.append(self.knowledge.after(code, reply))
        return self.knowledge

    def reply(self, feedback: Feedback | str, impossible: bool = False) -> Knowledge:
        """The reply to the suggested guess (``impossible`` as ``record`` takes it)."""
        return self.record(self.suggest(), feedback, impossible)

    def undo(self) -> Step:
        """Take back the last guess and reply."""
        if len(self._stack) == 1:
            raise BullsCowsError("nothing to undo: no reply has been given yet")
        step = self.knowledge.history[-1]
        self._suggestions.pop(len(self._stack), None)
        self._stack.pop()
        return step

    def audit(self, secret: Code | str) -> list[Mistake]:
        """Every reply that ``secret`` would not have given."""
        return audit(self.rules, self.history, as_code(secret, self.rules))


@dataclass
class Duel:
    """Each round the person guesses the computer's code and the computer guesses theirs.

    The game goes on until both codes are broken; fewer guesses wins.
    """

    rules: Rules
    strategy: Strategy | str = DEFAULT_STRATEGY
    rng: random.Random = field(default_factory=random.Random)
    secret: Code | str | None = None
    maker: Codemaker = field(init=False)
    breaker: Codebreaker = field(init=False)

    def __post_init__(self) -> None:
        self.maker = Codemaker(self.rules, self.secret, self.rng)
        self.breaker = Codebreaker(self.rules, self.strategy, self.rng)

    @property
    def over(self) -> bool:
        return self.maker.solved and self.breaker.solved

    @property
    def round(self) -> int:
        """The number of the next round to start (1-based): one side may have finished."""
        return max(len(self.maker.history), len(self.breaker.history)) + 1

    def winner(self) -> str | None:
        """``'you'``, ``'computer'`` or ``'draw'`` once a side has won for sure; else ``None``."""
        mine, theirs = len(self.maker.history), len(self.breaker.history)
        if self.maker.solved and self.breaker.solved:
            return "draw" if mine == theirs else ("you" if mine < theirs else "computer")
        if self.maker.solved and theirs >= mine:
            return "you"
        if self.breaker.solved and mine >= theirs:
            return "computer"
        return None
