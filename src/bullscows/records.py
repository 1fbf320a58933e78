"""Games as records: a few hundred bytes of JSON from which a game rebuilds exactly.

A record holds the variant's spec, the game's kind, its seed (every random draw of the game
comes from it, see ``bullscows.seeding``), the strategy, the secret where the computer holds
one, and the log of everything the person did, in order. ``sessions.restore`` replays it.

>>> record = GameRecord("codemaker", "bc", seed=7, secret="2745",
...                     events=(Event("guess", code="0123"), Event("give-up")))
>>> record
GameRecord('codemaker', 'bc', 2 events)
>>> GameRecord.loads(record.dumps()) == record
True
>>> "2745" in json.dumps(record.public_json(over=False))
False
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from bullscows.errors import BullsCowsError, RecordError
from bullscows.readers import load_json, quote_value
from bullscows.seeding import check_seed
from bullscows.strategy_spec import StrategySpec
from bullscows.words import with_article

RECORD_VERSION = 1
#: The kinds of game, each a class of ``bullscows.sessions``.
KINDS = ("codemaker", "adversary", "codebreaker", "duel")
#: Kinds in which the computer hides a code: their seed and secret stay private until the end.
HIDING = ("codemaker", "adversary", "duel")
#: Each action with the fields it carries.
ACTIONS: dict[str, tuple[str, ...]] = {
    "guess": ("code",),  # the person guesses the computer's code
    "reply": ("code", "reply"),  # the person replies to the computer's guess ``code``
    "record": ("code", "reply"),  # a guess and its reply from a game played elsewhere
    "undo": (),  # the last reply is taken back
    "correct": ("step", "reply"),  # reply number ``step`` (from 1) is replaced
    "hint": (),  # the person asked for a hint
    "commit": (),  # the adversary binds itself to a secret
    "give-up": (),  # the person stops; the computer's code is shown
}
#: The optional fields of a record, each with the kinds of game it belongs to: the options of a
#: game against the computer's code; a challenge is a friend's fixed secret, which only a
#: codemaker has (an adversary commits to none).
OPTIONS: dict[str, tuple[str, ...]] = {
    "hard": ("codemaker", "adversary"),
    "max_guesses": ("codemaker", "adversary"),
    "coach": ("codemaker", "adversary"),
    "challenge": ("codemaker",),
}
#: Why an option does not belong to a kind of game (``OPTIONS``), where it is not obvious.
NOT_FOR = {
    ("challenge", "adversary"): "a challenge is a friend's fixed secret, and an adversary "
    "game has none",
}
#: The largest guess limit a game may have.
MAX_GUESSES = 1_000
#: A record longer than this (in characters of JSON) is refused.
MAX_RECORD = 1_000_000
#: Longest text a field of an event may hold (a code, a reply).
MAX_FIELD = 200
#: What a file of a game record holds, for the error of one that holds no JSON.
RECORD_HOLDS = 'a game record file holds one game as JSON (a game\'s "record" in the web API)'


class Status(Enum):
    """Where a game stands."""

    PLAYING = "playing"
    SOLVED = "solved"
    GAVE_UP = "gave-up"
    LOST = "lost"  # the guesses allowed are used up
    CONTRADICTORY = "contradictory"


class Winner(Enum):
    """Who won a duel."""

    PERSON = "person"
    COMPUTER = "computer"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Event:
    """One thing the person did: an action of ``ACTIONS`` with its fields."""

    action: str
    code: str | None = None
    reply: str | None = None
    step: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"do": self.action}
        for name in ACTIONS.get(self.action, ()):
            data[name] = getattr(self, name)
        return data

    @classmethod
    def from_json(cls, data: object) -> Event:
        """An event from ``to_json``'s data; anything else is a ``RecordError``."""
        if not isinstance(data, dict) or data.get("do") not in ACTIONS:
            raise RecordError(
                f"an event is an object whose 'do' is one of {', '.join(ACTIONS)}, "
                f"not {quote_value(data)}"
            )
        action = data["do"]
        wanted = ACTIONS[action]
        if set(data) != {"do", *wanted}:
            fields = ", ".join(wanted) or "no other field"
            raise RecordError(
                f"event {quote_value(data)}: {with_article(repr(action))} event has {fields}"
            )
        for name in ("code", "reply"):
            if name in wanted and not (
                isinstance(data[name], str) and len(data[name]) <= MAX_FIELD
            ):
                raise RecordError(f"event {quote_value(data)}: {name!r} is not a text")
        step = data.get("step")
        if "step" in wanted and (type(step) is not int or step < 1):
            raise RecordError(f"event {quote_value(data)}: 'step' is not a reply number from 1")
        return cls(action, data.get("code"), data.get("reply"), step)


