"""What the API and the pages share: the stored games (loaded by id, changed by compare and
set and committed), the templates, and the page that shows an error."""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from weakref import WeakValueDictionary

from fastapi import Query, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates

from bullscows.caching import Kept
from bullscows.errors import BullsCowsError, StaleMoveError
from bullscows.records import GameRecord
from bullscows.seeding import SEED_BOUND
from bullscows.sessions import Game, Move
from bullscows.sessions import challenge as challenge_of
from bullscows.web import benching
from bullscows.web.compute import SEARCH_WORK, Busy, Client, Gone, Pool, TooLarge
from bullscows.web.games import (
    MODES,
    Setup,
    Told,
    analysed,
    apply,
    new_game,
    restored,
    state,
)
from bullscows.web.models import HintOut, StateOut
from bullscows.web.storage import Store, Unavailable

#: Reads a game (and its mode) and names the move to make.
Chooser = Callable[[Game, str], Move]
#: A move is tried this many times against moves of other processes before a 409.
ATTEMPTS = 50
#: A game as this process last wrote it: its record, mode, version and the game itself.
Known = tuple[GameRecord, str, int, Game]
#: The games kept so (``Games._keep``) hold at most this many codes in all (mm: 1,296 each).
KNOWN_CODES = 2_000_000
#: The last hints given here are kept (``Games.hint``) for this many games.
HINTS_KEPT = 1000
#: A game's analysis, computed once and kept with the game, may take this many times a
#: request's budget (``Limits.seconds``).
ANALYSIS_BUDGET = 3

HERE = Path(__file__).parent
#: The mode under which a challenge's template is stored.
CHALLENGE = "challenge"
#: The cookie that names the player whose games a browser starts (the record page counts them),
#: its form (``storage.new_id``'s 128 random bits, base64) and how long it is kept (5 years).
PLAYER_COOKIE = "bullscows-player"
PLAYER_ID = re.compile(r"[A-Za-z0-9_-]{22}")
PLAYER_AGE = 5 * 365 * 24 * 3600


class NotFound(BullsCowsError):
    """No game (or tree) of that id."""


class Conflict(BullsCowsError):
    """A move that kept losing the race to other moves on the same game (409)."""


