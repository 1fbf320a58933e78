"""What is the player's own: the daily puzzle (``/daily`` lists today's puzzles, a post
starts one: a game of ``play`` whose secret is ``bullscows.daily``'s, kept on the server like
any other) and the record's statistics (``/api/record``: the browser keeps the finished
games, ``standings.tally`` counts them; ``/record`` counts those of the cookie's player)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import FastAPI, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from bullscows.daily import EPOCH, LIMITS, daily_game, day_number, puzzle_of
from bullscows.rules import Rules
from bullscows.standings import Finished, tally
from bullscows.web.api import ERRORS
from bullscows.web.common import for_player, games_of, player_of, render
from bullscows.web.games import strategy_for
from bullscows.web.storage import Store, new_id

#: The most games a record sends (the browser sends its latest): well within a body's bound.
MAX_GAMES = 200


class FinishedIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rules: str = Field(min_length=1, max_length=200)
    guesses: int = Field(ge=0, le=10_000)
    won: bool
    day: int | None = Field(default=None, ge=0, le=1_000_000)


class PlayerRecordIn(BaseModel):
    """A player's finished games, oldest first, as their browser keeps them."""

    model_config = ConfigDict(extra="forbid")
    games: list[FinishedIn] = Field(max_length=MAX_GAMES)


def install(app: FastAPI) -> None:
    """Add the daily puzzle's and the record's routes to ``app``."""

    @app.post("/api/record", tags=["record"], responses={400: ERRORS[400]})
    def record_stats(body: PlayerRecordIn) -> dict[str, Any]:
        """A player's record by variant (games played, win %, current and best streak, the
        guesses their wins took) from the finished games their browser keeps."""
        games = [Finished(g.rules, g.guesses, g.won) for g in body.games]
        return {"variants": tally(games)}

    @app.get("/daily", response_class=HTMLResponse, include_in_schema=False)
    def today(request: Request) -> HTMLResponse:
        """Today's puzzles: a form to start each, or a link to the player's game of it."""
        day = day_number()
        played = todays(games_of(request).store, player_of(request), day)
        variants = [(spec, Rules.parse(spec).describe(), LIMITS[spec], played.get(spec))
                    for spec in LIMITS]  # fmt: skip
        return render(request, "daily.html", title=f"Daily puzzle #{day}", day=day,
                      epoch=EPOCH, variants=variants)  # fmt: skip

    @app.post("/daily", include_in_schema=False)
    def start(
        request: Request,
        rules: str = Form("bc", max_length=40),
        hints: bool = Form(False),
        hard: bool = Form(False),
    ) -> Response:
        """Today's puzzle of ``rules``: the player's game of it if they started one (one
        game a day, finished or not), else a new one."""
        chosen, day = Rules.parse(rules.strip()), day_number()
        games, known = games_of(request), player_of(request)
        player = known or new_id()
        game_id = todays(games.store, known, day).get(chosen.spec)
        if game_id is None:
            helper = strategy_for("minimax", chosen) if hints else None
            game = daily_game(chosen, day, hints=helper, hard=hard)
            game_id = games.add(game, "play", player)
        return for_player(request, RedirectResponse(f"/game/{game_id}", status_code=303), player)


def todays(store: Store, player: str | None, day: int) -> dict[str, str]:
    """The games of ``player`` that are ``day``'s puzzles: the id of the first of each
    variant (of the games started since that day began: a long record is not read whole)."""
    found: dict[str, str] = {}
    began = datetime.combine(EPOCH + timedelta(days=day - 1), datetime.min.time(), UTC)
    for game_id, record in store.games_of(player, since=began) if player else []:
        puzzle = puzzle_of(record)
        if puzzle is not None and puzzle[1] == day:
            found.setdefault(puzzle[0], game_id)
    return found