@dataclass(frozen=True)
class GameRecord:
    """Everything a game needs to rebuild: see the module's doc."""

    kind: str
    rules: str
    seed: int
    strategy: StrategySpec | None = None
    secret: str | None = field(default=None, repr=False)
    events: tuple[Event, ...] = ()
    hard: bool = False  # a codemaker's game in hard mode: every guess fits every reply so far
    max_guesses: int | None = None  # a codemaker's guess limit: the game is lost after it
    coach: bool = False  # a codemaker's game with the card's advice at each move
    challenge: bool = False  # a codemaker's game of a friend's challenge: their game's secret

    def __repr__(self) -> str:  # never the secret, never the seed
        return f"GameRecord({self.kind!r}, {self.rules!r}, {len(self.events)} events)"

    def to_json(self) -> dict[str, Any]:
        return {
            "version": RECORD_VERSION,
            "kind": self.kind,
            "rules": self.rules,
            "seed": self.seed,
            "strategy": None if self.strategy is None else self.strategy.to_json(),
            "secret": self.secret,
            "events": [event.to_json() for event in self.events],
            **({"hard": True} if self.hard else {}),
            **({} if self.max_guesses is None else {"max_guesses": self.max_guesses}),
            **({"coach": True} if self.coach else {}),
            **({"challenge": True} if self.challenge else {}),
        }

    def public_json(self, over: bool) -> dict[str, Any]:
        """``to_json`` less what would give the computer's code away while the game goes on:
        the secret and the seed it was drawn from."""
        data = self.to_json()
        if not over and self.kind in HIDING:
            del data["secret"], data["seed"]
        return data

    def dumps(self) -> str:
        """The record as compact JSON text."""
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def loads(cls, text: str, where: str | None = None) -> GameRecord:
        """A record from ``dumps``'s text; anything else is a ``RecordError``, which names
        ``where`` the text came from (a file, quoted) if given.

        >>> GameRecord.loads("{", "game record 'x.json'")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        bullscows.errors.RecordError: game record 'x.json' line 1 is not JSON: ...
        """
        named = "" if where is None else f"{where}: "
        if len(text) > MAX_RECORD:
            raise RecordError(f"{named}a game record is at most {MAX_RECORD:,} characters")
        try:
            data = load_json(text, where or "game record", holds=RECORD_HOLDS)
        except BullsCowsError as error:
            raise RecordError(str(error)) from None
        try:
            return cls.from_json(data)
        except RecordError as error:
            raise RecordError(f"{named}{error}") from None

    @classmethod
    def from_json(cls, data: object) -> GameRecord:
        """A record from ``to_json``'s data, every field checked."""
        keys = {"version", "kind", "rules", "seed", "strategy", "secret", "events"}
        if not isinstance(data, dict) or not keys <= set(data) <= keys | set(OPTIONS):
            raise RecordError(
                f"a game record is an object with {', '.join(sorted(keys))} (and "
                f"{' or '.join(sorted(OPTIONS))})"
            )
        for flag in ("hard", "coach", "challenge"):
            if flag in data and data[flag] is not True:
                raise RecordError(f"{flag} {quote_value(data[flag])}: true, or left out")
        limit = data.get("max_guesses", 1)
        if type(limit) is not int or not 1 <= limit <= MAX_GUESSES:
            raise RecordError(
                f"max_guesses {quote_value(limit)}: a whole number from 1 to {MAX_GUESSES}, "
                "or left out"
            )
        if data["version"] != RECORD_VERSION:
            raise RecordError(
                f"game record version {quote_value(data['version'])}: this program reads version "
                f"{RECORD_VERSION}"
            )
        if data["kind"] not in KINDS:
            raise RecordError(f"game kind {quote_value(data['kind'])}: one of {', '.join(KINDS)}")
        _check_options(data)
        if not isinstance(data["rules"], str) or len(data["rules"]) > MAX_FIELD * 10:
            raise RecordError(f"rules {quote_value(data['rules'])}: give a variant's spec")
        try:
            check_seed(data["seed"])
        except BullsCowsError as error:
            raise RecordError(str(error)) from None
        secret = data["secret"]
        if secret is not None and not (isinstance(secret, str) and len(secret) <= MAX_FIELD):
            raise RecordError(f"secret {quote_value(secret)}: a code's text or null")
        try:
            strategy = (
                None if data["strategy"] is None else StrategySpec.from_json(data["strategy"])
            )
        except BullsCowsError as error:
            raise RecordError(str(error)) from None
        if not isinstance(data["events"], list):
            raise RecordError("a game record's events are a list")
        events = tuple(Event.from_json(event) for event in data["events"])
        return cls(data["kind"], data["rules"], data["seed"], strategy, secret, events,
                   "hard" in data, data.get("max_guesses"), "coach" in data,
                   "challenge" in data)  # fmt: skip


def _check_options(data: dict[str, Any]) -> None:
    """Refuse an option that the record's kind of game does not have (``OPTIONS``), rather
    than ignore it.

    >>> _check_options({"kind": "adversary", "challenge": True})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bullscows.errors.RecordError: 'challenge' in an adversary game: a challenge is a friend's ...
    """
    kind = data["kind"]
    for option, kinds in OPTIONS.items():
        if option in data and kind not in kinds:
            why = NOT_FOR.get((option, kind), f"only {' and '.join(kinds)} games have it")
            raise RecordError(f"{option!r} in {with_article(kind)} game: {why} (leave it out)")