class Games:
    """The stored games: load by id, apply a move, commit it unless another came first (then
    apply it again to the newer game), return. A new game's seed is fresh, or the next drawn
    from ``seeds`` (a generator seeded once: the same games in the same order each run)."""

    def __init__(self, store: Store, pool: Pool | None = None,
                 seeds: random.Random | None = None) -> None:  # fmt: skip
        self.store, self.pool, self.seeds = store, pool or Pool(), seeds
        self._locks: WeakValueDictionary[str, threading.Lock] = WeakValueDictionary()
        self._guard = threading.Lock()
        self._known: OrderedDict[str, Known] = OrderedDict()
        self._known_codes = 0
        self._hints: Kept[str, tuple[GameRecord, HintOut]] = Kept(HINTS_KEPT)
        self._analysing: WeakValueDictionary[str, threading.Lock] = WeakValueDictionary()

    def add(self, game: Game, mode: str, player: str | None = None) -> str:
        return self.store.add(game.to_record(), mode, player)

    def load(self, game_id: str, template: bool = False) -> tuple[Game, str]:
        """The game of that id and its mode; a challenge's template only with ``template``
        (nobody plays the template itself: each friend plays a copy)."""
        record, mode, _ = self.read(game_id, template)
        return restored(record, mode), mode

    def challenge(self, game_id: str) -> str:
        """A challenge to play the same secret as the finished game ``game_id``: its id."""
        game, _ = self.load(game_id)
        return self.store.add(challenge_of(game).to_record(), CHALLENGE)

    def challenges(self, game: Game, challenge_id: str) -> bool:
        """Whether ``challenge_id`` is a challenge of ``game``'s secret (in its variant)."""
        try:
            template, _ = self.load(challenge_id, template=True)
        except NotFound:
            return False
        made = template.to_record()
        record = game.to_record()
        return (made.rules, made.secret) == (record.rules, record.secret) and game.over

    def accept(self, challenge_id: str, player: str | None = None) -> tuple[str, Game]:
        """A new game of the challenge's secret, for ``player``: its id, and the game."""
        game, _ = self.load(challenge_id, template=True)
        return self.add(game, "play", player), game

    def play(self, client: Client | None, game_id: str, choose: Chooser) -> tuple[Game, Played]:
        """One move on the game as stored: ``choose`` reads it and names the move; the move and
        the new state are computed here, or in the pool when large. The new record is written
        only if no other move was written meanwhile (by any process), else the move is made
        again on the newer game (where a move carrying its number is then stale: 409). The
        game, and what the person sees."""
        with self._guard:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = threading.Lock()
        with lock:  # in this process one move at a time; the database orders the others
            for attempt in range(ATTEMPTS):
                known = None if attempt else self._recall(game_id)
                record, mode, version, game = known or self._stored(game_id)
                try:
                    game, shown, told, after = self._move(client, game, record, mode, choose)
                except BullsCowsError as error:
                    if known is None or isinstance(error, TooLarge | Busy | Gone):
                        raise
                    continue  # the game kept here may be behind the stored one: try that
                if after == record and known is not None and self.read(game_id)[2] != version:
                    continue  # nothing to write, and the game kept here is behind the stored one
                if after == record or self.store.put(game_id, after, version):
                    self._keep(game_id, (after, mode, version + (after != record), game))
                    if told.hint is not None:
                        self._hints.put(game_id, (after, told.hint))
                    return game, Played(mode, shown, told)
                time.sleep(min(0.001 * 2**attempt, 0.05) * random.random())
        raise Conflict(
            f"game {game_id[:40]!r} changed {ATTEMPTS} times while this move was made; "
            "reload it and play again"
        )

    def hint(self, game_id: str, game: Game) -> HintOut | None:
        """The hint this process gave last on the game, if the game is still as that hint
        left it (else ``None``: another process may have given it, or a move came since)."""
        kept = self._hints.get(game_id)
        return kept[1] if kept is not None and kept[0] == game.to_record() else None

    def _move(self, client: Client | None, game: Game, record: GameRecord, mode: str,
              choose: Chooser) -> tuple[Game, StateOut, Told, GameRecord]:  # fmt: skip
        """The move ``choose`` names on ``game`` (of ``record``), made here or in the pool: the
        game after it, its state, what the move told, and the new record."""
        move = choose(game, mode)
        work = work_of(game, move)
        if self.pool.inline(work):
            with self.pool.timed(game.command()):
                told = apply(game, move)
                return game, state(game, mode), told, game.to_record()
        text, told, shown = self.pool.call(
            client, work, moved, record.dumps(), mode, move, command=game.command()
        )
        after = GameRecord.loads(text)
        return restored(after, mode), shown, told, after

    def _stored(self, game_id: str) -> Known:
        record, mode, version = self.read(game_id)
        return record, mode, version, restored(record, mode)

    def _recall(self, game_id: str) -> Known | None:
        """The game as this process last wrote it, taken out while a move is made on it."""
        with self._guard:
            known = self._known.pop(game_id, None)
            if known is not None:
                self._known_codes -= known[3].rules.size
            return known

    def _keep(self, game_id: str, known: Known) -> None:
        """Keep the game as this process last wrote it, so that its next move here needs
        neither a read nor a replay (the write's compare-and-set still checks it is current);
        the games most recently moved, up to ``KNOWN_CODES`` codes in all."""
        with self._guard:
            self._known[game_id] = known
            self._known_codes += known[3].rules.size
            while self._known_codes > KNOWN_CODES and len(self._known) > 1:
                _, (*_, dropped) = self._known.popitem(last=False)
                self._known_codes -= dropped.rules.size

    def read(self, game_id: str, template: bool = False) -> tuple[GameRecord, str, int]:
        """The game's record, mode and version (a challenge's template only with
        ``template``), or ``NotFound``."""
        found = self.store.read(game_id)
        if found is None or (found[1] == CHALLENGE) != template:
            what = "challenge" if template else "game"
            raise NotFound(f"no {what} {game_id[:40]!r}: it may have been mistyped")
        return found

    def view(self, client: Client | None, game_id: str) -> tuple[Game, Played]:
        """The game and what the person sees of it (computed in the pool when large)."""
        game, mode = self.load(game_id)
        return game, Played(mode, self.shown(client, game, mode))

    def shown(self, client: Client | None, game: Game, mode: str) -> StateOut:
        """``games.state`` of ``game``, here or in the pool."""
        work, command = work_of(game), game.command()
        if self.pool.inline(work):
            with self.pool.timed(command):
                return state(game, mode)
        return self.pool.call(client, work, shown_of, game.to_record().dumps(), mode,
                              command=command)  # fmt: skip

    def start(self, client: Client | None, setup: Setup, player: str | None = None
              ) -> tuple[str, StateOut]:  # fmt: skip
        """A new game as ``setup`` asks, for ``player``, stored once what it shows first is
        computed: its id and state."""
        game = new_game(setup, self._seed())
        shown = self.shown(client, game, setup.mode)
        return self.add(game, setup.mode, player), shown

    def _seed(self) -> int | None:
        """The next game's seed from ``seeds``, or ``None`` (a fresh one)."""
        if self.seeds is None:
            return None
        with self._guard:
            return self.seeds.randrange(SEED_BOUND)

    def analysis(self, client: Client | None, game_id: str) -> tuple[Game, str, list[Any]]:
        """The game, its mode, and ``games.analysed`` of it: kept with the game as it stands
        (its version), else computed (in the pool when large, given ``ANALYSIS_BUDGET`` times
        a request's budget, one at a time per game here) and kept; its state is left to the
        caller that shows it."""
        record, mode, version = self.read(game_id)
        game = restored(record, mode)
        with self._guard:
            lock = self._analysing.get(game_id)
            if lock is None:
                lock = self._analysing[game_id] = threading.Lock()
        with lock:  # a second look (a reload, a second tab) waits for the first's, and reads it
            kept = self.store.analysis(game_id, version)
            if kept is not None:
                return game, mode, json.loads(kept)
            guesses = sum(event.action == "guess" for event in record.events)
            work = game.rules.guess_rules.size * game.rules.size * max(guesses, 1)
            moves = self.pool.call(client, work, analysed_of, record.dumps(),
                                   command=game.command(analysis=True),
                                   seconds=ANALYSIS_BUDGET * self.pool.seconds)  # fmt: skip
            self.store.keep_analysis(game_id, version, json.dumps(moves))
        return game, mode, moves


