"""Adam Richardson's three solvers: strategies that learn little or nothing from the replies.

* ``random``: a code drawn at random every turn (with replacement), replies ignored.
* ``brute-force``: every code in the variant's order, replies ignored.
* ``cows``: only the total bulls + cows of each reply: rule out symbols by windows that score
  0, find the window of the secret's symbols, then try its orders.

>>> from bullscows.outcomes import guess_counts
>>> guess_counts(Rules.parse("p2c3n"), BruteForce()).tolist()
[1, 2, 3, 4, 5, 6]
"""

from __future__ import annotations

import random
from collections.abc import Generator, Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from bullscows.caching import sized_cache
from bullscows.errors import ContradictionError, StrategyError
from bullscows.knowledge import Knowledge, Step
from bullscows.rules import Rules
from bullscows.seeding import MoveRandom
from bullscows.strategies.base import ReplyBlindStrategy, Strategy
from bullscows.universe import IndexArray, universe


class RandomGuess(ReplyBlindStrategy):
    """Any code of the variant, uniformly at random, every turn (it may repeat a guess).

    The number of guesses is geometric with mean the number of codes; games are capped by
    ``outcomes.DEFAULT_MAX_GUESSES``.
    """

    name = "random"
    summary = "Richardson: a random code every turn, ignoring the replies"
    deterministic = False

    def sequence(self, rules: Rules, rng: random.Random, start: int, count: int) -> IndexArray:
        # One draw from ``rng`` seeds the batch, so a game is reproducible from rng's state.
        draws = np.random.default_rng(rng.getrandbits(64))
        return _secret_indices(rules, draws.integers(0, rules.size, size=count, dtype=np.int64))


def _secret_indices(rules: Rules, numbers: npt.NDArray[np.int64]) -> IndexArray:
    """The universe indices of the secrets with these numbers (0 is the lowest secret):
    the random and brute-force strategies play only codes that may be the secret."""
    u = universe(rules)
    return np.asarray(u.secrets[numbers] if rules.guesses is not None else numbers, np.int64)


class BruteForce(ReplyBlindStrategy):
    """Every code in the variant's order: guess number k (0-based) is code k.

    >>> BruteForce().sequence(Rules.parse("bc"), random.Random(), 5038, 10).tolist()
    [5038, 5039]
    """

    name = "brute-force"
    summary = "Richardson: every code in the variant's order, ignoring the replies"

    def sequence(self, rules: Rules, rng: random.Random, start: int, count: int) -> IndexArray:
        return _secret_indices(rules, np.arange(start, min(start + count, rules.size)))

    def depth_at_least(self, rules: Rules) -> int:
        """The last code is guessed last: a game needs up to as many guesses as there are codes."""
        return rules.size

    def next_guess(self, knowledge: Knowledge, rng: random.Random) -> int:
        made, size = len(knowledge.history), knowledge.rules.size
        if made >= size and not knowledge.is_contradictory:
            # Only a history with guesses of someone else's (assist mode) gets here: its own
            # ``size`` guesses include the secret.
            raise StrategyError(
                f"brute-force has no code left to guess: {made} guesses were made and "
                f"{knowledge.rules.describe()} has {size} codes"
            )
        return super().next_guess(knowledge, rng)


class CowsOnly(Strategy):
    """Richardson's cows solver: it looks only at the total bulls + cows of each reply.

    1. With the symbols in a random order, query consecutive (cyclic) windows of ``length``
       symbols until one scores 0, and drop those symbols; reshuffle after a fruitless cycle.
       Repeat while at least twice ``length`` symbols remain (and a window scoring 0 is sure
       to exist).
    2. Among the rest, query windows the same way until one scores ``length``: the secret's
       symbols.
    3. Try the orders of those symbols, in a random order, never one twice, until all bulls.

    A window is played as the lowest code made of its symbols (a window no code is made of
    is skipped), and a window whose total is already known is not asked again. Codes with
    repeated symbols are refused. Per game, one seed is drawn from ``rng`` at the first guess;
    every later guess is replayed from it and the history, so undo works. In a session, whose
    draws are ``MoveRandom``, the seed is that of the first move however late the strategy
    joins, so a game rebuilt from its record goes on as it began.
    """

    name = "cows"
    summary = "Richardson: only bulls + cows; rule symbols out, find the secret's, try orders"
    deterministic = False

    def __init__(self) -> None:
        self._seed: int | None = None
        self._planner: _Planner | None = None

    def __getstate__(self) -> dict[str, object]:
        # The planner is only a cache, and a generator can be neither pickled nor copied.
        return {"_seed": self._seed, "_planner": None}

    def problem(self, rules: Rules) -> str | None:
        if rules.repeats:
            return f"cows needs codes without repeated symbols, not {rules.describe()!r}"
        return None

    def next_guess(self, knowledge: Knowledge, rng: random.Random) -> int:
        # No shortcut to the only remaining candidate (as ``Strategy.next_guess`` takes): that
        # candidate is singled out by the bulls as well as the totals, and this strategy plays
        # on the totals alone. The bulls serve only to refuse a contradictory history.
        knowledge.refuse_contradiction()
        return self.choose(knowledge, rng)

    def choose(self, knowledge: Knowledge, rng: random.Random) -> int:
        rules, history = knowledge.rules, knowledge.history
        problem = self.problem(rules)
        if problem is not None:
            raise StrategyError(problem)
        seed = self._seed
        if isinstance(rng, MoveRandom):  # a session's game: the plan is its first move's draw
            seed = rng.at(0).getrandbits(64)
        elif not history:
            seed = rng.getrandbits(64)
        if seed != self._seed:
            self._seed, self._planner = seed, None
        if self._seed is None:
            raise StrategyError(
                "cows can only continue a game of its own guesses, and it made none of these"
            )
        planner = self._planner
        if planner is None or not planner.leads_to(rules, history):
            planner = _Planner(rules, self._seed)
        self._planner = None
        planner.follow(history)
        self._planner = planner
        return planner.guess


