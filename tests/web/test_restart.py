"""A game survives the server: half a game over HTTP, the server killed with SIGKILL, a new
server on the same database, and the game finished there."""

from __future__ import annotations

from pathlib import Path

import httpx

from bullscows import Rules
from bullscows.sessions import Codebreaker

from .conftest import server


def test_kill_the_server_mid_game_and_carry_on(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    solver = Codebreaker(Rules.parse("bc"), "minimax")
    http = httpx.Client(timeout=60)  # a first move may wait for the kernels to load
    with server(database) as base:  # killed (SIGKILL) when the block ends
        created = http.post(f"{base}/api/games", json={"mode": "play", "rules": "bc"})
        game_id = created.json()["id"]
        for _ in range(2):
            body = http.post(f"{base}/api/games/{game_id}/guess",
                              json={"code": solver.suggest().text}).json()  # fmt: skip
            if body["reply"]["win"]:
                break
            solver.reply(body["reply"]["pair"])
        before = body["state"]["guesses"]
    with server(database) as base:
        state = http.get(f"{base}/api/games/{game_id}").json()["state"]
        assert state["guesses"] == before and not state["over"]
        while not state["over"]:
            body = http.post(f"{base}/api/games/{game_id}/guess",
                              json={"code": solver.suggest().text}).json()  # fmt: skip
            state = body["state"]
            if not state["over"]:
                solver.reply(body["reply"]["pair"])
        assert state["status"] == "solved" and state["guesses"][:2] == before
        page = http.get(f"{base}/game/{game_id}")
        assert page.status_code == 200 and state["secret"] in page.text
    http.close()
