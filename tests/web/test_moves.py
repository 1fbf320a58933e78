"""Move numbers over HTTP: a move sent twice (a double click, an old page) is refused, never
applied twice; and the API's strict inputs and declared answers."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from .conftest import move, refused, start, submit


def steps(client: TestClient, game_id: str) -> int:
    state = client.get(f"/api/games/{game_id}").json()["state"]
    return len(state["breaker"]["steps"])


def test_a_reply_clicked_twice_is_recorded_once(client: TestClient) -> None:
    game_id, state = start(client, mode="solve", rules="bc")
    assert state["move"] == 1
    page = f"/game/{game_id}"
    html = client.get(page).text
    numbers = set(re.findall(r'name="move" value="(\d+)"', html))
    assert numbers == {"1"}  # every form of the page answers move #1
    form = {"do": "reply", "reply": "0 1", "move": "1"}
    assert client.post(page, data=form).status_code == 303
    second = client.post(page, data=form)  # the same button, clicked again
    assert second.status_code == 409 and "sent twice" in second.text
    assert steps(client, game_id) == 1
    assert submit(client, page, {"do": "reply", "reply": "0 1"}).status_code == 303
    assert steps(client, game_id) == 2


def test_a_form_without_its_move_number_is_refused(client: TestClient) -> None:
    game_id, _ = start(client, mode="solve", rules="bc")
    response = client.post(f"/game/{game_id}", data={"do": "reply", "reply": "0 1"})
    assert response.status_code == 400 and "move" in response.text
    assert steps(client, game_id) == 0


def test_the_api_refuses_a_stale_move(client: TestClient) -> None:
    game_id, state = start(client, mode="play", rules="bc", hints=True)
    path = f"/api/games/{game_id}/guess"
    body = move(client, game_id, "guess", code="0123", move=state["move"])
    assert body["state"]["move"] == 2 and len(body["state"]["guesses"]) == 1
    message = refused(client, path, {"code": "4567", "move": 1}, status=409)
    assert "move #1 does not answer the game as it is now (at move #2)" in message
    refused(client, f"/api/games/{game_id}/hint", {"move": 7}, status=409)
    assert move(client, game_id, "hint", move=2)["state"]["move"] == 3
    move(client, game_id, "guess", code="4567")  # no number: taken as the game is
    state = client.get(f"/api/games/{game_id}").json()["state"]
    assert [g["guess"] for g in state["guesses"]] == ["0123", "4567"]


def test_booleans_are_strict(client: TestClient) -> None:
    for name in ("hard", "hints", "adversary", "consistent_only", "repeats"):
        assert name in refused(client, "/api/games", {name: 0})
        assert name in refused(client, "/api/games", {name: "true"})
    assert start(client, mode="play", hard=True)[1]["hard"]


def test_the_bench_csv_is_declared(client: TestClient) -> None:
    answers = client.get("/openapi.json").json()["paths"]["/api/bench"]["get"]["responses"]
    assert {"application/json", "text/csv"} <= set(answers["200"]["content"])
    response = client.get("/api/bench", params={"rules": "moo2,2", "format": "csv"})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")


def test_hard_mode_hints_are_taken(client: TestClient) -> None:
    game_id, state = start(client, mode="play", rules="bc", hard=True, hints=True)
    while not state["over"]:
        hint = move(client, game_id, "hint")["hint"]["guess"]
        state = move(client, game_id, "guess", code=hint)["state"]  # refused if it did not fit
    assert state["status"] == "solved"


def test_a_guess_limit_through_the_api(client: TestClient) -> None:
    game_id, state = start(client, mode="play", rules="bc", max_guesses=1)
    assert state["max_guesses"] == 1 and "secret" not in state
    state = move(client, game_id, "guess", code="0123")["state"]
    assert state["over"]
    if state["status"] != "solved":  # one secret in 5,040 is 0123
        assert state["status"] == "lost" and state["over"] and len(state["secret"]) == 4
        assert state["grid"].startswith("bullscows bc: not broken in 1 guess\n")
    assert "max_guesses" in refused(client, "/api/games", {"max_guesses": 0})


def test_the_shared_result_names_hints_and_hard_mode(client: TestClient) -> None:
    game_id, _ = start(client, mode="play", rules="bc", hard=True, hints=True)
    guess = move(client, game_id, "hint")["hint"]["guess"]
    move(client, game_id, "guess", code=guess)
    state = move(client, game_id, "give-up")["state"]
    first = state["grid"].splitlines()[0]
    assert first == "bullscows bc: given up after 1 guess, 1 hint, hard mode"


def test_a_badly_formed_fix_typed_on_the_page_says_what_a_fix_looks_like(
    client: TestClient,
) -> None:
    game_id, _ = start(client, mode="solve", rules="bc")
    page = f"/game/{game_id}"
    assert submit(client, page, {"say": "0 1"}).status_code == 303
    response = submit(client, page, {"say": "fix 1"})
    assert response.status_code == 400
    assert "write &#39;fix N REPLY&#39;, N a reply number (1 to 1)" in response.text
    assert steps(client, game_id) == 1
