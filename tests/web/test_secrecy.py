"""The computer's secret (and the seed it was drawn from) reaches the browser only once the
game is over: every response of a whole game, pages and JSON, bodies, headers and cookies, is
scanned for it."""

from __future__ import annotations

import re
from datetime import date

import httpx
import pytest
from fastapi.testclient import TestClient

from bullscows import Code, Rules, daily, score
from bullscows.sessions import HIDDEN, Codebreaker

from .conftest import submit

#: Letters for colours: a secret such as 'RGBY' cannot be mistaken for a count or a date.
SPEC = "mm-colours"


def shows(code: str, text: str) -> bool:
    """Whether ``text`` shows ``code`` as a code: not as a run of the alphabet 'RGBYOP' that
    every page lists (the secret 'BYOP' is in it)."""
    return re.search(rf"(?<![A-Z]){code}(?![A-Z])", text) is not None


def everything(response: httpx.Response) -> str:
    # The text as sent, and as a person reads it (a code may be drawn symbol by symbol).
    parts = [response.text, re.sub(r"<[^>]+>", "", response.text)]
    parts += [f"{k}: {v}" for k, v in response.headers.items()]
    parts += [f"{k}={v}" for k, v in response.cookies.items()]
    parts.append(str(response.url))
    return "\n".join(parts)


def test_a_code_is_told_from_a_run_of_the_alphabet() -> None:
    assert not shows("BYOP", "colours RGBYOP")
    assert shows("BYOP", "the secret was BYOP.") and shows("BYOP", '"secret":"BYOP"')


def test_no_response_shows_the_secret_before_the_end(client: TestClient) -> None:
    seen: list[str] = []

    def keep(response: httpx.Response) -> httpx.Response:
        assert response.status_code < 500, response.text
        seen.append(everything(response))
        return response

    home = keep(client.post("/new/play", data={"rules": SPEC, "strategy": "minimax",
                                               "hints": "true"}))  # fmt: skip
    assert home.status_code == 303
    game_id = home.headers["location"].rsplit("/", 1)[-1]
    keep(client.get(f"/game/{game_id}"))
    hint = keep(client.post(f"/api/games/{game_id}/hint")).json()["hint"]["guess"]
    keep(submit(client, f"/game/{game_id}", {"do": "hint"}))
    keep(submit(client, f"/game/{game_id}", {"say": "RRRRR"}))  # refused: too long
    solver = Codebreaker(Rules.parse(SPEC), "minimax")
    while True:
        guess = solver.suggest().text
        if len(seen) % 2:  # alternate the page's prompt and the API
            keep(submit(client, f"/game/{game_id}", {"say": guess}))
            body = keep(client.get(f"/api/games/{game_id}")).json()
        else:
            body = keep(client.post(f"/api/games/{game_id}/guess", json={"code": guess})).json()
        keep(client.get(f"/game/{game_id}"))
        state = body["state"]
        if state["over"]:
            break
        solver.reply(state["guesses"][-1]["reply"]["pair"])
    secret, seed = state["secret"], str(state["record"]["seed"])
    assert state["status"] == "solved" and state["guesses"][-1]["guess"] == secret
    before_end = seen[:-2]  # the last move's response and page may show it
    if hint != secret:  # a hint may be the secret itself (1 in 1,296): that is the hint's right
        for text in before_end:
            assert not shows(secret, text)
    for text in before_end:
        assert seed not in text
    assert secret in seen[-1] and secret in seen[-2]


def test_a_given_up_game_shows_the_secret(client: TestClient) -> None:
    response = client.post("/new/play", data={"rules": "bc", "strategy": "minimax"})
    game_id = response.headers["location"].rsplit("/", 1)[-1]
    submit(client, f"/game/{game_id}", {"say": "0123"})
    page = submit(client, f"/game/{game_id}", {"say": "quit"}, follow_redirects=True)
    state = client.get(f"/api/games/{game_id}").json()["state"]
    assert state["status"] == "gave-up" and "The secret was" in page.text
    assert state["secret"] in page.text


def test_a_daily_puzzle_given_up_before_a_guess_keeps_its_secret(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given up at once, it costs nothing: showing its secret would let it be won in one guess.
    monkeypatch.setattr(daily, "utc_today", lambda: date(2026, 11, 26))  # midnight may come
    response = client.post("/daily", data={"rules": SPEC})
    assert response.status_code == 303, response.text
    game = response.headers["location"]
    game_id = game.rsplit("/", 1)[-1]
    seen = [submit(client, game, {"say": "quit"}, follow_redirects=True)]
    seen += [client.get(game), client.get(f"/api/games/{game_id}")]
    state = seen[-1].json()["state"]
    assert state["status"] == "gave-up" and state.get("secret") is None
    assert "secret" not in state["record"] and "seed" not in state["record"]
    assert HIDDEN in seen[0].text and "The secret was" not in seen[0].text
    secret = daily.daily_game(Rules.parse(SPEC), daily.day_number())
    for text in map(everything, seen):
        assert not shows(secret.secret.text, text) and str(secret.seed) not in text


def test_a_duel_hides_the_computer_code_until_the_end(client: TestClient) -> None:
    rules = Rules.parse(SPEC)
    mine = Code("PPOY", rules)
    created = client.post("/new/duel", data={"rules": SPEC, "strategy": "minimax"})
    game_id = created.headers["location"].rsplit("/", 1)[-1]
    unbroken: list[str] = []  # every response before the person broke the computer's code
    solver = Codebreaker(rules, "minimax")
    for _ in range(30):
        state = client.get(f"/api/games/{game_id}").json()["state"]
        page = everything(client.get(f"/game/{game_id}"))
        if state["over"]:
            break
        if not state["broken"]:
            unbroken.append(page)
        if state["awaiting"] == "guess":
            response = client.post(f"/api/games/{game_id}/guess",
                                   json={"code": solver.suggest().text})  # fmt: skip
            reply = response.json()["reply"]
            if not reply["win"]:
                solver.reply(reply["pair"])
                unbroken.append(everything(response))
        else:
            guess = Code(state["breaker"]["asking"]["guess"], rules)
            response = client.post(f"/api/games/{game_id}/reply",
                                   json={"reply": score(guess, mine).format("pair")})  # fmt: skip
            if not response.json()["state"]["broken"]:
                unbroken.append(everything(response))
        assert response.status_code == 200, response.text
    assert state["over"] and unbroken
    if state["secret"] != mine.text:  # my own code is mine to see (1 chance in 1,296)
        for text in unbroken:
            assert state["secret"] not in text
