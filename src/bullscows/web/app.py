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
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from bullscows.web import api, pages, player
from bullscows.web.common import HERE, Games
from bullscows.web.compute import Pool
from bullscows.web.gate import Gate
from bullscows.web.limits import Limits, RateLimit
from bullscows.web.security import ASGIApp, Guard, Message, Receive, Scope, Send
from bullscows.web.storage import Store, Unavailable

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
    database: str | None = None, warm: bool = True, limits: Limits | None = None
) -> FastAPI:
    """The app over the database at ``database`` (see ``storage.default_url``), within
    ``limits`` (``Limits()``: the defaults)."""
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
    app.state.games = Games(store, pool)
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
    """The app of one worker of ``bullscows serve``: database and limits from the
    environment (``BULLSCOWS_DATABASE``, ``Limits.from_environment``)."""
    return create_app(None, limits=Limits.from_environment())


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
