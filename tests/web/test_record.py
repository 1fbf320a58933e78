"""The record page without script: the server counts the finished games of the player that
a browser's cookie names, and never another player's."""

from __future__ import annotations

import re
import warnings

from bullscows.rules import Rules
from bullscows.standings import ABANDONED
from bullscows.web.app import create_app
from bullscows.web.common import PLAYER_COOKIE

from .conftest import start, submit

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def give_up_a_game(client: TestClient, rules: str, guessed: bool = True) -> str:
    """A game started from the page's form, a guess made (unless not ``guessed``), and given
    up; its page. The adversary never accepts a first guess while other codes remain, so the
    guess never wins the game, whatever the seed."""
    created = client.post("/new/play", data={"rules": rules, "adversary": "true"})
    assert created.status_code == 303, created.text
    page = created.headers["location"]
    if guessed:
        guess = "0123456789"[: Rules.parse(rules).length]
        assert submit(client, page, {"say": guess}).status_code == 303
    assert submit(client, page, {"do": "give-up"}).status_code == 303
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


def test_a_game_given_up_before_its_first_guess_does_not_count(client: TestClient) -> None:
    """Neither won nor lost, on the server's record and in the browser's list (the page
    gives the script no outcome to keep); a game given up after a guess, then undone, is
    lost."""
    page = give_up_a_game(client, "p3c4n", guessed=False)
    shown = client.get(page).text
    assert ABANDONED in shown and 'id="outcome"' not in shown
    assert "Copy result" not in shown and 'id="grid"' not in shown  # no result to share
    assert "grid" not in client.get(f"/api/games/{page.rsplit('/', 1)[-1]}").json()["state"]
    assert 'id="no-record"' in client.get("/record").text
    assert tallied(client) == {}
    created = client.post("/new/play", data={"rules": "p3c4n"}).headers["location"]
    assert submit(client, created, {"say": "012"}).status_code == 303
    if "still possible" in client.get(created).text:  # not broken at once: undo, give up
        assert submit(client, created, {"say": "undo"}).status_code == 303
        assert submit(client, created, {"do": "give-up"}).status_code == 303
    shown = client.get(created).text
    assert ABANDONED not in shown and 'id="outcome"' in shown and "Copy result" in shown
    assert tallied(client) == {"p3c4n": "1 played, " + ("1" if "You broke it" in shown else "0")
                               + " won"}  # fmt: skip


def test_a_game_out_of_guesses_counts_as_lost(client: TestClient) -> None:
    created = client.post("/new/play", data={"rules": "p3c4n", "limit": "1"})
    page = created.headers["location"]
    assert submit(client, page, {"say": "012"}).status_code == 303
    shown = client.get(page).text
    won = "You broke it" in shown
    assert won or "Out of guesses." in shown
    assert tallied(client) == {"p3c4n": f"1 played, {int(won)} won"}


def test_the_record_page_says_the_wins_in_the_library_s_words(client: TestClient) -> None:
    """The page (and ``/api/record``, which the page's script draws from) shows each
    variant's wins as ``standings.wins_text`` words them, as ``bullscows record`` does."""
    from bullscows.standings import played_text, wins_text

    give_up_a_game(client, "p3c4n")
    won = client.post("/new/play", data={"rules": "p3c4n", "limit": "1"}).headers["location"]
    assert submit(client, won, {"say": "012"}).status_code == 303
    broke = "You broke it" in client.get(won).text
    page = client.get("/record").text
    wins = wins_text({1: 1} if broke else {})
    assert f'<p class="muted wins">{wins}</p>' in page
    assert tallied(client) == {"p3c4n": played_text(2, int(broke))}
    kept = [{"rules": "bc", "guesses": 5, "won": True}, {"rules": "bc", "guesses": 7, "won": False}]
    [bc] = client.post("/api/record", json={"games": kept}).json()["variants"]
    assert (bc["summary"], bc["wins"]) == ("2 played, 1 won", "wins: 1 in 5 guesses")
