"""The card page, in process: the shipped cards, fewer lines, and bad requests inline."""

from __future__ import annotations

from fastapi.testclient import TestClient


def test_the_card_page(client: TestClient) -> None:
    page = client.get("/card").text
    assert 'href="/card"' in page and "Card for bc:" in page
    assert "20 lines; average 5.387 guesses over all 5,040 secrets, worst 8" in page
    assert (
        "<strong>Then: guess the first code, in reading order, that fits every reply.</strong>"
        in page
    )
    small = client.get("/card", params={"rules": "mm", "lines": "1"}).text
    assert "<li>Start with 1132.</li>" in small and small.count("<li>") == 1


def test_a_card_that_cannot_be_given_is_an_inline_error(client: TestClient) -> None:
    response = client.get("/card", params={"rules": "p5c10n"})
    assert response.status_code == 400 and 'class="error"' in response.text
    assert "no card ships for bc5; the web has cards for bc, mm, and finds one" in response.text
    error = response.text.split('class="error"', 1)[1].split("</p>", 1)[0]
    assert "bullscows card" not in error and "--strategy" not in error  # no terminal's words
    response = client.get("/card", params={"rules": "p4c99"})
    assert response.status_code == 400 and 'class="error"' in response.text


def test_the_coach_on_the_card_page(client: TestClient) -> None:
    page = client.get("/card", params={"rules": "mm", "after": "1124 0 1"}).text
    assert "The card says 4656 (line 3: after 1124 0B1W); 276 codes fit." in page
    start = client.get("/card", params={"rules": "mm"}).text
    assert "The card says 1124 (line 1: the first guess); 1,296 codes fit." in start
    apart = client.get("/card", params={"rules": "mm", "after": "1 1 2 4 0 1"}).text
    assert "The card says 4656 (line 3: after 1124 0B1W); 276 codes fit." in apart
    for after in ("1124", "1124 3 1", "1124 0 0, 5656 0 0, 3333 1 0", "1 1 2"):
        response = client.get("/card", params={"rules": "mm", "after": after})
        assert response.status_code == 400 and 'class="error"' in response.text


def test_lines_that_are_no_number_are_refused_in_the_pages_words(client: TestClient) -> None:
    """The form's free box: 'abc' was refused by the validator's words (query.lines: Input
    should be a valid integer, ...); the page says what to type, with the form kept."""
    response = client.get("/card", params={"rules": "mm", "lines": "abc"})
    assert response.status_code == 400 and 'id="card-form"' in response.text
    assert "lines &#39;abc&#39;: a whole number of lines, such as 20" in response.text
    assert "query." not in response.text and "valid integer" not in response.text
