"""Property test of the JSON API from its own OpenAPI document (schemathesis): whatever the
input, no answer is a server error, and every answer fits the document."""

from __future__ import annotations

import warnings
from typing import Any

import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.specs.openapi.checks import status_code_conformance

from bullscows.web.app import create_app
from bullscows.web.limits import Limits

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    # The fuzzing starts many games, and a loaded machine may take seconds over a hint: the
    # rate and the budget are tested elsewhere (test_operations.py, test_budgets.py), not here.
    APP = create_app("sqlite://", warm=False, limits=Limits(games="10000/minute", seconds=300.0))

schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@schema.parametrize()
@settings(max_examples=12, suppress_health_check=list(HealthCheck))
def test_no_server_error(case: schemathesis.Case) -> None:
    response = case.call()
    assert response.status_code < 500, response.text
    case.validate_response(response, checks=[status_code_conformance])


CLIENT = TestClient(APP)
MODES = ("assist", "duel", "play", "solve")
GAMES: dict[str, str] = {}


def game(mode: str) -> str:
    """The id of this module's game of ``mode``, started at its first use (not at import: an
    answer without an id then fails one test, saying what came, not the whole collection)."""
    if mode not in GAMES:
        response = CLIENT.post("/api/games", json={"mode": mode, "rules": "mm"})
        assert response.status_code == 201, response.text
        GAMES[mode] = response.json()["id"]
    return GAMES[mode]


TEXT = st.text(max_size=12) | st.sampled_from(["1 2", "0", "1122", "bcc", "4 0", "undo", "-"])


@given(
    mode=st.sampled_from(MODES),
    action=st.sampled_from(["guess", "hint", "reply", "record", "undo", "correct", "give-up"]),
    body=st.fixed_dictionaries(
        {}, optional={"code": TEXT, "reply": TEXT, "step": st.integers(-2, 12)}
    ),
)
@settings(max_examples=60, suppress_health_check=list(HealthCheck))
def test_any_move_on_a_real_game_is_answered_or_refused(
    mode: str, action: str, body: dict[str, Any]
) -> None:
    response = CLIENT.post(f"/api/games/{game(mode)}/{action}", json=body)
    assert response.status_code in (200, 400), response.text
    if response.status_code == 400:
        assert response.json()["error"]


@given(
    mode=st.sampled_from(MODES),
    text=TEXT | st.sampled_from(["fix 1 0 1", "fix 99 2", "hint", "quit", "1122 1 1", "?"]),
    do=st.sampled_from(["", "undo", "correct", "reply", "hint", "give-up", "nonsense"]),
)
@settings(max_examples=60, suppress_health_check=list(HealthCheck))
def test_any_line_at_a_page_prompt_is_answered_or_refused(mode: str, text: str, do: str) -> None:
    number = str(CLIENT.get(f"/api/games/{game(mode)}").json()["state"]["move"])
    form = {"say": text, "do": do, "reply": text, "move": number}
    response = CLIENT.post(f"/game/{game(mode)}", data=form)
    assert response.status_code in (200, 400), response.text
