"""The JSON API, in process: every mode played to its end, and every way a request can be
refused (a 400 with the reason, never a 500)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from bullscows import Code, Rules, score
from bullscows.sessions import Codebreaker

from .conftest import move, refused, start

RULES = Rules.parse("bc")


def play_out(client: TestClient, game_id: str, spec: str = "bc") -> list[dict[str, Any]]:
    """Break the game's code with minimax as the person's own solver; every response."""
    solver = Codebreaker(Rules.parse(spec), "minimax")
    responses = []
    while True:
        guess = solver.suggest().text
        body = move(client, game_id, "guess", code=guess)
        responses.append(body)
        reply = body["reply"]
        if reply["win"]:
            return responses
        solver.reply(reply["pair"])


def test_play_to_the_end_shows_the_secret_only_then(client: TestClient) -> None:
    game_id, first = start(client, mode="play", rules="bc")
    assert first["status"] == "playing" and "secret" not in first
    assert "secret" not in first["record"] and "seed" not in first["record"]
    responses = play_out(client, game_id)
    last = responses[-1]["state"]
    assert last["over"] and last["status"] == "solved"
    assert last["secret"] == last["guesses"][-1]["guess"]
    assert last["record"]["secret"] == last["secret"]
    assert client.get(f"/api/games/{game_id}").json()["state"]["secret"] == last["secret"]
    refused(client, f"/api/games/{game_id}/guess", {"code": "0123"})  # over


def test_hint_and_give_up(client: TestClient) -> None:
    game_id, _ = start(client, mode="play", rules="mm", strategy="minimax")
    hint = move(client, game_id, "hint")["hint"]
    assert hint["guess"] == "1122" and hint["remaining"] == 1296 and hint["largest"] == 256
    assert move(client, game_id, "hint")["state"]["hints_given"] == 1  # asked twice, counted once
    state = move(client, game_id, "give-up")["state"]  # no guess yet: it costs nothing
    assert state["status"] == "gave-up" and state.get("secret") is None


def test_adversary_never_commits_before_the_end(client: TestClient) -> None:
    game_id, _ = start(client, mode="play", rules="bc", adversary=True)
    body = move(client, game_id, "guess", code="0123")
    assert body["reply"]["pair"] == "0 1"  # the largest part: 1,440 codes
    assert body["state"]["remaining"] == 1440 and body["state"]["kind"] == "adversary"
    state = move(client, game_id, "give-up")["state"]
    secret = Code(state["secret"], RULES)
    assert score(Code("0123", RULES), secret).format("pair") == "0 1"


def test_solve_offers_only_the_replies_still_possible(client: TestClient) -> None:
    game_id, state = start(client, mode="solve", rules="bc")
    asking = state["breaker"]["asking"]
    assert asking["guess"] == "0123" and len(asking["choices"]) == 14  # all but 3 bulls 1 cow
    assert "3 1" not in [c["pair"] for c in asking["choices"]]
    state = move(client, game_id, "reply", reply="1B1C")["state"]  # a terminal notation
    choices = state["breaker"]["asking"]["choices"]
    secret_codes = [c.text for c in Codebreaker(RULES).record("0123", "1 1").candidate_codes()]
    guess = Code(state["breaker"]["asking"]["guess"], RULES)
    possible = {score(guess, Code(c, RULES)).format("pair") for c in secret_codes}
    assert {c["pair"] for c in choices} == possible
    assert sum(c["codes"] for c in choices) == state["breaker"]["remaining"] == 720


def test_solve_to_the_end_with_a_contradiction_fixed(client: TestClient) -> None:
    secret = Code("2745", RULES)
    game_id, state = start(client, mode="solve", rules="bc")
    wrong_at = 2
    for number in range(1, 20):
        guess = Code(state["breaker"]["asking"]["guess"], RULES)
        reply = score(guess, secret)
        text = reply.format("pair")
        if number == wrong_at:
            text = next(c["pair"] for c in state["breaker"]["asking"]["choices"]
                        if c["pair"] != text)  # fmt: skip
        state = move(client, game_id, "reply", reply=text)["state"]
        if state["breaker"]["contradiction"] or state["breaker"]["solved"]:
            break
    contradiction = state["breaker"]["contradiction"]
    assert contradiction is not None, "the wrong reply was never caught"
    assert wrong_at in contradiction["core"]
    fix = next(f for f in contradiction["fixes"] if f["step"] == wrong_at)
    state = move(client, game_id, "correct", step=fix["step"], reply=fix["reply"])["state"]
    assert state["breaker"]["contradiction"] is None
    while not state["breaker"]["solved"]:
        guess = Code(state["breaker"]["asking"]["guess"], RULES)
        state = move(client, game_id, "reply", reply=score(guess, secret).format("bc"))["state"]
    assert state["breaker"]["steps"][-1]["guess"] == "2745" and state["over"]


def test_undo(client: TestClient) -> None:
    game_id, _ = start(client, mode="solve")
    move(client, game_id, "reply", reply="0 1")
    body = move(client, game_id, "undo")
    assert body["undone"]["guess"] == "0123" and body["state"]["breaker"]["steps"] == []


def test_assist_the_ulisp_game(client: TestClient) -> None:
    game_id, state = start(client, mode="assist")
    assert state["suggestion"]["guess"] == "0123"
    for guess, reply in [("1389", "0 0"), ("1234", "0 2"), ("1759", "1b1c")]:
        state = move(client, game_id, "record", code=guess, reply=reply)["state"]
    assert state["breaker"]["candidates"] == ["2457", "2745", "4725", "5742", "7452"]
    assert state["suggestion"]["guess"] == "2457" and state["suggestion"]["remaining"] == 5
    state = move(client, game_id, "record", code="1785", reply="2 0")["state"]
    assert state["breaker"]["candidates"] == ["2745", "4725"]


def test_duel_to_the_end(client: TestClient) -> None:
    mine = Code("5914", RULES)
    game_id, state = start(client, mode="duel", rules="bc", strategy="minimax")
    solver = Codebreaker(RULES, "minimax")
    while not state["over"]:
        if state["awaiting"] == "guess":
            body = move(client, game_id, "guess", code=solver.suggest().text)
            if not body["reply"]["win"]:
                solver.reply(body["reply"]["pair"])
            state = body["state"]
        else:
            guess = Code(state["breaker"]["asking"]["guess"], RULES)
            state = move(client, game_id, "reply", reply=score(guess, mine).format("pair"))["state"]
    assert state["winner"] in ("person", "computer", "draw")
    assert state["breaker"]["steps"][-1]["guess"] == "5914" and len(state["secret"]) == 4


def test_duel_refuses_moves_out_of_turn(client: TestClient) -> None:
    game_id, _ = start(client, mode="duel")
    assert "not now" in refused(client, f"/api/games/{game_id}/reply", {"reply": "0 1"})


@pytest.mark.parametrize(
    ("setup", "words"),
    [
        ({"mode": "fight"}, "mode"),
        ({"rules": "nonsense"}, "nonsense"),
        ({"rules": "p7c10r"}, "10,000,000 codes"),
        ({"rules": "p6c10r"}, "at most 50,000"),
        ({"rules": "bc", "length": 11}, "length"),
        ({"rules": "bc", "symbols": "0012"}, "0012"),
        ({"rules": "bc", "length": 5, "symbols": "0123"}, "no code fits"),
        ({"strategy": "genius"}, "unknown strategy 'genius'"),
        ({"strategy": "minmax"}, "unknown strategy 'minmax' (did you mean 'minimax'?); "),
        ({"strategy": "tree:/etc/passwd"}, "unknown strategy"),
        ({"mode": "solve", "rules": "p4c8n", "strategy": "optimal"}, "does not start"),
        ({"mode": "solve", "rules": "p4c8n", "strategy": "optimal"}, "the Trees page lists them"),
        ({"mode": "solve", "rules": "mm", "strategy": "cows"}, "repeats"),
        ({"colour": "red"}, "colour"),
        ({"hints": "sometimes"}, "hints"),
    ],
)
def test_a_new_game_refused_with_the_reason(client: TestClient, setup: dict[str, Any],
                                            words: str) -> None:  # fmt: skip
    assert words in refused(client, "/api/games", setup)


def test_limits_no_rule_carries_are_refused_without_option_names(client: TestClient) -> None:
    # The library's words, read on the web too: no terminal option (--length, --rules) in them.
    said = refused(client, "/api/games", {"mode": "play", "rules": "moo5,3,4", "length": 4})
    assert said.startswith("a length of 4: 'moo5,3,4' limits the symbols of each of its 3 "), said
    assert "--" not in said and "give the whole variant as one spec" in said


def test_moves_refused_with_the_reason(client: TestClient) -> None:
    play, _ = start(client, mode="play", hints=False)
    solve, _ = start(client, mode="solve")
    base = "/api/games/"
    assert "'0023'" in refused(client, base + play + "/guess", {"code": "0023"})
    assert "'12'" in refused(client, base + play + "/guess", {"code": "12"})
    assert "hints are off" in refused(client, base + play + "/hint")
    assert "no move 'reply'" in refused(client, base + play + "/reply", {"reply": "1 1"})
    assert "no move 'guess'" in refused(client, base + solve + "/guess", {"code": "0123"})
    assert "nothing to undo" in refused(client, base + solve + "/undo")
    assert "no reply #3" in refused(client, base + solve + "/correct", {"step": 3, "reply": "1"})
    assert "'5 0'" in refused(client, base + solve + "/reply", {"reply": "5 0"})
    assert "'lots'" in refused(client, base + solve + "/reply", {"reply": "lots"})
    assert "reply" in refused(client, base + solve + "/reply", {})
    assert "step" in refused(client, base + solve + "/correct", {"step": 0, "reply": "1"})
    assert "x: Extra inputs" in refused(client, base + play + "/guess", {"code": "0", "x": 1})
    move(client, solve, "reply", reply="0 1")
    move(client, solve, "reply", reply="0 1")
    assert "all bulls" in refused(client, base + solve + "/correct", {"step": 1, "reply": "4 0"})
    assert "no game" in refused(client, base + "nope/guess", {"code": "0123"}, status=404)
    response = client.get(base + "nope")
    assert response.status_code == 404 and "no game" in response.json()["error"]


def test_bodies_that_are_no_json_or_too_large(client: TestClient) -> None:
    response = client.post("/api/games", content=b"{not json", headers={
        "content-type": "application/json"})  # fmt: skip
    assert response.status_code == 400 and "error" in response.json()
    response = client.post("/api/games", content=b"x" * 100_000,
                           headers={"content-type": "application/json"})  # fmt: skip
    assert response.status_code == 413 and "at most" in response.json()["error"]


def test_a_key_given_twice_is_refused_by_every_json_route(client: TestClient) -> None:
    """A JSON reader keeps the last of two values of one key: ``{"code": "0123", "code":
    "4567"}`` would guess 4567 unseen. Every route that reads a JSON body (found from the app,
    so a new one is tried too) refuses such a body with a 400 that names the key, nested or
    not, and the game is left as it was."""
    from fastapi import params
    from fastapi.routing import APIRoute

    game_id, _ = start(client, mode="play", rules="bc")
    routes = [route for route in client.app.routes  # type: ignore[attr-defined]
              if isinstance(route, APIRoute) and route.body_field is not None
              and not isinstance(route.body_field.field_info, params.Form)]  # fmt: skip
    paths = {route.path.replace("{game_id}", game_id) for route in routes}
    assert {"/api/games", f"/api/games/{game_id}/guess", "/api/record"} <= paths
    for path in sorted(paths):
        for body, message in [
            ('{"code": "0123", "code": "4567"}', "the top object holds the key 'code' twice"),
            ('{"games": [{"rules": "bc", "rules": "mm"}]}', "at '/games/0' holds the key 'rules'"),
        ]:
            response = client.post(path, content=body, headers={"content-type": "application/json"})
            assert response.status_code == 400, (path, response.text)
            error = response.json()["error"]
            assert message in error and "\n" not in error, (path, error)
    assert client.get(f"/api/games/{game_id}").json()["state"]["guesses"] == []


def test_another_site_cannot_act(client: TestClient) -> None:
    game_id, _ = start(client, mode="play")
    for headers in ({"origin": "https://evil.example"}, {"sec-fetch-site": "cross-site"},
                    {"origin": "null"}):  # fmt: skip
        response = client.post(f"/api/games/{game_id}/give-up", headers=headers)
        assert response.status_code == 403, headers
        response = client.post(f"/game/{game_id}", data={"do": "give-up"}, headers=headers)
        assert response.status_code == 403, headers
    same = client.post(f"/api/games/{game_id}/hint", headers={"origin": "http://testserver"})
    assert same.status_code == 200
    assert client.get(f"/api/games/{game_id}").json()["state"]["status"] == "playing"


def test_security_headers(client: TestClient) -> None:
    for path in ("/", "/api/health", "/static/app.js", "/api/games/nope"):
        headers = client.get(path).headers
        assert "default-src 'self'" in headers["content-security-policy"], path
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "same-origin"


def test_openapi_document(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    paths = document["paths"]
    for action in ("guess", "hint", "reply", "record", "undo", "correct", "give-up"):
        assert f"/api/games/{{game_id}}/{action}" in paths
    assert "/api/games" in paths and "/api/tree" in paths
    assert not any(path.startswith("/game/") for path in paths)  # pages are not the API


def test_a_challenge_plays_the_same_secret_unseen(client: TestClient) -> None:
    game_id, _ = start(client, mode="play", rules="mm")
    refused(client, f"/api/games/{game_id}/challenge")  # not before the end
    move(client, game_id, "guess", code="1122")
    secret = move(client, game_id, "give-up")["state"]["secret"]
    made = client.post(f"/api/games/{game_id}/challenge")
    assert made.status_code == 201
    challenge = made.json()["challenge"]
    assert challenge not in (game_id,) and made.json()["link"] == f"/challenge/{challenge}"
    page = client.get(f"/challenge/{challenge}")
    assert page.status_code == 200 and secret not in page.text.replace(challenge, "")
    assert "no game" in refused(client, f"/api/games/{challenge}/give-up", status=404)
    copies = [client.post(f"/api/challenges/{challenge}").json() for _ in range(2)]
    assert copies[0]["id"] != copies[1]["id"] and "secret" not in copies[0]["state"]
    state = move(client, copies[0]["id"], "guess", code=secret)["state"]
    assert state["status"] == "solved" and state["secret"] == secret
    move(client, copies[1]["id"], "guess", code="1122")
    assert move(client, copies[1]["id"], "give-up")["state"]["secret"] == secret
    unstarted, _ = start(client, mode="play", rules="mm")
    move(client, unstarted, "give-up")  # its secret stays hidden: no copy of it either
    assert "before its first guess" in refused(client, f"/api/games/{unstarted}/challenge")
    assert "no challenge" in refused(client, "/api/challenges/nope", status=404)
    solve, _ = start(client, mode="solve")
    assert "only a finished game" in refused(client, f"/api/games/{solve}/challenge")


def test_analysis_move_by_move(client: TestClient) -> None:
    quiet, _ = start(client, mode="play", hints=False)
    move(client, quiet, "guess", code="0123")
    assert "at the end of the game" in client.get(f"/api/games/{quiet}/analysis").json()["error"]
    game_id, _ = start(client, mode="play", rules="bc")  # hints on: analysis live
    move(client, game_id, "guess", code="0123")
    move(client, game_id, "guess", code="0129")  # after 0123, a poor second guess
    moves = client.get(f"/api/games/{game_id}/analysis").json()["moves"]
    first, second = moves
    assert first["best"] == "0123" and first["cost"] == first["best_cost"] == 5.213  # 26274/5040
    assert first["codes"] == 5040 and first["sentence"].startswith("optimal (exact")
    assert second["cost"] > second["best_cost"] and "yours into" in second["sentence"]
    assert second["best"] != "0129" and second["left"] <= second["codes"]
    solve, _ = start(client, mode="solve")
    assert "analysed" in client.get(f"/api/games/{solve}/analysis").json()["error"]


def test_hard_mode(client: TestClient) -> None:
    game_id, state = start(client, mode="play", rules="bc", hard=True)
    assert state["hard"] and state["mode"] == "play"
    reply = move(client, game_id, "guess", code="0123")["reply"]["pair"]
    fitting = Codebreaker(RULES).record("0123", reply).candidate_codes(1)[0].text
    first = Code("0123", RULES)
    misfit = next(c for c in ("4567", "0123", "3210", "1032")
                  if score(Code(c, RULES), first).format("pair") != reply)  # fmt: skip
    message = refused(client, f"/api/games/{game_id}/guess", {"code": misfit})
    assert message.startswith(f"hard mode: {misfit} does not fit reply #1 0123")
    assert move(client, game_id, "guess", code=fitting)["state"]["hard"]


def test_the_analysis_sentence_of_the_readme(client: TestClient) -> None:
    from bullscows.analysis import analyse
    from bullscows.sessions import Codemaker

    game = Codemaker(RULES, secret="2745", hints="minimax")
    for guess in ("0123", "0129"):
        game.guess(guess)
    assert analyse(game)[1]["sentence"] == (
        "1456 splits 1,440 codes into 14 parts (largest 378); yours into 5 (largest 660): "
        "0.54 guesses more on average (the best's by the optimal tree, exact; yours with "
        "minimax playing on)"
    )


def test_a_players_record_by_variant(client: TestClient) -> None:
    games = [{"rules": "bc", "guesses": 6, "won": True},
             {"rules": "bc", "guesses": 3, "won": False},
             {"rules": "mm", "guesses": 5, "won": True, "day": 330},
             {"rules": "bc", "guesses": 5, "won": True}]  # fmt: skip
    response = client.post("/api/record", json={"games": games})
    assert response.status_code == 200
    bc, mm = response.json()["variants"]
    assert (bc["rules"], bc["played"], bc["won"], bc["win_percent"]) == ("bc", 3, 2, 67)
    assert (bc["streak"], bc["best_streak"], bc["distribution"]) == (1, 1, {"5": 1, "6": 1})
    assert (mm["played"], mm["streak"]) == (1, 1)
    assert "games.0.won" in refused(client, "/api/record", {"games": [{"rules": "bc"}]})