class _Planner:
    """A cows game in progress: the plan replayed over a history, and its next guess."""

    def __init__(self, rules: Rules, seed: int) -> None:
        self.rules = rules
        self.history: tuple[Step, ...] = ()
        self._plan = _plan(rules, random.Random(seed))
        self.guess = next(self._plan)

    def leads_to(self, rules: Rules, history: tuple[Step, ...]) -> bool:
        """Whether ``history`` continues the one this planner has followed."""
        made = len(self.history)
        return rules == self.rules and made <= len(history) and history[:made] == self.history

    def follow(self, history: tuple[Step, ...]) -> None:
        """Feed the totals of the steps not seen yet; each guess must be the planned one."""
        for number in range(len(self.history), len(history)):
            step = history[number]
            if step.guess.index != self.guess:
                planned = universe(self.rules).text(self.guess)
                raise StrategyError(
                    "cows can only continue a game of its own guesses: guess "
                    f"#{number + 1} was {step.guess}, where it would have played {planned}"
                )
            try:
                self.guess = self._plan.send(step.feedback.bulls + step.feedback.cows)
            except StopIteration:
                # Unreachable with consistent replies: the secret is among the orders left.
                raise ContradictionError("cows has tried every order the replies allow") from None
        self.history = history


def _plan(rules: Rules, rng: random.Random) -> Generator[int, int, None]:
    """Richardson's solver as a coroutine: yields guesses and is sent the total of each reply.

    Being sent anything means the guess was not all bulls.
    """
    length = rules.length
    order = list(range(len(rules.symbols)))
    rng.shuffle(order)
    known: dict[int, int] = {}  # symbol set (bit mask) of a window played -> its total
    played: set[int] = set()
    while len(order) >= 2 * length and _zero_window_sure(rules, _mask(order)):
        absent = yield from _find_window(rules, order, 0, known, played, rng)
        order = [s for s in order if not absent >> s & 1]
    present = yield from _find_window(rules, order, length, known, played, rng)
    orders = [i for i in _arrangements(rules).of(present) if i not in played]
    rng.shuffle(orders)
    # Not ``yield from orders``: a list iterator cannot be sent the totals.
    for guess in orders:  # noqa: UP028
        yield guess


def _find_window(
    rules: Rules,
    order: list[int],
    wanted: int,
    known: dict[int, int],
    played: set[int],
    rng: random.Random,
) -> Generator[int, int, int]:
    """Query cyclic windows of ``order`` (reshuffled in place after a fruitless cycle) until
    one totals ``wanted``; its symbol set."""
    lowest = _arrangements(rules).lowest
    while True:
        for start in range(len(order)):
            window = _mask(order[(start + i) % len(order)] for i in range(rules.length))
            if window not in known:
                guess = lowest.get(window)
                if guess is None:
                    continue
                played.add(guess)
                known[window] = yield guess
            if known[window] == wanted:
                return window
        rng.shuffle(order)


def _mask(symbols: Iterable[int]) -> int:
    return sum(1 << s for s in symbols)


#: The symbol sets of the variants cows plays are kept while they hold at most this many bytes.
ARRANGEMENTS_BUDGET = 128 * 2**20


@dataclass(frozen=True, eq=False)
class _Arrangements:
    """The codes of a variant grouped by their set of symbols (a bit mask per code)."""

    masks: npt.NDArray[np.int64]
    #: symbol set -> the lowest code made of exactly those symbols
    lowest: dict[int, int]

    def size(self) -> int:
        """The memory the masks hold, in bytes."""
        return int(self.masks.nbytes)

    def of(self, symbols: int) -> list[int]:
        """Every code made of exactly these symbols, in the variant's order."""
        return [int(i) for i in np.flatnonzero(self.masks == symbols)]


@sized_cache(ARRANGEMENTS_BUDGET, _Arrangements.size)
def _arrangements(rules: Rules) -> _Arrangements:
    codes = universe(rules).codes.astype(np.int64)
    masks = np.bitwise_or.reduce(np.left_shift(np.int64(1), codes), axis=1)
    # The universe is in the variant's order, so a set's first code is its lowest.
    sets, first = np.unique(masks, return_index=True)
    return _Arrangements(masks, dict(zip(sets.tolist(), first.tolist(), strict=True)))


@lru_cache(maxsize=4096)
def _zero_window_sure(rules: Rules, remaining: int) -> bool:
    """Whether a window scoring 0 can always be found among ``remaining`` symbols.

    It can when whichever playable set of symbols the secret has, a playable set outside it
    remains; without per-position limits, twice ``length`` symbols are enough.
    """
    if remaining.bit_count() < 2 * rules.length:
        return False
    if rules.allowed is None:
        return True
    inside = [s for s in _arrangements(rules).lowest if not s & ~remaining]
    return all(any(not secret & window for window in inside) for secret in inside)
