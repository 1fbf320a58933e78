"""Operating the server: HEAD and the icon, a database that is full or gone (503, the game
kept), a move that keeps losing its race (409), clients starting too many games (429), old
games expiring, and a database of schema version 1 brought to version 2."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, event, text

from bullscows.daily import daily_game, day_number
from bullscows.rules import Rules
from bullscows.web.app import create_app
from bullscows.web.common import ATTEMPTS, PLAYER_COOKIE
from bullscows.web.limits import Limits
from bullscows.web.player import todays
from bullscows.web.storage import SCHEMA_VERSION, Store

from .conftest import TestClient, move, refused, server, start


def test_head_and_the_icon(client: TestClient) -> None:
    for path in ("/", "/about", "/api/health"):
        head, get = client.head(path), client.get(path)
        assert head.status_code == 200 and head.content == b""
        assert head.headers["content-length"] == get.headers["content-length"]
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
    assert icon.text.startswith("<svg")


def test_a_full_disk_is_a_503_and_the_game_is_kept(client: TestClient) -> None:
    game_id, _ = start(client, mode="play", rules="bc", hints=False)
    engine = client.app.state.games.store.engine  # type: ignore[attr-defined]
    engine.dispose()
    event.listen(engine, "connect", _no_more_pages)  # SQLite's "database or disk is full"
    for _ in range(200):
        answer = client.post("/api/games", json={"mode": "play", "rules": "bc"})
        if answer.status_code != 201:
            break
    assert answer.status_code == 503 and answer.headers["retry-after"]
    assert answer.json()["error"].startswith("the game store is unavailable (database or disk "
                                             "is full); try again")  # fmt: skip
    page = client.post("/new/play", data={"rules": "bc"})
    assert page.status_code == 503 and "unavailable" in page.text and "Traceback" not in page.text
    answered = []
    for code in ("0123", "4567", "8901", "2345", "6789", "1357", "2468", "3579", "0246"):
        answer = client.post(f"/api/games/{game_id}/guess", json={"code": code})
        assert answer.status_code in (200, 503), answer.text
        if answer.status_code == 200:
            answered.append(code)
    kept = client.get(f"/api/games/{game_id}").json()["state"]["guesses"]
    assert [step["guess"] for step in kept] == answered


def _no_more_pages(connection: Any, _: object) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA max_page_count = 1")  # as low as the file is now
    cursor.close()


def test_a_lost_database_is_a_503(client: TestClient) -> None:
    store = client.app.state.games.store  # type: ignore[attr-defined]
    store.engine = create_engine("postgresql+psycopg://nobody@127.0.0.1:9/none",
                                 connect_args={"connect_timeout": 2})  # fmt: skip
    message = refused(client, "/api/games", {"mode": "play"}, status=503)
    assert message.startswith("the game store is unavailable") and "try again" in message
    assert client.get("/api/games/abc").status_code == 503


def test_a_move_that_keeps_losing_its_race_is_a_409(client: TestClient) -> None:
    game_id, _ = start(client, mode="play", rules="bc", hints=False)
    store = client.app.state.games.store  # type: ignore[attr-defined]
    tries: list[int] = []

    def always_late(game: str, record: object, version: int) -> bool:
        tries.append(version)
        return False

    store.put = always_late
    message = refused(client, f"/api/games/{game_id}/guess", {"code": "0123"}, status=409)
    assert message.startswith(f"game {game_id!r} changed {ATTEMPTS} times") and "reload" in message
    assert len(tries) == ATTEMPTS
    assert client.get(f"/api/games/{game_id}").json()["state"]["guesses"] == []


def test_too_many_games_from_one_client_is_a_429(database: str) -> None:
    limits = Limits(games="3/minute", uploads="1/minute")
    with TestClient(create_app(database, warm=False, limits=limits)) as client:
        for _ in range(3):
            start(client, mode="play")
        message = refused(client, "/api/games", {"mode": "play"}, status=429)
        assert message.startswith("too many games from testclient: at most 3 per 1 minute")
        assert client.post("/new/play", data={"rules": "bc"}).status_code == 429
        first = client.post("/tree/upload", files={"file": ("t.json", b"{}")})
        assert first.status_code == 400  # counted, then refused for what it holds
        again = client.post("/tree/upload", files={"file": ("t.json", b"{}")})
        assert again.status_code == 429 and int(again.headers["retry-after"]) > 0


def test_the_game_rate_is_one_count_for_every_server_on_the_database(database: str) -> None:
    """Two servers (processes) on one database: a client's 3 games a minute are 3 in all, not
    3 per process."""
    options = ("--games-rate", "3/minute")
    with server(database, *options) as one, server(database, *options) as two:
        statuses = [
            httpx.post(f"{base}/api/games", json={"mode": "play"}, timeout=60).status_code
            for base in [one, two] * 4
        ]
    assert statuses == [201, 201, 201, 429, 429, 429, 429, 429]


def test_rate_counts_by_one_statement_or_portably_agree(database: str) -> None:
    store = Store(database)
    for key, count in (("one", store.hit), ("portable", store._hit_portably)):
        now = time.time()
        assert [count(key, 60, 1, now) for _ in range(3)] == [1, 2, 3]
        assert store.hits(key)[0] == 3
        assert count(f"{key}-short", 0, 2, now) == 2
        assert count(f"{key}-short", 60, 1, time.time() + 1) == 1


def test_abandoned_games_expire_and_finished_ones_stay(database: str) -> None:
    store = Store(database)
    with TestClient(create_app(database, warm=False)) as client:
        abandoned, _ = start(client, mode="play")
        finished, _ = start(client, mode="play")
        move(client, finished, "guess", code="0123")  # given up at once: no challenge
        move(client, finished, "give-up")
        challenge = client.post(f"/api/games/{finished}/challenge").json()["challenge"]
        with store.engine.begin() as db:
            db.execute(text("UPDATE games SET updated = '2000-01-01 00:00:00'"))
        fresh, _ = start(client, mode="play")
        assert store.expire(timedelta(hours=1)) == 2
        assert client.get(f"/api/games/{abandoned}").status_code == 404
        assert client.post(f"/api/challenges/{challenge}").status_code == 404
        for kept in (finished, fresh):
            assert client.get(f"/api/games/{kept}").status_code == 200


@pytest.mark.parametrize(("old", "columns"), [(1, ""), (2, ", version INTEGER NOT NULL DEFAULT 0")])
def test_an_older_database_gains_the_columns_it_lacks(tmp_path: Path, old: int, columns: str
                                                      ) -> None:  # fmt: skip
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    with create_engine(url).begin() as db:
        db.execute(text("CREATE TABLE meta (key VARCHAR(64) PRIMARY KEY, value TEXT)"))
        db.execute(text(f"INSERT INTO meta VALUES ('schema_version', '{old}')"))
        db.execute(text("CREATE TABLE games (id VARCHAR(64) PRIMARY KEY, mode VARCHAR(16) NOT "
                        "NULL, record TEXT NOT NULL, created DATETIME NOT NULL, updated DATETIME "
                        f"NOT NULL{columns})"))  # fmt: skip
    with TestClient(create_app(url, warm=False)) as client:
        game_id, _ = start(client, mode="play", rules="bc", hints=False)
        move(client, game_id, "guess", code="0123")
        player = client.post("/new/play", data={"rules": "p3c4n"}, follow_redirects=False)
        assert player.status_code == 303
    with create_engine(url).connect() as db:
        assert db.execute(text("SELECT value FROM meta")).scalar() == str(SCHEMA_VERSION)
        assert db.execute(text("SELECT version FROM games WHERE id = :id"), {"id": game_id}
                          ).scalar() == 1  # fmt: skip
        kept = db.execute(text("SELECT player FROM games WHERE player IS NOT NULL")).scalar()
        assert kept == client.cookies[PLAYER_COOKIE]


def test_a_players_games_since_a_moment_leave_the_older_unread(database: str) -> None:
    """The daily page looks for today's puzzles among the games started today only: a long
    record is not read whole on each visit."""
    store = Store(database)
    record = daily_game(Rules.parse("bc"), day_number()).to_record()
    old, new = store.add(record, "play", "someone"), store.add(record, "play", "someone")
    with store.engine.begin() as db:
        db.execute(text("UPDATE games SET created = '2000-01-01 00:00:00' WHERE id = :id"),
                   {"id": old})  # fmt: skip
    assert [game_id for game_id, _ in store.games_of("someone")] == [old, new]
    today = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    assert [game_id for game_id, _ in store.games_of("someone", since=today)] == [new]
    assert todays(store, "someone", day_number()) == {"bc": new}
