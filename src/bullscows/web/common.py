"""What the API and the pages share: the stored games (loaded by id, changed under a lock and
committed), the templates, and the page that shows an error."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from weakref import WeakValueDictionary

from fastapi import Query, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from bullscows.errors import BullsCowsError
from bullscows.records import GameRecord
from bullscows.sessions import Codemaker, Game, restore
from bullscows.web import benching
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
        return restore(record, assist=mode == "assist"), mode

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


templates = Jinja2Templates(directory=HERE / "templates")
#: The strategies a bench compares: ``strategy`` repeated in the query.
BENCH_STRATEGIES = Query(default=list(benching.DEFAULT), max_length=12)


def render(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, name, context, status_code=status)


def error_page(request: Request, error: BullsCowsError, status: int = 400) -> HTMLResponse:
    """A page with the message, for errors outside a game's own page."""
    return render(request, "error.html", status, message=str(error), title="Error")
