"""A game's analysis is computed once and kept with the game: a second look, or a server
started again on the same database, shows it without computing it again; a refusal (the
analysis too long for its budget, or the server busy) says in the page's words what to do in
the browser, and names no command to run."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from bullscows.web import common
from bullscows.web.app import create_app
from bullscows.web.compute import Busy
from bullscows.web.limits import Limits

from .conftest import submit, wide_game


def finished(client: TestClient) -> str:
    """A game of bc given up after two guesses (its analysis goes to a process of its own):
    its page."""
    made = client.post("/new/play", data={"rules": "bc", "strategy": "minimax"})
    page: str = made.headers["location"]
    for guess in ("0123", "4567"):
        if 'id="result"' not in client.get(page).text:  # not won by the first
            assert submit(client, page, {"say": guess}).status_code == 303
    if 'id="result"' not in client.get(page).text:
        assert submit(client, page, {"do": "give-up"}).status_code == 303
    return page


def started(client: TestClient) -> int:
    count: int = client.get("/api/load").json()["started"]
    return count


def test_a_finished_game_s_analysis_is_computed_once(database: str) -> None:
    with TestClient(create_app(database, warm=False), follow_redirects=False) as client:
        page = finished(client)
        first = client.get(f"{page}/analysis")
        assert first.status_code == 200 and 'id="analysis"' in first.text
        assert started(client) == 1
        again = client.get(f"{page}/analysis")
        assert again.text == first.text and started(client) == 1  # read, not computed
        api = client.get(f"/api/games/{page.rsplit('/', 1)[-1]}/analysis")
        assert api.status_code == 200 and started(client) == 1
    with TestClient(create_app(database, warm=False)) as restarted:  # kept in the database
        assert restarted.get(f"{page}/analysis").text == first.text
        assert started(restarted) == 0


def test_an_analysis_so_far_is_computed_again_after_a_move(client: TestClient) -> None:
    """With hints on, the analysis of a game under way is kept for the game as it stands."""
    made = client.post("/new/play", data={"rules": "mm", "strategy": "minimax", "hints": "true"})
    page = made.headers["location"]
    assert submit(client, page, {"say": "1122"}).status_code == 303
    assert client.get(f"{page}/analysis").text.count('data-label="#"') == 1
    if 'id="result"' not in client.get(page).text:  # else 1122 was the secret
        assert submit(client, page, {"say": "3456"}).status_code == 303
        assert client.get(f"{page}/analysis").text.count('data-label="#"') == 2


def test_an_analysis_too_long_is_refused_in_the_page_s_words(database: str) -> None:
    game_id = wide_game(database)  # its analysis takes minutes
    with TestClient(create_app(database, warm=False, limits=Limits(seconds=0.02))) as client:
        page = client.get(f"/game/{game_id}/analysis")
        assert page.status_code == 503, page.text
        assert 'id="refused"' in page.text and "Reload this page" in page.text
        assert f'href="/game/{game_id}/analysis"' in page.text  # try again: a link, no script
        assert "analyse --" not in page.text and "run it yourself" not in page.text
        assert "0.06 seconds" in page.text  # three times a request's budget
        assert client.get("/api/load").json()["stopped"] == 1


def test_an_analysis_refused_while_busy_says_to_come_back(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = finished(client)

    def busy(*_: Any, **__: Any) -> Any:
        raise Busy("the server is busy; try again in a minute, or run it yourself: bullscows x")

    monkeypatch.setattr(common.Games, "analysis", busy)
    answer = client.get(f"{page}/analysis")
    assert answer.status_code == 503 and "The server is busy" in answer.text
    assert "Reload this page" in answer.text and "run it yourself" not in answer.text
