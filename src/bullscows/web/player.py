"""What is the player's own: the daily puzzle (``/daily`` lists today's puzzles, a post
starts one: a game of ``play`` whose secret is ``bullscows.daily``'s, kept on the server like
any other) and the record's statistics (``/api/record``: the browser keeps the finished
games, ``standings.tally`` counts them; ``/record`` counts those of the cookie's player)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from bullscows.daily import EPOCH, LIMITS, daily_game, day_number
from bullscows.rules import Rules
from bullscows.standings import Finished, tally
from bullscows.web.api import ERRORS
from bullscows.web.common import for_player, games_of, player_of, render
from bullscows.web.games import strategy_for
from bullscows.web.storage import new_id

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
        day = day_number()
        variants = [(spec, Rules.parse(spec).describe(), LIMITS[spec]) for spec in LIMITS]
        return render(request, "daily.html", title=f"Daily puzzle #{day}", day=day,
                      epoch=EPOCH, variants=variants)  # fmt: skip

    @app.post("/daily", include_in_schema=False)
    def start(
        request: Request,
        rules: str = Form("bc", max_length=40),
        hints: bool = Form(False),
        hard: bool = Form(False),
    ) -> Response:
        chosen = Rules.parse(rules.strip())
        helper = strategy_for("minimax", chosen) if hints else None
        game = daily_game(chosen, day_number(), hints=helper, hard=hard)
        player = player_of(request) or new_id()
        game_id = games_of(request).add(game, "play", player)
        return for_player(request, RedirectResponse(f"/game/{game_id}", status_code=303), player)
