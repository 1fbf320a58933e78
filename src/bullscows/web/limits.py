"""What one server allows: how long abandoned games are kept, how many games and uploads a
client may start (counted by ``limits``, the rate-limiting library, in the game database, so
every worker and server on it counts the same hits), and how much time and work one request's
computation may take.

``bullscows serve`` passes them to its workers in ``BULLSCOWS_LIMITS`` (JSON).

>>> Limits.from_environment({"BULLSCOWS_LIMITS": '{"expire_hours": 2}'}).expire_hours
2.0
>>> Limits.from_environment({"BULLSCOWS_LIMITS": '{"games": "often"}'})
Traceback (most recent call last):
...
bullscows.errors.BullsCowsError: BULLSCOWS_LIMITS: games 'often': give a rate such as '60/minute'
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

import limits
from starlette.responses import JSONResponse

from bullscows.errors import BullsCowsError
from bullscows.web import MAX_EXPIRE_HOURS
from bullscows.web.security import ASGIApp, Receive, Scope, Send
from bullscows.web.storage import Store, Unavailable

LIMITS_ENV = "BULLSCOWS_LIMITS"
#: Requests (POST) that start a game or a challenge's game, and those that upload a tree.
STARTS = re.compile(r"/api/games|/(?:new|challenge|api/challenges)/[^/]+")
UPLOADS = re.compile(r"/tree/upload")


def rate_problem(value: str) -> str | None:
    """What is wrong with ``value`` as a rate ``limits`` reads, or ``None`` if nothing.

    >>> rate_problem("60/minute") is None, rate_problem("often")
    (True, "give a rate such as '60/minute'")
    >>> rate_problem("0/minute")
    "0 allows none; give at least 1, such as '60/minute'"
    """
    try:
        rates = limits.parse_many(value)
    except ValueError:
        return "give a rate such as '60/minute'"
    if len(rates) != 1:
        return "give one rate, such as '60/minute'"
    if rates[0].amount < 1:
        return f"{rates[0].amount} allows none; give at least 1, such as '60/minute'"
    return None


@dataclass(frozen=True)
class Limits:
    """The server's bounds (``expire_hours=0``: games are kept for ever)."""

    #: Games, challenges and uploads untouched this long are deleted (hours).
    expire_hours: float = 24 * 30
    #: Games a client may start, and trees it may upload (``limits`` notation).
    games: str = "120/minute"
    uploads: str = "10/minute"
    #: Seconds of computation one request may take (analysis, hints, trees, bench, ...).
    seconds: float = 10.0
    #: Computations run at once in processes of their own, for all the server's processes
    #: (0: one fewer than the cores); more wait, then get 503.
    pool: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.expire_hours <= MAX_EXPIRE_HOURS:  # nan too
            raise BullsCowsError(
                f"{LIMITS_ENV}: expire_hours {self.expire_hours!r}: give 0 to "
                f"{MAX_EXPIRE_HOURS:,} (a hundred years)"
            )
        for name in ("games", "uploads"):
            value = getattr(self, name)
            problem = rate_problem(value)
            if problem is not None:
                raise BullsCowsError(f"{LIMITS_ENV}: {name} {value!r}: {problem}")

    def to_environment(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> Limits:
        """The limits ``serve`` set in the environment, else the defaults."""
        given: dict[str, Any] = json.loads(environ.get(LIMITS_ENV) or "{}")
        known = {f.name: f.type for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in given.items():
            if key not in known:
                raise BullsCowsError(f"{LIMITS_ENV}: unknown limit {key!r}: {', '.join(known)}")
            values[key] = value if isinstance(getattr(cls, key), str) else float(value)
        values["pool"] = int(values.get("pool", cls.pool))
        return cls(**values)


class DatabaseStorage(limits.storage.Storage):
    """``limits``' counters kept in the game database (``Store.hit``): one count per client
    for every process on it, for the fixed-window strategy.

    >>> storage = DatabaseStorage(Store("sqlite://"))
    >>> limiter = limits.strategies.FixedWindowRateLimiter(storage)
    >>> [limiter.hit(limits.parse("2/minute"), "games", "10.0.0.7") for _ in range(3)]
    [True, True, False]
    """

    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store

    @property
    def base_exceptions(self) -> type[Exception]:
        return Unavailable

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        return self.store.hit(key, expiry, amount)

    def get(self, key: str) -> int:
        return self.store.hits(key)[0]

    def get_expiry(self, key: str) -> float:
        return self.store.hits(key)[1]

    def check(self) -> bool:
        try:
            self.store.hits("check")
        except Unavailable:
            return False
        return True

    def reset(self) -> int | None:
        return self.store.clear_hits()

    def clear(self, key: str) -> None:
        self.store.clear_hits(key)


class RateLimit:
    """ASGI middleware: a client that starts more games, or uploads more trees, than
    ``Limits`` allow (counted in ``store``, for every process on it) gets 429 with the rate
    and when to come back."""

    def __init__(self, app: ASGIApp, limits_of: Limits, store: Store) -> None:
        self.app = app
        self.limiter = limits.strategies.FixedWindowRateLimiter(DatabaseStorage(store))
        self.rates = {"games": limits.parse(limits_of.games),
                      "uploads": limits.parse(limits_of.uploads)}  # fmt: skip

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = _kind(scope)
        if kind is not None:
            client = (scope.get("client") or ("?", 0))[0]
            try:  # the database on a thread, the event loop free meanwhile
                refused = await asyncio.to_thread(self._refused, kind, client)
            except Unavailable as error:
                refused = JSONResponse({"error": str(error)}, 503, headers={"retry-after": "5"})
            if refused is not None:
                await refused(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _refused(self, kind: str, client: str) -> JSONResponse | None:
        """``None`` if ``client`` may start one more of ``kind``, else the 429 it gets."""
        rate = self.rates[kind]
        if self.limiter.hit(rate, kind, client):
            return None
        reset = self.limiter.get_window_stats(rate, kind, client).reset_time
        wait = max(1, round(reset - time.time()))
        return JSONResponse(
            {"error": f"too many {kind} from {client}: at most {rate}; try again in {wait} s"},
            status_code=429, headers={"retry-after": str(wait)},
        )  # fmt: skip


def _kind(scope: Scope) -> str | None:
    if scope["type"] != "http" or scope["method"] != "POST":
        return None
    if UPLOADS.fullmatch(scope["path"]):
        return "uploads"
    return "games" if STARTS.fullmatch(scope["path"]) else None
