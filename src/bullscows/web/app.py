"""The ASGI application: storage, the guards, the JSON API, the pages and the static files.

``create_app`` builds it over a database; ``from_environment`` is the factory each worker
process of ``bullscows serve --workers N`` calls, reading the database and the limits from the
environment the command set.

>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app("sqlite://", warm=False))
>>> client.get("/api/health").json()
{'ok': True}
>>> client.head("/").status_code, client.get("/favicon.ico").headers["content-type"]
(200, 'image/svg+xml')
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import multiprocessing
import os
import random
import sys
import threading
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from bullscows.errors import BullsCowsError
from bullscows.seeding import SEED_BOUND, read_seed
from bullscows.web import api, pages, player
from bullscows.web.common import HERE, Games
from bullscows.web.compute import Pool
from bullscows.web.gate import Gate
from bullscows.web.limits import Limits, RateLimit
from bullscows.web.security import ASGIApp, Guard, Message, Receive, Scope, Send
from bullscows.web.storage import Store, Unavailable

#: The environment variable that seeds a server's games (``create_app``'s ``seed``).
SEED_ENV = "BULLSCOWS_SEED"
#: No OpenTelemetry: FastAPI (from 0.16x) otherwise looks for its providers on every request,
#: a tenth of a move's time on the server.
QUIET: dict[str, Any] = (
    {"telemetry": {"tracing": False, "metrics": False, "logs": False}}
    if "telemetry" in inspect.signature(FastAPI.__init__).parameters
    else {}
)


def warm_up() -> None:
    """Compile (or load) the scoring kernels, so that the first move waits for nothing."""
    from bullscows._kernels import compiled

    compiled.warm_up()


def create_app(
    database: str | None = None,
    warm: bool = True,
    limits: Limits | None = None,
    seed: int | None = None,
) -> FastAPI:
    """The app over the database at ``database`` (see ``storage.default_url``), within
    ``limits`` (``Limits()``: the defaults). With ``seed``, new games draw their seeds from
    one generator seeded so: each game its own, the same ones in the same order each run
    (pictures and tests that replay); else each a fresh one. The daily puzzle's secret is
    the day's, and a challenge's the game's it copies, seeded or not. A seeded server's ids
    (games, challenges, trees) are drawn likewise: its secrets and links follow from its
    seed, so it serves pictures and tests, never players."""
    limits = limits or Limits()
    store = Store(database)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if warm:
            threading.Thread(target=warm_up, name="bullscows-warm-up", daemon=True).start()
            pool.warm()  # on the main thread: the forkserver ignores Ctrl-C from its start
        sweeper = asyncio.create_task(_expire(store, limits))
        try:
            yield
        finally:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
            pool.gate.close()
            store.close()  # its connections and its writer file (``<database>-writer``)

    app = FastAPI(
        **QUIET,
        title="bullscows",
        summary="Play, solve, duel and assist games of Bulls & Cows and Mastermind.",
        version="1",
        lifespan=lifespan,
        docs_url=None,  # its pages load their scripts from a CDN: the document is enough
        redoc_url=None,
    )
    app.router.route_class = api.StrictJSONRoute  # every route reads its JSON body strictly
    pool = Pool(limits.pool, limits.seconds, database=store.url)
    seeds = None if seed is None else random.Random(f"games:{seed}")  # -7 is not 7
    store.ids = None if seed is None else random.Random(f"ids:{seed}")
    app.state.games = Games(store, pool, seeds)
    app.state.limits = limits
    app.add_middleware(Guard)
    app.add_middleware(RateLimit, limits_of=limits, store=store)
    app.add_middleware(HeadAsGet)
    app.add_middleware(Counted, gate=pool.gate)
    api.install(app)
    pages.install(app)
    player.install(app)

    @app.get("/api/load", tags=["service"])
    def load() -> dict[str, int]:
        """This worker's long computations: running now, started, and stopped (out of time,
        or their client gone)."""
        return dict(pool.counts)

    @app.get("/favicon.ico", include_in_schema=False)
    @app.get("/favicon.svg", include_in_schema=False)
    def favicon() -> FileResponse:
        return FileResponse(HERE / "static" / "favicon.svg", media_type="image/svg+xml")

    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    return app


def from_environment() -> FastAPI:
    """The app of one worker of ``bullscows serve``: database, limits and seed from the
    environment (``BULLSCOWS_DATABASE``, ``Limits.from_environment``, ``SEED_ENV``). A seed
    that is no seed stops the worker with one line (uvicorn's failure to start)."""
    from uvicorn.config import STARTUP_FAILURE

    try:
        seed = seed_from(os.environ)
    except BullsCowsError as error:
        print(f"Error: {error}", file=sys.stderr)
        sys.exit(STARTUP_FAILURE)
    seed = None if seed is None else worker_seed(seed)
    return create_app(None, limits=Limits.from_environment(), seed=seed)


def worker_seed(seed: int) -> int:
    """The seed of this process's games' generator: ``seed`` itself in the one process of a
    server, else (a worker of ``serve --workers N``, started by ``multiprocessing``) one
    drawn from ``seed`` and the process id, so that no two workers draw the same games."""
    if multiprocessing.parent_process() is None:
        return seed
    return random.Random(f"{seed}:{os.getpid()}").randrange(SEED_BOUND)


def seed_from(environ: Mapping[str, str]) -> int | None:
    """The seed that ``SEED_ENV`` gives the games of a server (``None`` where it is unset or
    empty), read as every seed is (``seeding.read_seed``).

    >>> seed_from({SEED_ENV: " -7 "}), seed_from({})
    (-7, None)
    """
    text = environ.get(SEED_ENV, "")
    return read_seed(text, SEED_ENV) if text.strip() else None


async def _expire(store: Store, limits: Limits) -> None:
    """Delete the games and uploads left alone for ``limits.expire_hours``, hourly."""
    if not limits.expire_hours:
        return
    while True:
        with contextlib.suppress(Unavailable):
            await asyncio.to_thread(store.expire, timedelta(hours=limits.expire_hours))
        await asyncio.sleep(3600)


class Counted:
    """Every request counted by ``gate`` while it is answered: computations pause meanwhile."""

    def __init__(self, app: ASGIApp, gate: Gate) -> None:
        self.app, self.gate = app, gate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        with self.gate.counted():
            await self.app(scope, receive, send)


class HeadAsGet:
    """``HEAD`` answered as ``GET`` without the body, on every route (RFC 9110)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)
