"""What one server allows: how long abandoned games are kept, how many games and uploads a
client may start (counted by ``limits``, the rate-limiting library, per worker process), and
how much time and work one request's computation may take.

``bullscows serve`` passes them to its workers in ``BULLSCOWS_LIMITS`` (JSON).

>>> Limits.from_environment({"BULLSCOWS_LIMITS": '{"expire_hours": 2}'}).expire_hours
2.0
>>> Limits.from_environment({"BULLSCOWS_LIMITS": '{"games": "often"}'})
Traceback (most recent call last):
...
bullscows.errors.BullsCowsError: BULLSCOWS_LIMITS: games 'often': give a rate such as '60/minute'
"""

from __future__ import annotations

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
from bullscows.web.security import ASGIApp, Receive, Scope, Send

LIMITS_ENV = "BULLSCOWS_LIMITS"
#: Requests (POST) that start a game or a challenge's game, and those that upload a tree.
STARTS = re.compile(r"/api/games|/(?:new|challenge|api/challenges)/[^/]+")
UPLOADS = re.compile(r"/tree/upload")


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
    #: Computations run at once in worker processes of their own; more wait, then get 503.
    pool: int = 2

    def __post_init__(self) -> None:
        for name in ("games", "uploads"):
            value = getattr(self, name)
            try:
                limits.parse(value)
            except ValueError:
                raise BullsCowsError(
                    f"{LIMITS_ENV}: {name} {value!r}: give a rate such as '60/minute'"
                ) from None

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


class RateLimit:
    """ASGI middleware: a client that starts more games, or uploads more trees, than
    ``Limits`` allow gets 429 with the rate and when to come back."""

    def __init__(self, app: ASGIApp, limits_of: Limits) -> None:
        self.app = app
        self.limiter = limits.strategies.MovingWindowRateLimiter(limits.storage.MemoryStorage())
        self.rates = {"games": limits.parse(limits_of.games),
                      "uploads": limits.parse(limits_of.uploads)}  # fmt: skip

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = _kind(scope)
        if kind is not None:
            client = (scope.get("client") or ("?", 0))[0]
            rate = self.rates[kind]
            if not self.limiter.hit(rate, kind, client):
                reset = self.limiter.get_window_stats(rate, kind, client).reset_time
                wait = max(1, round(reset - time.time()))
                answer = JSONResponse(
                    {"error": f"too many {kind} from {client}: at most {rate}; try again in "
                              f"{wait} s"},
                    status_code=429, headers={"retry-after": str(wait)},
                )  # fmt: skip
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _kind(scope: Scope) -> str | None:
    if scope["type"] != "http" or scope["method"] != "POST":
        return None
    if UPLOADS.fullmatch(scope["path"]):
        return "uploads"
    return "games" if STARTS.fullmatch(scope["path"]) else None
