"""The pages: server-rendered HTML (Jinja2) that works without script; ``app.js`` submits the
forms in the background and swaps the page's main part, so nothing reloads.

Each game page has one text box that reads what the terminal reads at its prompt
(``sessions.read_move``): a guess or a reply in any notation, ``undo``, ``fix N REPLY``,
``hint``, ``quit``; buttons name the same moves (``do``). Every form carries the number of
the move it answers (``move``): a form sent twice is refused (409), never applied twice.
A move is answered by a redirect to the game's page, which shows the hint while the last move
asked for one: a reload, the back button or another tab shows what the post did. A line that
only shows something (``list``, ``history``, ``help``) changes nothing: it is answered with the
page and that line's words beside the box.
"""

from __future__ import annotations

import re
from contextlib import suppress
from typing import Any
from urllib.parse import quote, urlencode

from fastapi import FastAPI, File, Form, Query, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from bullscows.errors import BullsCowsError
from bullscows.seeding import read_seed
from bullscows.sessions import HIDDEN, Game, Move, named_move, read_move
from bullscows.sessions.moves import refusal
from bullscows.standings import ABANDONED, standings
from bullscows.web import benching, explorer
from bullscows.web.coaching import CHOOSE_CARD
from bullscows.web.common import (
    ANALYSIS_BUDGET,
    BENCH_STRATEGIES,
    PLAYER_COOKIE,
    Games,
    NotFound,
    for_player,
    games_of,
    player_of,
    render,
    status_of,
)
from bullscows.web.compute import Busy, Client, TooLarge
from bullscows.web.games import (
    Setup,
    check_mode,
    presets,
    strategy_names,
    variant,
)
from bullscows.web.models import HintOut, StateOut
from bullscows.web.storage import Unavailable, new_id

UPLOAD = File(...)
#: Checking an uploaded tree: work per byte of the file (a file of over 60 kB is checked in
#: the pool), and the command that checks it at home.
UPLOAD_WORK = 500
CHECK = "bullscows tree --check FILE.json"
#: A whole number as a form types it: ASCII digits only ("²".isdigit() is true, int() refuses it).
WHOLE = re.compile(r"[0-9]+")
TITLES = {
    "play": "Play: break the computer's code",
    "solve": "Solve: the computer breaks your code",
    "duel": "Duel: both at once",
    "assist": "Assist: help with a game played elsewhere",
}


