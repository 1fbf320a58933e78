"""Fifty games at once over loopback against the real server: no error, and no game sees
another's moves (each ends with exactly its own guesses, each reply true of its own secret).
Bounded: every request has a timeout, and so does the whole run."""

from __future__ import annotations

import threading
from pathlib import Path

import httpx

from bullscows import Code, Rules, score

from .conftest import server

GAMES = 50
MM = Rules.parse("mm")


def play(base: str, number: int) -> tuple[list[str], dict[str, object]]:
    """A game played by the server's hints, with a distinct first guess per game so that
    mixed-up histories would show; the guesses sent and the final state."""
    sent: list[str] = []
    with httpx.Client(base_url=base, timeout=60) as client:
        game_id = client.post("/api/games", json={"mode": "play", "rules": "mm"}).json()["id"]
        guess = "".join("123456"[(number >> (2 * i)) % 6] for i in range(4))
        for _ in range(12):
            body = client.post(f"/api/games/{game_id}/guess", json={"code": guess})
            assert body.status_code == 200, body.text
            sent.append(guess)
            state = body.json()["state"]
            if state["over"]:
                return sent, state
            hint = client.post(f"/api/games/{game_id}/hint")
            assert hint.status_code == 200, hint.text
            guess = hint.json()["hint"]["guess"]
    raise AssertionError(f"game {number} was not broken in 12 guesses")


def test_fifty_games_at_once(tmp_path: Path) -> None:
    results: dict[int, tuple[list[str], dict[str, object]]] = {}
    errors: list[BaseException] = []

    with server(f"sqlite:///{tmp_path / 'games.sqlite3'}") as base:

        def one(number: int) -> None:
            try:
                results[number] = play(base, number)
            except BaseException as error:
                errors.append(error)

        threads = [threading.Thread(target=one, args=(n,)) for n in range(GAMES)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=300)
        assert not any(thread.is_alive() for thread in threads), "games still running"
    assert not errors, errors[0]
    assert len(results) == GAMES
    for sent, state in results.values():
        guesses = state["guesses"]
        assert isinstance(guesses, list) and [g["guess"] for g in guesses] == sent
        secret = Code(str(state["secret"]), MM)
        for step in guesses:
            assert step["reply"]["pair"] == score(Code(step["guess"], MM), secret).format("pair")
