"""The record page without script: the server counts the finished games of the player that
a browser's cookie names, and never another player's."""

from __future__ import annotations

import re
import warnings

from bullscows.web.app import create_app
from bullscows.web.common import PLAYER_COOKIE

from .conftest import start

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def give_up_a_game(client: TestClient, rules: str) -> str:
    """A game started from the page's form and given up; its page."""
    created = client.post("/new/play", data={"rules": rules})
    assert created.status_code == 303, created.text
    page = created.headers["location"]
    number = re.search(r'name="move" value="(\d+)"', client.get(page).text)
    assert number is not None
    assert client.post(page, data={"move": number.group(1), "do": "give-up"}).status_code == 303
    return page


def tallied(client: TestClient) -> dict[str, str]:
    """The record page's summary line of each variant: rules -> "N played, M won"."""
    page = client.get("/record")
    assert page.status_code == 200
    return dict(re.findall(r'data-rules="([^"]+)">.*?<p class="summary">([^<]+)</p>', page.text,
                           re.S))  # fmt: skip


def test_one_players_cookie_never_shows_another_players_games(database: str) -> None:
    app = create_app(database, warm=False)
    with (TestClient(app, follow_redirects=False) as alice,
          TestClient(app, follow_redirects=False) as bob,
          TestClient(app, follow_redirects=False) as stranger):  # fmt: skip
        give_up_a_game(alice, "p3c4n")
        give_up_a_game(bob, "bc")
        give_up_a_game(bob, "bc")
        start(stranger, mode="play", rules="mm")  # through the API: no player, no record
        assert tallied(alice) == {"p3c4n": "1 played, 0 won"}
        assert tallied(bob) == {"bc": "2 played, 0 won"}
        assert alice.cookies[PLAYER_COOKIE] != bob.cookies[PLAYER_COOKIE]
        assert tallied(stranger) == {}
        assert 'id="no-record"' in stranger.get("/record").text
        for unknown in ("x" * 22, "'; DROP TABLE games; --", ""):
            stranger.cookies.set(PLAYER_COOKIE, unknown)
            assert tallied(stranger) == {}
        forgotten = alice.post("/record/forget")
        assert forgotten.status_code == 303
        assert PLAYER_COOKIE not in alice.cookies
        assert tallied(alice) == {}
        assert tallied(bob) == {"bc": "2 played, 0 won"}


def test_the_cookie_is_first_party_out_of_scripts_reach(database: str) -> None:
    app = create_app(database, warm=False)
    with TestClient(app, follow_redirects=False) as plain:
        made = plain.post("/new/play", data={"rules": "p3c4n"}).headers["set-cookie"].lower()
        assert "httponly" in made and "samesite=lax" in made and "secure" not in made
        player = plain.cookies[PLAYER_COOKIE]
        again = plain.post("/new/play", data={"rules": "p3c4n"}).headers["set-cookie"]
        assert again.startswith(f"{PLAYER_COOKIE}={player};")  # the same player, kept longer
    with TestClient(app, base_url="https://testserver", follow_redirects=False) as secure:
        made = secure.post("/daily", data={"rules": "bc"}).headers["set-cookie"].lower()
        assert "secure" in made.split("; ")


def test_an_empty_record_leads_to_a_game(client: TestClient) -> None:
    empty = client.get("/record").text
    assert 'id="no-record"' in empty
    assert re.search(r'<a class="button primary" id="record-play" href="/new/play">', empty)
    give_up_a_game(client, "bc")
    assert 'id="record-play"' not in client.get("/record").text
