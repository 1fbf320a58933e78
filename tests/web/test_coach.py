"""The coach in a web game, in process: the form's option, the card's advice after each reply
(the library's words, as ``play --coach`` says them), the game beside the card and the optimum
at the end, and the same in the JSON API."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from bullscows import Code, Rules, score
from bullscows.feedback import Feedback
from bullscows.knowledge import Knowledge
from bullscows.sessions import GameRecord
from bullscows.strategies.card_coach import advise, optimum_for, review
from bullscows.strategies.card_strategy import best_card

from .conftest import move, refused, start, submit

MM = Rules.parse("mm")


def advice_on(page: str) -> str:
    """The code the coach's panel shows."""
    found = re.search(r'id="coach".*?data-code="(\w+)"', page, re.S)
    assert found is not None, "no coach panel"
    return found.group(1)


def test_the_coach_plays_along_a_game_started_from_the_form(client: TestClient) -> None:
    response = client.post("/new/play", data={"rules": "mm", "coach": "true"})
    assert response.status_code == 303
    page_url = response.headers["location"]
    secret = Code(GameRecord.loads(game_record(client, page_url)).secret or "", MM)
    card, knowledge = best_card(MM), Knowledge.start(MM)
    for number in range(1, 12):
        page = client.get(page_url).text
        advice = advise(card, knowledge)
        assert advice_on(page) == advice.guess.text
        why = advice.where[0].upper() + advice.where[1:]
        assert f'<p class="why">{why}; {advice.fit}.</p>' in page.replace("&#39;", "'")
        guess = advice.guess if number != 2 else Code("3456", MM)  # once off the card
        submit(client, page_url, {"say": guess.text})
        knowledge = knowledge.after(guess, score(secret, guess))
        if guess == secret:
            break
    page = client.get(page_url).text
    assert 'id="coach"' not in page and 'id="coach-review"' in page
    found = review(card, knowledge.history, secret, optimum_for(MM))
    assert f'<p id="review-summary">{found.text()}</p>' in page.replace("&#39;", "'")
    assert page.count('class="followed"') == found.followed >= 1
    assert page.count('class="left-card"') == found.played - found.followed == 1
    assert '<input type="hidden" name="coach" value="true">' in page  # play again, coached
    for coached in found.moves:
        brief = f'<td data-label="why" title="{coached.advice.where}">{coached.advice.brief}</td>'
        assert brief in page.replace("&#39;", "'")


def game_record(client: TestClient, page_url: str) -> str:
    """The stored record of a game (its secret included), read as the server reads it."""
    games = client.app.state.games  # type: ignore[attr-defined]
    record, _, _ = games.read(page_url.rsplit("/", 1)[1])
    text: str = record.dumps()
    return text


def test_the_api_gives_the_advice_and_the_review(client: TestClient) -> None:
    game_id, state = start(client, rules="mm", coach=True, hints=False)
    card = best_card(MM)
    assert state["coach"] is True and "review" not in state
    assert state["advice"] == {"guess": "1124", "line": 1, "why": "the first guess",
                               "where": "line 1: the first guess", "brief": "line 1",
                               "left": 1296, "fit": "1,296 codes fit",
                               "text": "The card says 1124 (line 1: the first guess); "
                               "1,296 codes fit."}  # fmt: skip
    answer = move(client, game_id, "guess", code="1124", move=state["move"])
    knowledge = Knowledge.start(MM).after(Code("1124", MM), _feedback(answer))
    assert answer["state"]["advice"]["text"] == advise(card, knowledge).text()
    ended = move(client, game_id, "give-up", move=answer["state"]["move"])["state"]
    assert "advice" not in ended
    found = ended["review"]
    assert (found["played"], found["followed"], len(found["moves"])) == (1, 1, 1)
    assert found["moves"][0]["card"]["guess"] == "1124" and found["moves"][0]["followed"]
    assert found["moves"][0]["optimum"] == "1123"  # the optimal tree's first guess
    secret = Code(ended["secret"], MM)
    assert found["text"] == review(card, knowledge.history, secret, optimum_for(MM)).text()
    _, plain = start(client, rules="mm")
    assert not {"coach", "advice", "review"} & set(plain)


def _feedback(answer: dict[str, object]) -> Feedback:
    reply = answer["reply"]
    assert isinstance(reply, dict)
    return Feedback(reply["bulls"], reply["cows"])


def test_a_variant_without_a_card_is_refused_at_the_start(client: TestClient) -> None:
    """The refusal says what to choose in the browser, never a terminal's command or option."""
    response = client.post("/new/play", data={"rules": "p5c10n", "coach": "true"})
    assert response.status_code == 400 and 'class="error"' in response.text
    assert "coach: no card ships for bc5" in response.text
    message = refused(client, "/api/games", {"rules": "p5c10n", "coach": True})
    assert message == (
        "coach: no card ships for bc5; the web has cards for bc, mm, and finds one for any "
        "variant of at most 400 secrets: choose one of those (the menu's Card page shows each "
        "card)"
    )
    said = refused(client, "/api/games", {"mode": "solve", "rules": "p5c10n", "strategy": "card"})
    assert said == message.removeprefix("coach: ")
    form = client.get("/new/play").text
    assert '<input type="checkbox" name="coach" value="true" id="coach-option">' in form
