"""The ASGI application: storage, the guards, the JSON API, the pages and the static files.

>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app("sqlite://", warm=False))
>>> client.get("/api/health").json()
{'ok': True}
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from weakref import WeakValueDictionary

from fastapi import FastAPI, Request
from fastapi.staticfiles import StaticFiles

from bullscows.errors import BullsCowsError
from bullscows.records import GameRecord
from bullscows.sessions import Codemaker, Game, restore
from bullscows.web.security import Guard
from bullscows.web.storage import Store

HERE = Path(__file__).parent
#: The mode under which a challenge's template is stored.
CHALLENGE = "challenge"


class NotFound(BullsCowsError):
    """No game (or tree) of that id."""


class Games:
    """The stored games: load by id, apply a move under the game's lock, commit, return."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._locks: WeakValueDictionary[str, threading.Lock] = WeakValueDictionary()
        self._guard = threading.Lock()

    def add(self, game: Game, mode: str) -> str:
        return self.store.add(game.to_record(), mode)

    def load(self, game_id: str, template: bool = False) -> tuple[Game, str]:
        """The game of that id and its mode; a challenge's template only with ``template``
        (nobody plays the template itself: each friend plays a copy)."""
        found = self.store.get(game_id)
        if found is None or (found[1] == CHALLENGE) != template:
            what = "challenge" if template else "game"
            raise NotFound(f"no {what} {game_id[:40]!r}: it may have been mistyped")
        record, mode = found
        return restore(record), mode

    def challenge(self, game_id: str) -> str:
        """A challenge to play the same secret as the finished game ``game_id``: its id."""
        game, _ = self.load(game_id)
        if not (isinstance(game, Codemaker) and game.over):
            raise BullsCowsError("only a finished game against my secret can be a challenge")
        copy = Codemaker(game.rules, secret=game.secret, hints=game.hinter)
        return self.store.add(copy.to_record(), CHALLENGE)

    def accept(self, challenge_id: str) -> str:
        """A new game of the challenge's secret: its id."""
        game, _ = self.load(challenge_id, template=True)
        return self.add(game, "play")

    @contextmanager
    def moving(self, game_id: str) -> Iterator[tuple[Game, str]]:
        """The game to change; its new record is committed when the block ends without error."""
        with self._guard:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = threading.Lock()
        with lock:
            game, mode = self.load(game_id)
            before = game.to_record()
            yield game, mode
            after: GameRecord = game.to_record()
            if after != before:
                self.store.put(game_id, after)


def games_of(request: Request) -> Games:
    """The games of the app serving ``request``."""
    games: Games = request.app.state.games
    return games


def warm_up() -> None:
    """Compile (or load) the scoring kernels, so that the first move waits for nothing."""
    from bullscows._kernels import compiled

    compiled.warm_up()


def create_app(database: str | None = None, warm: bool = True) -> FastAPI:
    """The app over the database at ``database`` (see ``storage.default_url``)."""
    from bullscows.web import api, pages

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
    )
    app.state.games = Games(Store(database))
    app.add_middleware(Guard)
    api.install(app)
    pages.install(app)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    return app
