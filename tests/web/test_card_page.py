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
    assert "no card ships for bc5" in response.text
    response = client.get("/card", params={"rules": "p4c99"})
    assert response.status_code == 400 and 'class="error"' in response.text