@dataclass
class Played:
    """What a move or a look shows: the mode, the state, and what the move told."""

    mode: str
    shown: StateOut
    told: Told = field(default_factory=Told)


def work_of(game: Game, move: Move | None = None) -> int:
    """About how many pairs of codes ``move`` (``None``: showing the game) scores: a
    strategy's choice (a hint, the computer's next guess) weighs every guess against every
    code left; a guess or a reply weighs only the codes left."""
    rules, among = game.rules, game.choosing_among
    if not (game.chooses_always or (move is not None and move.asks_strategy)):
        return among
    strategy = game.chooser
    if strategy is not None and strategy.needs_search(rules):
        return SEARCH_WORK
    return rules.guess_rules.size * among


def moved(text: str, mode: str, move: Move) -> tuple[str, Told, StateOut]:
    """In the pool: ``move`` on the game of record ``text``; its new record, what it told,
    and its state."""
    game = restored(GameRecord.loads(text), mode)
    told = apply(game, move)
    return game.to_record().dumps(), told, state(game, mode)


def shown_of(text: str, mode: str) -> StateOut:
    """In the pool: the state of the game of record ``text``."""
    return state(restored(GameRecord.loads(text), mode), mode)


def analysed_of(text: str) -> list[dict[str, Any]]:
    """In the pool: the analysis of the game of record ``text``."""
    return analysed(restored(GameRecord.loads(text), "play"))


def status_of(error: BullsCowsError) -> int:
    """The HTTP status of an error: 404 no such game, 409 a lost race or a stale move, 422 a
    computation too large, 503 the server busy or its database unavailable, 499 the client
    gone, else 400 (bad input)."""
    kinds = ((NotFound, 404), ((Conflict, StaleMoveError), 409), (TooLarge, 422),
             (Busy, 503), (Unavailable, 503), (Gone, 499))  # fmt: skip
    for kind, status in kinds:
        if isinstance(error, kind):
            return status
    return 400


def player_of(request: Request) -> str | None:
    """The player id in the request's cookie, if it is one this server could have made."""
    found = request.cookies.get(PLAYER_COOKIE, "")
    return found if PLAYER_ID.fullmatch(found) else None


def for_player(request: Request, response: Response, player: str) -> Response:
    """``response`` keeping ``player`` in the browser's cookie (first-party, out of script's
    reach, Secure over https), for the record page."""
    response.set_cookie(PLAYER_COOKIE, player, max_age=PLAYER_AGE, httponly=True,
                        samesite="lax", secure=request.url.scheme == "https")  # fmt: skip
    return response


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
    """A page with the message, for errors outside a game's own page, and a link back to the
    page the request came from (``way_back``)."""
    back, words = way_back(request.url.path, status)
    heading = HEADINGS.get(status, "Not done")
    return render(request, "error.html", status, message=str(error), title=heading,
                  back=back, back_words=words)  # fmt: skip


#: An error page's heading by its status (else "Not done"): what happened, in two words.
HEADINGS = {404: "Not found", 409: "Already answered", 413: "Too large", 422: "Too large",
            429: "Too many requests", 503: "Busy: try again"}  # fmt: skip


def way_back(path: str, status: int) -> tuple[str, str]:
    """Where an error page leads back to: the page of the game, challenge, tree explorer,
    record or new game the failed request was sent from, else (a page not found) the start.

    >>> way_back("/game/abc", 400), way_back("/tree/upload", 413)
    (('/game/abc', 'Back to the game'), ('/tree', 'Back to the tree explorer'))
    >>> way_back("/game/abc", 404), way_back("/new/dance", 400)
    (('/', 'Back to the start'), ('/', 'Back to the start'))
    """
    parts = path.strip("/").split("/")
    if status != 404:
        if parts[0] in ("game", "challenge") and len(parts) >= 2 and parts[1]:
            return f"/{parts[0]}/{parts[1]}", f"Back to the {parts[0]}"
        if parts[0] == "new" and len(parts) == 2 and parts[1] in MODES:
            return f"/new/{parts[1]}", "Back to the settings of a new game"
        if parts[0] in BACK:
            return f"/{parts[0]}", BACK[parts[0]]
    return "/", "Back to the start"


#: The pages whose forms lead to other paths (``/tree/upload``, ``/record/forget``).
BACK = {"tree": "Back to the tree explorer", "record": "Back to your record"}