def install(app: FastAPI) -> None:
    """Add the pages' routes to ``app``."""

    def page(request: Request, game_id: str, view: StateOut, status: int = 200,
             **extra: Any) -> HTMLResponse:  # fmt: skip
        shown = view.model_dump(exclude_unset=True)
        return render(request, "game.html", status, id=game_id, game=shown,
                      title=view.title or TITLES[view.mode], abandoned=ABANDONED, hidden=HIDDEN,
                      **extra)  # fmt: skip

    def new_form(request: Request, mode: str, status: int = 200, error: str | None = None,
                 form: dict[str, Any] | None = None) -> HTMLResponse:  # fmt: skip
        """The new game's form; after a refusal, with what was chosen (``form``) kept."""
        return render(request, "new.html", status, mode=mode, title=TITLES[mode],
                      presets=presets(), strategies=strategy_names(), error=error,
                      form=form)  # fmt: skip

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def home(request: Request) -> HTMLResponse:
        return render(request, "home.html", title="bullscows", titles=TITLES,
                      first_visit=player_of(request) is None)  # fmt: skip

    @app.get("/new/{mode}", response_class=HTMLResponse, include_in_schema=False)
    def new(request: Request, mode: str) -> HTMLResponse:
        return new_form(request, check_mode(mode))

    @app.post("/new/{mode}", include_in_schema=False)
    def create(
        request: Request,
        mode: str,
        rules: str = Form("bc", max_length=200),
        length: str = Form("", max_length=4),
        symbols: str = Form("", max_length=62),
        repeats: str = Form("", max_length=8),
        no_leading_zero: bool = Form(False),
        strategy: str = Form("minimax", max_length=40),
        consistent_only: bool = Form(False),
        hints: bool = Form(False),
        adversary: bool = Form(False),
        hard: bool = Form(False),
        limit: str = Form("", max_length=8),
        coach: bool = Form(False),
    ) -> Response:
        check_mode(mode)
        chose = {"rules": rules, "length": length, "symbols": symbols, "repeats": repeats,
                 "no_leading_zero": no_leading_zero, "strategy": strategy,
                 "consistent_only": consistent_only, "hints": hints, "adversary": adversary,
                 "hard": hard, "limit": limit, "coach": coach}  # fmt: skip
        try:
            if length.strip() and not WHOLE.fullmatch(length.strip()):
                raise BullsCowsError(f"length {length!r}: a whole number from 1 to 10")
            if limit.strip() not in ("", "off") and not WHOLE.fullmatch(limit.strip()):
                raise BullsCowsError(f"guess limit {limit!r}: off, or a whole number of guesses")
            chosen = variant(
                rules,
                int(length) if length.strip() else None,
                symbols.strip() or None,
                {"yes": True, "no": False}.get(repeats),
                no_leading_zero,
            )
            allowed = int(limit) if WHOLE.fullmatch(limit.strip()) else None
            setup = Setup(mode, chosen.spec, strategy, consistent_only, hints, adversary, hard,
                          allowed, coach)  # fmt: skip
            player = player_of(request) or new_id()
            game_id, _ = games_of(request).start(request, setup, player)
        except BullsCowsError as error:
            return new_form(request, mode, status_of(error), str(error), chose)
        return for_player(request, RedirectResponse(f"/game/{game_id}", status_code=303), player)

    @app.get("/game/{game_id}/analysis", response_class=HTMLResponse, include_in_schema=False)
    def analysis(request: Request, game_id: str) -> HTMLResponse:
        """The analysis, kept with the game once computed; refused (too long, or the server
        busy) in the page's words: what to do in the browser, not a command to run."""
        games = games_of(request)
        refused, status = None, 200
        try:
            game, mode, moves = games.analysis(request, game_id)
        except (TooLarge, Busy) as error:
            game, mode = games.load(game_id)
            moves, refused, status = [], "busy" if isinstance(error, Busy) else "long", 503
        shown = games.shown(request, game, mode)
        return render(request, "analysis.html", status, title="Analysis, move by move",
                      id=game_id, game=shown.model_dump(exclude_unset=True), moves=moves,
                      refused=refused, seconds=ANALYSIS_BUDGET * games.pool.seconds)  # fmt: skip

    @app.get("/game/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    def show(request: Request, game_id: str, challenge: str = "") -> HTMLResponse:
        """The game; while its last move is a hint, the hint too (kept from when it was given,
        or asked again: it counts once), so that a reload, the back button or another tab
        shows what the post did; the link to ``challenge`` if it is a challenge of this
        game's secret."""
        games = games_of(request)
        game, mode = games.load(game_id)
        shown = games.shown(request, game, mode)
        if challenge and games.challenges(game, challenge[:40]):
            return page(request, game_id, shown, challenge=challenge[:40])
        if not hinted(game):
            return page(request, game_id, shown)
        try:
            hint = last_hint(request, games, game_id, game)
        except Answered:  # a move came meanwhile: show the game as it is now
            return page(request, game_id, games.view(request, game_id)[1].shown)
        except BullsCowsError as error:
            if isinstance(error, NotFound | Unavailable):
                raise
            return page(request, game_id, shown, status_of(error), error=str(error))
        return page(request, game_id, shown, hint=hint.model_dump() if hint else None)

    @app.post("/game/{game_id}", include_in_schema=False)
    def act(
        request: Request,
        game_id: str,
        say: str = Form("", max_length=200),
        do: str = Form("", max_length=20),
        step: int = Form(0, ge=0, le=100_000),
        reply: str = Form("", max_length=200),
        move: int = Form(ge=1, le=10**9),
    ) -> Response:
        """A line typed at the prompt (``say``), or a button's move (``do``); ``move``: the
        number of the move it answers (a hidden field of every form)."""

        def choose(game: Game, mode: str) -> Move:
            return (
                named_move(do, move, reply=reply, step=step) if do else read_move(game, say, move)
            )

        games = games_of(request)
        try:
            _, played = games.play(request, game_id, choose)
        except BullsCowsError as error:
            if isinstance(error, NotFound | Unavailable):
                raise
            game, played = games.view(request, game_id)
            hint = None
            if hinted(game):  # the hint stays beside the refused line, as a reload shows it
                with suppress(BullsCowsError):  # the page says why the line was refused
                    hint = last_hint(request, games, game_id, game)
            why = str(error) if do else refusal(game, say, error)  # as the terminal says
            return page(request, game_id, played.shown, status_of(error), error=why,
                        said=say, hint=hint.model_dump() if hint else None)  # fmt: skip
        if played.told.lines:  # a move that only shows something (list, history, help)
            return page(request, game_id, played.shown, told=played.told.lines)
        return RedirectResponse(f"/game/{game_id}", status_code=303)  # a hint shown there too

    @app.post("/game/{game_id}/challenge", include_in_schema=False)
    def challenge(request: Request, game_id: str) -> Response:
        """A challenge of the game's secret, shown by the game's page (so that a reload reads
        it again instead of making another)."""
        challenge_id = games_of(request).challenge(game_id)
        return RedirectResponse(f"/game/{game_id}?{urlencode({'challenge': challenge_id})}",
                                status_code=303)  # fmt: skip

    @app.get("/challenge/{challenge_id}", response_class=HTMLResponse, include_in_schema=False)
    def challenged(request: Request, challenge_id: str) -> HTMLResponse:
        game, _ = games_of(request).load(challenge_id, template=True)
        return render(request, "challenge.html", title="A challenge", id=challenge_id,
                      variant=game.rules.describe(), repeats=game.rules.repeats)  # fmt: skip

    @app.post("/challenge/{challenge_id}", include_in_schema=False)
    def accept(request: Request, challenge_id: str) -> Response:
        player = player_of(request) or new_id()
        game_id, _ = games_of(request).accept(challenge_id, player)
        return for_player(request, RedirectResponse(f"/game/{game_id}", status_code=303), player)

    @app.get("/record", response_class=HTMLResponse, include_in_schema=False)
    def record(request: Request) -> HTMLResponse:
        """The finished games of the player this browser's cookie names (none: empty)."""
        player = player_of(request)
        found = games_of(request).store.records_of(player) if player else []
        return render(request, "record.html", title="Your record", variants=standings(found))

    @app.post("/record/forget", include_in_schema=False)
    def forget(request: Request) -> Response:
        """This browser forgets its player: the record starts again empty."""
        response = RedirectResponse("/record", status_code=303)
        response.delete_cookie(PLAYER_COOKIE, httponly=True, samesite="lax",
                               secure=request.url.scheme == "https")  # fmt: skip
        return response

    @app.get("/tree", response_class=HTMLResponse, include_in_schema=False)
    def tree(request: Request, src: str = "", at: str = "") -> HTMLResponse:
        if not src:
            return render(request, "trees.html", title="Explore a decision tree",
                          shipped=explorer.shipped(), strategies=strategy_names())  # fmt: skip
        games = games_of(request)
        node = explorer.node_json(explorer.source(games.store, src, games.pool, request), at)
        return render(request, "tree.html", title=f"Tree: {node['title']}", tree=node)

    @app.get("/tree/build", include_in_schema=False)
    def build(strategy: str = "minimax", rules: str = "bc") -> Response:
        src = f"build:{strategy.strip()[:40]}:{rules.strip()[:200]}"
        return RedirectResponse(f"/tree?src={quote(src)}", status_code=303)

    @app.post("/tree/upload", include_in_schema=False)
    async def upload(request: Request, file: UploadFile = UPLOAD) -> Response:
        raw = await file.read()
        pool = games_of(request).pool
        text, _ = await run_in_threadpool(pool.call, request, len(raw) * UPLOAD_WORK,
                                          explorer.check_upload, raw, file.filename or "",
                                          command=CHECK)  # fmt: skip
        tree_id = games_of(request).store.add_tree(text)
        return RedirectResponse(f"/tree?src=upload:{tree_id}", status_code=303)

    @app.get("/bench", response_class=HTMLResponse, include_in_schema=False)
    def bench(
        request: Request,
        rules: str = "",
        strategy: list[str] = BENCH_STRATEGIES,
        seed: str = Query("1", max_length=40),
    ) -> HTMLResponse:
        """The form; with ``rules``, the comparison: table, chart, downloads (``seed`` as
        the form types it: refused in the page's words, not the validator's)."""
        context: dict[str, Any] = {
            "title": "Compare strategies",
            "strategies": strategy_names(),
            "chosen": strategy,
            "rules": rules or "mm",
            "seed": seed,
        }
        if not rules:
            return render(request, "bench.html", **context)
        try:
            drawn = read_seed(seed)
            report = benching.bench_report(rules, strategy, drawn, games_of(request).pool, request)
        except BullsCowsError as error:
            return render(request, "bench.html", 400, error=str(error), **context)
        query = urlencode([("rules", rules), *(("strategy", s) for s in strategy),
                           ("seed", str(drawn))])  # fmt: skip
        return render(request, "bench.html", report=report, query=query, **context)

    @app.get("/bench/chart.svg", include_in_schema=False)
    def chart(request: Request, rules: str = "mm", strategy: list[str] = BENCH_STRATEGIES,
              seed: int = 1) -> Response:  # fmt: skip
        pool = games_of(request).pool
        svg = benching.chart_svg(benching.bench_report(rules, strategy, seed, pool, request))
        return Response(svg, media_type="image/svg+xml")

    @app.get("/card", response_class=HTMLResponse, include_in_schema=False)
    def card(request: Request, rules: str = "bc", lines: str = Query("20", max_length=40),
             after: str = "") -> HTMLResponse:  # fmt: skip
        from bullscows.strategies.card_page import card_view

        context: dict[str, Any] = {"title": "A card to play by", "rules": rules, "lines": lines,
                                   "after": after}  # fmt: skip
        try:
            if not WHOLE.fullmatch(lines.strip()):
                raise BullsCowsError(f"lines {lines!r}: a whole number of lines, such as 20")
            count = min(int(lines), 200)
            context["card"] = card_view(rules[:200], count, after[:2000], CHOOSE_CARD)
        except BullsCowsError as error:
            return render(request, "card.html", 400, error=str(error), **context)
        return render(request, "card.html", **context)

    @app.get("/about", response_class=HTMLResponse, include_in_schema=False)
    def about(request: Request) -> HTMLResponse:
        return render(request, "about.html", title="How to play")


def hinted(game: Game) -> bool:
    """Whether the game's last move asked for a hint (the page shows it until the next)."""
    return bool(game.log) and game.log[-1].action == "hint"


class Answered(BullsCowsError):
    """The hint asked again was answered meanwhile by a later move (a new one would count)."""


def last_hint(client: Client | None, games: Games, game_id: str, game: Game) -> HintOut | None:
    """The hint that the game's last move asked for: as this process gave it, or asked
    again (a hint asked again counts once) when another process gave it or it was dropped;
    ``Answered`` if a move came meanwhile."""
    kept = games.hint(game_id, game)
    if kept is not None:
        return kept

    def again(game: Game, mode: str) -> Move:
        if not hinted(game):
            raise Answered("the hint was answered by a later move")
        return named_move("hint", game.move_number)

    return games.play(client, game_id, again)[1].told.hint
