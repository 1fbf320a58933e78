"""An error page (a form the server refused, with JavaScript off or not) links back to the
page the form was on: the game, the challenge, the tree explorer, the record or the new
game's settings; a page not found links to the start."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import TestClient, start


def back_link(page: str) -> tuple[str, str]:
    link = r'<p><a class="button" id="back" href="([^"]*)">([^<]*)</a></p>\s*</main>'
    found = re.search(link, page)
    assert found is not None, page
    return found.group(1), found.group(2)


CASES: dict[str, tuple[str, dict[str, Any], int, str, str]] = {
    # name: (path ({id}: a game's), form, status, link, its words)
    "a move without its number": ("/game/{id}", {"say": "1234"}, 400, "/game/{id}", "the game"),
    "a move number not a number": (
        "/game/{id}",
        {"say": "1234", "move": "x"},
        400,
        "/game/{id}",
        "the game",
    ),
    "a challenge of an odd form": (
        "/game/{id}/challenge",
        {"rules": "x" * 300},
        400,
        "/game/{id}",
        "the game",
    ),
    "a game not found": ("/game/nope", {"say": "1234", "move": "1"}, 404, "/", "the start"),
    "a setting that is no choice": (
        "/new/play",
        {"rules": "mm", "hints": "maybe"},
        400,
        "/new/play",
        "the settings of a new game",
    ),
    "a mode that is none": ("/new/dance", {}, 400, "/", "the start"),
    "an upload without a file": ("/tree/upload", {}, 400, "/tree", "the tree explorer"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_an_error_page_leads_back_where_the_form_was(case: str, client: TestClient) -> None:
    path, form, status, link, words = CASES[case]
    game_id, _ = start(client, mode="play", rules="mm")
    response = client.post(path.format(id=game_id), data=form)
    assert response.status_code == status, response.text
    assert 'class="error" role="alert"' in response.text
    assert back_link(response.text) == (link.format(id=game_id), f"Back to {words}")


UPLOADS = {
    "JSON, not an object": (b"[]", "tree file &#39;t.json&#39;: expected a JSON object, got []"),
    "not JSON": (b"{", "tree file &#39;t.json&#39; line 1 is not JSON"),
    "gzip cut short": (b"\x1f\x8b\x08\x00broken", "tree file &#39;t.json&#39;"),
    "not UTF-8": (b"\xff\xfe", "tree file &#39;t.json&#39; is not UTF-8 text"),
}


@pytest.mark.parametrize("case", sorted(UPLOADS))
def test_a_tree_file_refused_is_named_and_leads_back_to_the_explorer(
    case: str, client: TestClient
) -> None:
    raw, words = UPLOADS[case]
    response = client.post("/tree/upload", files={"file": ("t.json", raw)})
    assert response.status_code == 400
    assert words in response.text, response.text
    assert back_link(response.text) == ("/tree", "Back to the tree explorer")


@pytest.mark.parametrize(
    ("method", "path", "allow", "words"),
    [
        ("PUT", "/game/{id}", "GET, POST", "PUT /game/{id}: this address answers GET, POST"),
        ("GET", "/record/forget", "POST",
         "GET /record/forget: this address answers POST only (a page&#39;s form sends it)"),
        ("GET", "/tree/upload", "POST", "GET /tree/upload: this address answers POST only"),
        ("DELETE", "/api/games/{id}", "GET", "DELETE /api/games/{id}: this address answers GET"),
        ("GET", "/api/games", "POST", "GET /api/games: this address answers POST"),
    ],
)  # fmt: skip
def test_a_method_not_allowed_says_which_are_and_sends_allow(
    method: str, path: str, allow: str, words: str, client: TestClient
) -> None:
    game_id, _ = start(client, mode="play", rules="mm")
    response = client.request(method, path.format(id=game_id))
    assert response.status_code == 405 and response.headers["allow"] == allow
    assert words.format(id=game_id) in response.text, response.text


@pytest.mark.parametrize(
    ("path", "heading", "words"),
    [
        ("/no/such/page", "Not found",
         "no page &#39;/no/such/page&#39; here: the start page (/) and its menu lead to every"),
        ("/game/nope", "Not found", "no game &#39;nope&#39;"),
        ("/tree?src=shipped:nope", "Not done", "nope"),
    ],
)  # fmt: skip
def test_an_error_page_is_headed_and_says_where_to_go(
    path: str, heading: str, words: str, client: TestClient
) -> None:
    """An address that is no page, a game that is none: a heading, the reason quoting what was
    asked, and a link back the size of a button."""
    response = client.get(path)
    assert response.status_code in (400, 404)
    assert f"<title>{heading} · bullscows</title>" in response.text
    assert f"<h1>{heading}</h1>" in response.text and words in response.text, response.text
    assert back_link(response.text)[0] in ("/", "/tree")


def test_an_address_the_api_lacks_says_where_its_addresses_are(client: TestClient) -> None:
    response = client.get("/api/nothing")
    assert response.status_code == 404
    assert response.json() == {
        "error": "no address '/api/nothing' here: the API's addresses are listed in /openapi.json"
    }
