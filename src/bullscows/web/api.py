"""The JSON API: ``/api/games`` to start a game, one POST per move, and the tree explorer.

Every error a person can cause is a 400 (404 for an unknown id, 409 for a stale move) with
``{"error": message}``, the message the terminal would print; a JSON body is read strictly
(``StrictJSONRoute``: a key given twice is refused, not read as its last). Each move may
carry ``move``, the state's ``move`` number it answers: a move sent twice is then refused,
never applied twice. The OpenAPI document is at ``/openapi.json``.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field, StrictBool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route

from bullscows.errors import BullsCowsError
from bullscows.readers import load_json, quote_value, read_text
from bullscows.records import MAX_GUESSES
from bullscows.seeding import MAX_SEED
from bullscows.sessions import Fix, GiveUp, Guess, Hint, Move, Record, Reply, Undo
from bullscows.web import benching, explorer
from bullscows.web.common import BENCH_STRATEGIES, error_page, games_of, status_of
from bullscows.web.games import (
    MODES,
    Setup,
    variant,
)
from bullscows.web.models import AnalysedMoveOut, AnalysisOut, ChallengeOut, GameOut

Text = Field(min_length=1, max_length=200)
#: The state's ``move`` number a move answers; optional, for the clients written before it.
Number = Field(default=None, ge=1, le=10**9)


class ErrorOut(BaseModel):
    error: str


class NewGame(BaseModel):
    """A new game: ``mode`` is play (you break its code), solve (it breaks yours), duel or
    assist; the variant is a preset or spec, optionally adjusted as the terminal's options."""

    model_config = ConfigDict(extra="forbid")
    mode: str = Field(default="play", pattern="^(" + "|".join(MODES) + ")$")
    rules: str = Field(default="bc", min_length=1, max_length=200)
    length: int | None = Field(default=None, ge=1, le=10)
    symbols: str | None = Field(default=None, min_length=1, max_length=62)
    repeats: StrictBool | None = None
    no_leading_zero: StrictBool = False
    strategy: str = Field(default="minimax", min_length=1, max_length=40)
    consistent_only: StrictBool = False
    hints: StrictBool = True
    adversary: StrictBool = False
    max_guesses: int | None = Field(default=None, ge=1, le=MAX_GUESSES)
    hard: StrictBool = False
    coach: StrictBool = False


class MoveIn(BaseModel):
    """A move with nothing more to say than the move number it answers."""

    model_config = ConfigDict(extra="forbid")
    move: int | None = Number


class GuessIn(MoveIn):
    code: str = Text


class ReplyIn(MoveIn):
    reply: str = Text


class RecordIn(MoveIn):
    code: str = Text
    reply: str = Text


class CorrectIn(MoveIn):
    step: int = Field(ge=1, le=100_000)
    reply: str = Text


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "bad input, with the reason"},
    404: {"model": ErrorOut, "description": "no game of that id"},
    422: {"model": ErrorOut, "description": "too large for the server, with the command"},
    503: {"model": ErrorOut, "description": "the server is busy or its database unavailable"},
}
MOVE_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    409: {"model": ErrorOut, "description": "a stale move (it answers another move number), "
          "or other moves on the game kept coming first"},
}  # fmt: skip
#: What a request that starts a game may also answer.
STARTS: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    429: {"model": ErrorOut, "description": "too many games started by this client"},
}
NO_BODY = MoveIn()


def answer(game: GameOut, status: int = 200) -> Response:
    """``game`` as JSON (the fields set), serialised here on the request's thread: the route's
    ``response_model`` documents it, without validating it again on the event loop."""
    return Response(game.model_dump_json(exclude_unset=True), status,
                    media_type="application/json")  # fmt: skip


def setup_of(body: NewGame) -> Setup:
    rules = variant(body.rules, body.length, body.symbols, body.repeats, body.no_leading_zero)
    return Setup(body.mode, rules.spec, body.strategy, body.consistent_only, body.hints,
                 body.adversary, body.hard, body.max_guesses, body.coach)  # fmt: skip


#: What ``/api/bench`` answers: JSON, or CSV with ``format=csv``.
BENCH_ANSWER: dict[str, Any] = {
    "description": "the bench report, as JSON or (format=csv) as CSV",
    "content": {"application/json": {}, "text/csv": {"schema": {"type": "string"}}},
}


def allowed(request: Request) -> list[str]:
    """The methods the routes at ``request``'s address answer (for a 405's ``Allow``)."""
    routes = [route for route in request.app.routes if isinstance(route, Route)]
    matching = [route for route in routes if route.matches(request.scope)[0] is Match.PARTIAL]
    return sorted({verb for route in matching for verb in route.methods or ()})


