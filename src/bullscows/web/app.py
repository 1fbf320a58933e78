"""The ASGI application: storage, the guards, the JSON API, the pages and the static files.

>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app("sqlite://", warm=False))
>>> client.get("/api/health").json()
{'ok': True}
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from bullscows.web import api, pages, player
from bullscows.web.common import HERE, Games
from bullscows.web.security import Guard
from bullscows.web.storage import Store


def warm_up() -> None:
    """Compile (or load) the scoring kernels, so that the first move waits for nothing."""
    from bullscows._kernels import compiled

    compiled.warm_up()


def create_app(database: str | None = None, warm: bool = True) -> FastAPI:
    """The app over the database at ``database`` (see ``storage.default_url``)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if warm:
            threading.Thread(target=warm_up, name="bullscows-warm-up", daemon=True).start()
        yield

    app = FastAPI(
        title="bullscows",
        summary="Play, solve, duel and assist games of Bulls & Cows and Mastermind.",
        version="1",
        lifespan=lifespan,
        docs_url=None,  # its pages load their scripts from a CDN: the document is enough
        redoc_url=None,
    )
    app.state.games = Games(Store(database))
    app.add_middleware(Guard)
    api.install(app)
    pages.install(app)
    player.install(app)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    return app
