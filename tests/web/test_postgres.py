"""The web app on PostgreSQL: a real server (a cluster made for the test, on 127.0.0.1 and a
free port, the ``postgres`` fixture of ``conftest``), a game played half, the app started again
over the same database, the game finished."""

from __future__ import annotations

from bullscows.rules import Rules
from bullscows.sessions import Codebreaker
from bullscows.web.app import create_app
from bullscows.web.storage import Store

from .conftest import TestClient, move, start


def test_a_game_on_postgresql_goes_on_after_the_app_restarts(postgres: str) -> None:
    solver = Codebreaker(Rules.parse("bc"), "minimax")
    with TestClient(create_app(postgres, warm=False)) as client:
        game_id, _ = start(client, mode="play", rules="bc")
        for _ in range(2):
            body = move(client, game_id, "guess", code=solver.suggest().text)
            solver.reply(body["reply"]["pair"])
        before = body["state"]["guesses"]
    with TestClient(create_app(postgres, warm=False)) as client:  # a new app, same database
        state = client.get(f"/api/games/{game_id}").json()["state"]
        assert state["guesses"] == before and not state["over"]
        while not state["over"]:
            body = move(client, game_id, "guess", code=solver.suggest().text)
            state = body["state"]
            if not state["over"]:
                solver.reply(body["reply"]["pair"])
        assert state["status"] == "solved" and state["guesses"][:2] == before


def test_rate_counts_on_postgresql(postgres: str) -> None:
    store = Store(postgres)
    store.clear_hits()
    assert [store.hit("games/10.0.0.7", 60) for _ in range(3)] == [1, 2, 3]
    assert store.hits("games/10.0.0.7")[0] == 3 and store.hits("other")[0] == 0
    assert store.hit("short", 0) == 1  # a window of 0 s: over by the next hit
    assert [store.hit("short", 60) for _ in range(2)] == [1, 2]
    assert store.clear_hits("games/10.0.0.7") == 1