def not_allowed(method: str, path: str, verbs: list[str]) -> str:
    """The words of a 405: the method refused and the ones ``path`` answers.

    >>> not_allowed("GET", "/record/forget", ["POST"])
    "GET /record/forget: this address answers POST only (a page's form sends it)"
    """
    asked = f"{method[:10]} {path[:100]}: this address answers {', '.join(verbs)}"
    if verbs == ["POST"] and not path.startswith("/api/"):
        return f"{asked} only (a page's form sends it)"
    return asked


def no_address(path: str) -> str:
    """The words of a 404 for an address that no route answers: where the addresses are.

    >>> no_address("/nowhere")
    "no page '/nowhere' here: the start page (/) and its menu lead to every page"
    >>> no_address("/api/nothing")
    "no address '/api/nothing' here: the API's addresses are listed in /openapi.json"
    """
    if path.startswith("/api/"):
        return f"no address {path[:100]!r} here: the API's addresses are listed in /openapi.json"
    return f"no page {path[:100]!r} here: the start page (/) and its menu lead to every page"


class StrictJSONRequest(Request):
    """A request whose JSON body is read as every JSON a person hands in
    (``readers.load_json``): a key given twice in one object, which a plain reader would
    silently keep the last of, is a 400 that names it, as are numbers JSON cannot hold."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            try:
                self._json = load_json(read_text(await self.body(), "the JSON body"),
                                       "the JSON body")  # fmt: skip
            except BullsCowsError as error:
                raise HTTPException(400, str(error)) from None
        return self._json


class StrictJSONRoute(APIRoute):
    """A route that reads its JSON body as a ``StrictJSONRequest``: every route of the app
    (``app.create_app`` makes it the router's route class before it adds any route)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJSONRequest(request.scope, request.receive))

        return strict


def install(app: FastAPI) -> None:
    """Add the API's routes and its error handlers to ``app``."""

    @app.exception_handler(BullsCowsError)
    async def bad_input(request: Request, error: BullsCowsError) -> Any:
        status = status_of(error)
        headers = {"retry-after": "5"} if status == 503 else None
        if not request.url.path.startswith("/api/"):
            page = error_page(request, error, status)
            page.headers.update(headers or {})
            return page
        return JSONResponse({"error": str(error)}, status_code=status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: RequestValidationError) -> Any:
        problems = []
        for item in error.errors()[:3]:
            where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
            given = f", not {quote_value(item['input'])}" if item.get("input") is not None else ""
            problems.append(f"{where or 'body'}: {item.get('msg', 'invalid')}{given}")
        if not request.url.path.startswith("/api/"):
            return error_page(request, BullsCowsError("; ".join(problems)))
        return JSONResponse({"error": "; ".join(problems)}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Any:
        headers = dict(getattr(error, "headers", None) or {})
        message = str(error.detail)
        if error.status_code == 405:
            verbs = allowed(request)
            headers = {"allow": ", ".join(verbs)}
            message = not_allowed(request.method, request.url.path, verbs)
        elif error.status_code == 404 and error.detail == "Not Found":  # no route: no address
            message = no_address(request.url.path)
        if not request.url.path.startswith("/api/"):
            page = error_page(request, BullsCowsError(message), error.status_code)
            page.headers.update(headers)
            return page
        return JSONResponse({"error": message}, status_code=error.status_code,
                            headers=headers or None)  # fmt: skip

    @app.get("/api/health", tags=["service"])
    def health() -> dict[str, bool]:
        return {"ok": True}

    games: dict[str, Any] = {"response_model": GameOut, "responses": ERRORS, "tags": ["games"],
                             "response_model_exclude_unset": True}  # fmt: skip

    @app.post("/api/games", status_code=201, **{**games, "responses": STARTS})
    def create(body: NewGame, request: Request) -> Response:
        """Start a game; its id is the only key to it."""
        game_id, shown = games_of(request).start(request, setup_of(body))
        return answer(GameOut(id=game_id, state=shown), 201)

    @app.get("/api/games/{game_id}", **games)
    def show(game_id: str, request: Request) -> Response:
        _, played = games_of(request).view(request, game_id)
        return answer(GameOut(id=game_id, state=played.shown))

    def move(request: Request, game_id: str, chosen: Move) -> Response:
        _, played = games_of(request).play(request, game_id, lambda *_: chosen)
        told = played.told
        return answer(GameOut(id=game_id, state=played.shown, reply=told.reply, hint=told.hint,
                              undone=told.undone))  # fmt: skip

    moves = {**games, "responses": MOVE_ERRORS, "tags": ["moves"]}

    @app.post("/api/games/{game_id}/guess", **moves)
    def guess(game_id: str, body: GuessIn, request: Request) -> Response:
        """Your guess at the computer's code (play, duel)."""
        return move(request, game_id, Guess(body.code, number=body.move))

    @app.post("/api/games/{game_id}/hint", **moves)
    def hint(game_id: str, request: Request, body: MoveIn = NO_BODY) -> Response:
        """What the hint strategy would play, and how it splits the codes left (play)."""
        return move(request, game_id, Hint(number=body.move))

    @app.post("/api/games/{game_id}/reply", **moves)
    def reply(game_id: str, body: ReplyIn, request: Request) -> Response:
        """Your reply to the computer's guess, in any notation the terminal reads (solve,
        duel)."""
        return move(request, game_id, Reply(body.reply, number=body.move))

    @app.post("/api/games/{game_id}/record", **moves)
    def record(game_id: str, body: RecordIn, request: Request) -> Response:
        """A guess and its reply from a game played elsewhere (assist)."""
        return move(request, game_id, Record(body.code, body.reply, number=body.move))

    @app.post("/api/games/{game_id}/undo", **moves)
    def undo(game_id: str, request: Request, body: MoveIn = NO_BODY) -> Response:
        """Take back the last reply (solve, duel, assist)."""
        return move(request, game_id, Undo(number=body.move))

    @app.post("/api/games/{game_id}/correct", **moves)
    def correct(game_id: str, body: CorrectIn, request: Request) -> Response:
        """Replace reply number ``step`` (from 1), keeping the guesses after it."""
        return move(request, game_id, Fix(body.step, body.reply, number=body.move))

    @app.post("/api/games/{game_id}/give-up", **moves)
    def give_up(game_id: str, request: Request, body: MoveIn = NO_BODY) -> Response:
        """Stop; the computer's code is shown (play, duel)."""
        return move(request, game_id, GiveUp(number=body.move))

    @app.get("/api/games/{game_id}/analysis", response_model=AnalysisOut, responses=ERRORS,
             tags=["games"])  # fmt: skip
    def analysis(game_id: str, request: Request) -> AnalysisOut:
        """Each of your guesses against the best at that moment (play): once the game is over,
        or during it when hints are on."""
        *_, moves = games_of(request).analysis(request, game_id)
        return AnalysisOut(id=game_id, moves=[AnalysedMoveOut(**m) for m in moves])

    @app.post("/api/games/{game_id}/challenge", status_code=201, responses=ERRORS,
              tags=["games"])  # fmt: skip
    def challenge(game_id: str, request: Request) -> ChallengeOut:
        """A challenge to a friend: the same secret as this finished game, which they play
        without seeing it; ``link`` is the page that starts it."""
        challenge_id = games_of(request).challenge(game_id)
        return ChallengeOut(challenge=challenge_id, link=f"/challenge/{challenge_id}")

    @app.post("/api/challenges/{challenge_id}", status_code=201, **{**games, "responses": STARTS})
    def accept(challenge_id: str, request: Request) -> GameOut:
        """Start a game of a challenge's secret."""
        games = games_of(request)
        game_id, game = games.accept(challenge_id)
        return GameOut(id=game_id, state=games.shown(request, game, "play"))

    @app.get("/api/bench", responses={**ERRORS, 200: BENCH_ANSWER}, tags=["bench"])
    def bench(
        request: Request,
        rules: str = Query(default="mm", min_length=1, max_length=200),
        strategy: list[str] = BENCH_STRATEGIES,
        seed: int = Query(default=1, ge=-MAX_SEED, le=MAX_SEED),
        format: str = Query(default="json", pattern="^(json|csv)$"),
    ) -> Response:
        """Every secret of a small variant played by each strategy: the figures of
        ``bullscows bench --json`` (or ``--csv``)."""
        report = benching.bench_report(rules, strategy, seed, games_of(request).pool, request)
        if format == "csv":
            return Response(report.to_csv(), media_type="text/csv", headers={
                "content-disposition": f'attachment; filename="bench-{report.rules.spec}.csv"'
            })  # fmt: skip
        return JSONResponse(report.to_json(), headers={
            "content-disposition": f'attachment; filename="bench-{report.rules.spec}.json"'
        })  # fmt: skip

    @app.get("/api/tree", responses=ERRORS, tags=["trees"])
    def tree_node(
        request: Request,
        src: str = Query(min_length=1, max_length=300),
        at: str = Query(default="", max_length=400),
    ) -> dict[str, Any]:
        """A node of a decision tree: ``src`` is shipped:bc--optimal (or another shipped
        tree), build:RULES:STRATEGY, or upload:ID; ``at`` the replies from the root, as
        'b c/b c/...'."""
        games = games_of(request)
        return explorer.node_json(explorer.source(games.store, src, games.pool, request), at)
