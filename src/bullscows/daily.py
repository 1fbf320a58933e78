"""The daily puzzle: one secret per variant per day, the same for everyone who plays it.

A daily game is a ``Codemaker`` whose seed is derived from the variant, the day (day 1 is
2026-01-01, UTC) and ``BULLSCOWS_DAILY_KEY``, and holds the day in its low bits (``day_of``);
docs/web.md ("The daily puzzle") says more.

>>> from datetime import date
>>> bc = Rules.parse("bc")
>>> day_number(date(2026, 1, 1)), day_number(date(2026, 11, 26))
(1, 330)
>>> game = daily_game(bc, 330)
>>> game.max_guesses
7
>>> game.secret == daily_game(bc, 330).secret != daily_game(bc, 331).secret
True
>>> day_of(game), day_of(Codemaker(bc, seed=12345))
(330, None)
"""

from __future__ import annotations

import hashlib
import os
from datetime import UTC, date, datetime

from bullscows.errors import BullsCowsError
from bullscows.records import GameRecord
from bullscows.rules import Rules
from bullscows.seeding import SEED_BOUND
from bullscows.sessions import Codemaker, Game
from bullscows.strategies import Strategy

#: The first day's date: puzzle number 1.
EPOCH = date(2026, 1, 1)
#: The variants that have a puzzle every day, and the guesses each allows.
LIMITS = {"bc": 7, "mm": 10, "mm-colours": 10}
VARIANTS = tuple(LIMITS)
DAY_BITS = 20
#: A daily seed has this many bits, so it stays below ``SEED_BOUND`` like every drawn seed.
SEED_BITS = SEED_BOUND.bit_length() - 1
KEY_ENV = "BULLSCOWS_DAILY_KEY"


class DailyError(BullsCowsError):
    """No daily puzzle of that variant or day."""


def utc_today() -> date:
    """Today's date in UTC, whose puzzle is played (the one clock of the daily puzzle)."""
    return datetime.now(UTC).date()


def day_number(today: date | None = None) -> int:
    """The puzzle number of ``today`` (UTC when not given): 1 on ``EPOCH``."""
    today = today or utc_today()
    return (today - EPOCH).days + 1


def _seed(spec: str, day: int, key: str) -> int:
    """A seed below ``SEED_BOUND`` (as every drawn seed: a record keeps it, JSON and every
    language read it whole) whose low ``DAY_BITS`` are ``day``."""
    digest = hashlib.sha256(f"bullscows daily\0{key}\0{spec}\0{day}".encode()).digest()
    drawn = int.from_bytes(digest[:8], "big") >> (64 - (SEED_BITS - DAY_BITS))
    return (drawn << DAY_BITS) | day


def daily_game(rules: Rules, day: int, hints: Strategy | str | None = None,
               hard: bool = False) -> Codemaker:  # fmt: skip
    """A new game of day ``day``'s puzzle of ``rules``, with the variant's guess limit."""
    if rules.spec not in VARIANTS:
        raise DailyError(
            f"no daily puzzle of {rules.spec!r}: there is one of {', '.join(VARIANTS)}"
        )
    if not 1 <= day < 1 << DAY_BITS:
        raise DailyError(f"day {day!r}: the puzzles are numbered from 1")
    seed = _seed(rules.spec, day, os.environ.get(KEY_ENV, ""))
    return Codemaker(rules, seed=seed, hints=hints, hard=hard, max_guesses=LIMITS[rules.spec])


def day_of(game: Game) -> int | None:
    """The day whose puzzle ``game`` is, or ``None`` when it is not a daily puzzle."""
    return _day(game.rules.spec, game.seed) if isinstance(game, Codemaker) else None


def puzzle_of(record: GameRecord) -> tuple[str, int] | None:
    """The variant and the day of the daily puzzle that ``record`` is a game of, or ``None``:
    not a daily puzzle, or one given up before its first guess (it told nothing: the puzzle
    may be played again). Read without replaying the game.

    >>> game = daily_game(Rules.parse("mm"), 330)
    >>> puzzle_of(game.to_record())
    ('mm', 330)
    >>> _ = game.give_up()
    >>> puzzle_of(game.to_record()) is None
    True
    """
    actions = {event.action for event in record.events}
    if record.kind != "codemaker" or ("give-up" in actions and "guess" not in actions):
        return None
    day = _day(record.rules, record.seed)
    return None if day is None else (record.rules, day)


def _day(spec: str, seed: int) -> int | None:
    """The day whose puzzle of ``spec`` a game of ``seed`` is, if it is one."""
    if spec not in VARIANTS:
        return None
    day = seed & ((1 << DAY_BITS) - 1)
    key = os.environ.get(KEY_ENV, "")
    return day if day >= 1 and seed == _seed(spec, day, key) else None
