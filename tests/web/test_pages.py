"""The pages, in process: each mode through its forms (the text prompt reads what the terminal
reads), inline errors with status 400, and the tree explorer."""

from __future__ import annotations

import gzip
import re
from datetime import date
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bullscows import Code, Rules, score
from bullscows.outcomes import build_tree
from bullscows.sessions.making import CHALLENGE_TITLE
from bullscows.sessions.outcomes import GIVE_UP_HIDES, GIVE_UP_SHOWS
from bullscows.strategies import get_strategy
from bullscows.web.app import create_app

from .conftest import submit

BC = Rules.parse("bc")


def new(client: TestClient, mode: str, **form: str) -> str:
    response = client.post(f"/new/{mode}", data={"rules": "bc", "strategy": "minimax", **form})
    assert response.status_code == 303, response.text
    location: str = response.headers["location"]
    return location


def say(client: TestClient, page: str, text: str, status: int = 200) -> str:
    response = submit(client, page, {"say": text}, follow_redirects=True)
    assert response.status_code == status, response.text
    return response.text


def test_home_and_forms(client: TestClient) -> None:
    home = client.get("/").text
    assert 'id="howto"' in home and 'data-code="2745"' in home and 'id="theme"' in home
    for mode in ("play", "solve", "duel", "assist"):
        form = client.get(f"/new/{mode}").text
        assert f'action="/new/{mode}"' in form and "mm: 4 symbols of 1-6" in form
    response = client.get("/new/fight")
    assert response.status_code == 400 and "mode &#39;fight&#39;" in response.text


def test_the_how_to_is_open_only_before_the_first_game(client: TestClient) -> None:
    first = client.get("/").text
    assert re.search(r'<details id="howto" class="howto" open>', first)
    new(client, "play")  # the browser now has a player: the how-to is one line, closed
    again = client.get("/").text
    assert '<details id="howto" class="howto">' in again and "<summary" in again


CURRENT = re.compile(r'<a href="([^"]+)" aria-current="page">')


def test_the_menu_marks_the_current_page(client: TestClient) -> None:
    for path, entry in (("/tree", "/tree"), ("/tree?src=shipped:bc--optimal", "/tree"),
                        ("/new/duel", "/new/duel"), ("/daily", "/daily"), ("/record", "/record"),
                        ("/card?rules=mm", "/card"), ("/about", "/about")):  # fmt: skip
        marked = CURRENT.findall(client.get(path).text)
        assert marked == [entry, entry], (path, marked)  # the wide bar and the phone's menu
    assert CURRENT.findall(client.get("/").text) == []
    game = new(client, "solve")
    assert CURRENT.findall(client.get(game).text) == ["/new/solve"] * 2
    assert CURRENT.findall(client.get("/game/nothing-here").text) == []


def test_a_bad_variant_is_an_inline_error(client: TestClient) -> None:
    response = client.post("/new/play", data={"rules": "bc", "length": "12"})
    assert response.status_code == 400 and 'class="error"' in response.text
    response = client.post("/new/play", data={"rules": "p6c10r"})
    assert response.status_code == 400 and "at most 50,000" in response.text
    response = client.post("/new/play", data={"rules": "bc", "length": "x"})
    assert response.status_code == 400 and "a whole number" in response.text
    for field, words in (("length", "length"), ("limit", "guess limit")):  # "²".isdigit()
        response = client.post("/new/play", data={"rules": "bc", field: "\u00b2"})
        assert response.status_code == 400 and f"{words} &#39;\u00b2&#39;" in response.text


def test_a_misspelt_strategy_is_answered_with_the_name_meant(client: TestClient) -> None:
    """Every form that takes a strategy's name says which one a misspelt name meant, in the
    library's words (``strategies.registered``, as the terminal says it)."""
    meant = "unknown strategy &#39;minmax&#39; (did you mean &#39;minimax&#39;?); strategies: "
    for response in (
        client.post("/new/play", data={"rules": "mm", "strategy": "minmax"}),
        client.get("/tree/build?strategy=minmax&rules=mm", follow_redirects=True),
        client.get("/bench", params={"rules": "mm", "strategy": "minmax"}),
    ):
        assert response.status_code == 400 and meant in response.text, response.text
        assert "tree:FILE" not in response.text  # the web reads no file of the server's
    said = client.get("/api/bench", params={"rules": "mm", "strategy": "minmax"}).json()
    assert "(did you mean 'minimax'?)" in said["error"]


def test_a_misspelt_command_at_the_prompt_is_answered_with_the_one_meant(
    client: TestClient,
) -> None:
    """A word close to a command the game takes is read as a code and refused, with the
    command it meant (``sessions.moves.command_meant``, as the terminal says it)."""
    page = new(client, "play", hints="true")
    assert "&#39;h&#39; is not a symbol" in (said := say(client, page, "hnit", 400))
    assert "(did you mean &#39;hint&#39;?)" in said
    assert "did you mean" not in say(client, page, "12x4", 400)  # no word: no suggestion
    assist = new(client, "assist")
    assert "(did you mean &#39;undo&#39;?)" in say(client, assist, "undi", 400)


def test_a_line_that_only_shows_something_shows_it_beside_the_box(client: TestClient) -> None:
    """'list', 'history' and 'help' change nothing: their words (the terminal's, from the
    library) come back with the page, where a redirect once lost them."""
    assist = new(client, "assist")
    say(client, assist, "0123 0 0")  # 360 codes of 4-9 left
    listed = re.search(r'<div class="told" id="told" role="status">(.*?)</div>',
                       say(client, assist, "list"), re.S)  # fmt: skip
    assert listed is not None
    codes = re.findall(r"\b\d{4}\b", listed.group(1))
    assert len(codes) == 360 and codes[0] == "4567" and not set("0123") & set("".join(codes))
    assert "[1] 0123  0 bulls, 0 cows" in say(client, assist, "history")
    assert "Enter &#39;GUESS REPLY&#39;" in say(client, assist, "help")
    assert 'id="told"' not in client.get(assist).text  # the game's page: nothing asked
    assert "Nothing yet." in say(client, new(client, "play"), "history")


def test_hint_typed_in_assist_says_what_assist_takes(client: TestClient) -> None:
    """Assist has no hint: the line is no code either, and the page says what to type instead
    (``sessions.moves.refusal``, the terminal's words), not that 'h' is not a symbol."""
    assist = new(client, "assist")
    said = say(client, assist, "hint", 400)
    assert "&#39;hint&#39; is no command here: &#39;next&#39; (or Enter) suggests a guess" in said
    assert "the commands are undo, history, list, next, fix N REPLY, quit, help" in said
    assert "is not a symbol" not in said


def test_a_guess_typed_apart_in_assist_is_read_whole(client: TestClient) -> None:
    """'2 1 9 9' was read as the code '2' and refused as 1 symbol: it is read as play reads
    a code typed apart (here refused for its repeated 9), and '2 1 9 0 1 2' is recorded."""
    assist = new(client, "assist")
    said = say(client, assist, "2 1 9 9", 400)
    assert "code &#39;2 1 9 9&#39;: &#39;9&#39; appears twice" in said
    assert "code &#39;2&#39;" not in said
    assert "[1] 2190  1 bull, 2 cows" in say(client, assist, "2 1 9 0 1 2") + say(
        client, assist, "history"
    )


def test_a_command_word_that_is_a_code_of_letters_is_refused_as_one_too(client: TestClient
                                                                      ) -> None:  # fmt: skip
    """Where the symbols are letters, 'suggest' in play is a code of 7 symbols and 'hint' in
    assist a guess with no reply: the page says so before that the word is no command here."""
    letters = {"rules": "p4c12n:symbols=dehilnostuxg"}
    said = say(client, new(client, "play", **letters), "suggest", 400)
    assert "code &#39;suggest&#39; has 7 symbols; a code has 4, e.g. &#39;dehi&#39;; and " \
           "&#39;suggest&#39; is no command here" in said  # fmt: skip
    said = say(client, new(client, "assist", **letters), "hint", 400)
    assert "guess &#39;hint&#39; has no reply" in said and "is no command here" in said


def test_a_game_given_up_before_a_guess_offers_no_empty_analysis(client: TestClient) -> None:
    """Its analysis was a table of headings and no row: the link is left out, and the page
    (typed in) says why it is empty."""
    page = new(client, "play")
    assert submit(client, page, {"do": "give-up"}).status_code == 303
    over = client.get(page).text
    assert 'id="result"' in over and 'id="analysis-link"' not in over
    empty = client.get(f"{page}/analysis").text
    assert "No guess yet" in empty and 'id="analysis"' not in empty
    played = new(client, "play")
    if 'id="result"' not in say(client, played, "0123"):  # else 0123 was the secret: won
        assert submit(client, played, {"do": "give-up"}).status_code == 303
    assert 'id="analysis-link"' in client.get(played).text


def test_a_refused_custom_variant_is_shown_as_chosen(client: TestClient) -> None:
    """A refused form comes back with its variant selected, a preset or not."""
    response = client.post("/new/play", data={"rules": "p6c10r"})
    assert response.status_code == 400
    selected = re.findall(r'<option value="([^"]*)" selected>', response.text)
    assert selected[0] == "p6c10r", selected
    response = client.post("/new/play", data={"rules": "mm", "length": "x"})
    assert re.findall(r'<option value="([^"]*)" selected>', response.text)[0] == "mm"


def test_play_by_the_prompt(client: TestClient) -> None:
    page = new(client, "play", hints="true")
    text = say(client, page, "0123")
    assert "codes still possible" in text and "0123" in text
    assert "&#39;0023&#39;: &#39;0&#39; appears twice" in say(client, page, "0023", 400)
    hinted = say(client, page, "hint")
    assert 'id="hint"' in hinted and "Try " in hinted
    section = hinted.split('id="hint"')[1].split("</section>")[0]
    paragraphs = re.findall(r"<p>(.*?)</p>", section)
    assert " parts: " in paragraphs[-1] and "parts: " not in "".join(paragraphs[:-1])
    assert not re.search(r"cows?: \d", "".join(paragraphs[:-1]))  # the parts: one paragraph
    count = int(paragraphs[-1].split(" parts: ")[0])
    assert paragraphs[-1].count(": ") == 1 + min(count, 6), paragraphs[-1]
    over = say(client, page, "quit")
    assert "The secret was" in over and 'id="say"' not in over


def test_a_hint_is_answered_by_a_redirect_and_shown_until_the_next_move(
    client: TestClient,
) -> None:
    """A post answered by a page is posted again by a reload (refused as stale: the hint
    gone, an error instead); the hint's page is a plain address, so it is read again."""
    page = new(client, "play", hints="true")
    say(client, page, "0123")
    asked = submit(client, page, {"do": "hint"})
    assert asked.status_code == 303 and asked.headers["location"] == page
    shown = [client.get(page).text for _ in range(3)]  # read again: a reload, another tab
    hints = [re.findall(r'id="hint">(.*?)</section>', text) for text in shown]
    assert hints[0] and hints[0] == hints[1] == hints[2] and "Try " in hints[0][0]
    assert all('class="error"' not in text for text in shown)
    game_id = page.rsplit("/", 1)[1]
    assert client.get(f"/api/games/{game_id}").json()["state"]["hints_given"] == 1
    refused = say(client, page, "01234", 400)  # a refused line leaves the hint beside it
    assert re.findall(r'id="hint">(.*?)</section>', refused) == hints[0]
    after = say(client, page, "4567")
    assert 'id="hint"' not in after and 'id="hint"' not in client.get(page).text


def test_a_hint_is_kept_and_asked_again_only_by_a_process_that_did_not_give_it(
    database: str, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reload shows the hint given without computing it again; another process (which
    did not give it) asks again, counted once, and says why when it cannot."""
    import bullscows.sessions.making as making
    from bullscows.web.compute import Busy

    given: list[int] = []
    give = making.give_hint

    def counted(*args: Any, **kwargs: Any) -> Any:
        given.append(1)
        return give(*args, **kwargs)

    def busy(*args: Any, **kwargs: Any) -> Any:
        raise Busy("the server is busy: try again in a moment")

    monkeypatch.setattr(making, "give_hint", counted)
    page = new(client, "play", rules="mm", hints="true")
    say(client, page, "1122")
    submit(client, page, {"do": "hint"})
    hint = re.findall(r'id="hint">(.*?)</section>', client.get(page).text)
    assert hint and len(given) == 1 and client.get(page).status_code == 200 and len(given) == 1
    with TestClient(create_app(database, warm=False)) as other:
        monkeypatch.setattr(making, "give_hint", busy)
        failed = other.get(page)
        assert failed.status_code == 503 and "the server is busy" in failed.text
        assert 'id="hint"' not in failed.text
        monkeypatch.setattr(making, "give_hint", counted)
        assert re.findall(r'id="hint">(.*?)</section>', other.get(page).text) == hint
        assert len(given) == 2 and other.get(page).status_code == 200 and len(given) == 2
    game_id = page.rsplit("/", 1)[1]
    assert client.get(f"/api/games/{game_id}").json()["state"]["hints_given"] == 1


def test_a_page_loads_its_game_once(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from bullscows.web.common import Games

    page, loads = new(client, "play"), []
    load = Games.load

    def counted(self: Games, *args: Any, **kwargs: Any) -> Any:
        loads.append(1)
        return load(self, *args, **kwargs)

    monkeypatch.setattr(Games, "load", counted)
    assert client.get(page).status_code == 200 and len(loads) == 1


def test_custom_variant_with_no_leading_zero(client: TestClient) -> None:
    page = new(client, "play", length="3", symbols="01234", no_leading_zero="true")
    text = client.get(page).text
    assert "3 distinct symbols of 0-4" in text
    assert "&#39;012&#39;" in say(client, page, "012", 400)


def test_solve_with_buttons_undo_and_a_one_click_fix(client: TestClient) -> None:
    page = new(client, "solve")
    text = client.get(page).text
    offered = re.findall(r'data-reply="([^"]+)"', text)
    assert len(offered) == 14 and "3 1" not in offered
    secret = Code("2745", BC)
    submit(client, page, {"do": "reply", "reply": "0 1"})  # 0123: true
    text = say(client, page, "2 0")  # 1456 gets 0 2 from 2745: a slip
    for _ in range(6):
        if "contradict" in text:
            break
        guess = Code(re.search(r'id="guess" data-code="(\w+)"', text).group(1), BC)  # type: ignore[union-attr]
        text = say(client, page, score(guess, secret).format("bc"))
    assert "Your replies contradict each other" in text
    fixes = re.findall(r'data-fix="(\d+):([^"]+)"', text)
    assert ("2", "0 2") in fixes
    text = submit(client, page, {"do": "correct", "step": "2", "reply": "0 2"},
                  follow_redirects=True).text  # fmt: skip
    assert "contradict" not in text
    text = say(client, page, "undo")
    assert "choices left" in text or "it must be" in text
    assert "no reply #9" in say(client, page, "fix 9 1 1", 400)


def test_assist_and_duel_pages(client: TestClient) -> None:
    page = new(client, "assist")
    text = say(client, page, "1389 0 0")
    assert "360 choices left" in text and "Suggested guess" in text
    assert "give a guess and its reply" in say(client, page, "1389", 400)
    duel = new(client, "duel")
    text = say(client, duel, "0123")
    assert "My guess" in text and 'data-reply="' in text
    assert "Your guess at my code" in say(client, duel, "0 1")


def test_an_unknown_game_is_a_404_page(client: TestClient) -> None:
    response = client.get("/game/nothing-here")
    assert response.status_code == 404 and "no game" in response.text


def test_walk_the_optimal_bc_tree_to_a_leaf(client: TestClient) -> None:
    listing = client.get("/tree").text
    assert "shipped%3Abc--optimal" in listing and "shipped%3Amm--optimal" in listing
    link = "/tree?src=shipped%3Abc--optimal&at="
    for _ in range(10):
        text = client.get(link.replace("&amp;", "&")).text
        if 'id="leaf"' in text:
            break
        assert "secrets" in text and 'class="crumbs"' in text
        link = re.findall(r'class="branch" href="([^"]+)"', text)[-1]
    assert 'id="leaf"' in text and 'id="permalink"' in text
    assert text.count("\u203a") >= 2  # breadcrumbs back up


def test_trees_built_checked_and_refused(client: TestClient) -> None:
    response = client.get("/tree/build?strategy=minimax&rules=mm")
    assert response.status_code == 303
    text = client.get(response.headers["location"]).text
    assert "total 5,801" in text and "1122" in text
    assert "1B0W" in text and not re.search(r"\d bulls?, \d cows?", text)  # Mastermind's pegs
    assert "at most 5,040" in client.get("/tree?src=build:minimax:bc5").text
    searched = client.get("/tree?src=build:optimal:p4c8r")  # no terminal's command: no terminal
    assert searched.status_code == 400 and "such as minimax" in searched.text
    assert "bullscows tree" not in searched.text.split('class="error"', 1)[1].split("</p>")[0]
    assert "random" in client.get("/tree?src=build:random:mm").text
    assert client.get("/tree?src=shipped:bc--optimal&at=4 0").status_code == 400
    assert client.get("/tree?src=whatever").status_code == 400
    tree = build_tree(Rules.parse("p3c4n"), get_strategy("entropy"))
    data = gzip.compress(tree.to_json().encode())
    response = client.post("/tree/upload", files={"file": ("t.json.gz", data)})
    assert response.status_code == 303
    assert "p3c4n" in client.get(response.headers["location"]).text
    broken = tree.to_json().replace('"total":', '"total":1', 1)
    response = client.post("/tree/upload", files={"file": ("t.json", broken.encode())})
    assert response.status_code == 400
    assert "tree file &#39;t.json&#39; is not valid" in response.text
    response = client.post("/tree/upload", files={"file": ("t.json", b"[1, 2")})
    assert response.status_code == 400


def test_a_node_says_its_secrets_in_a_sentence(client: TestClient) -> None:
    """A leaf said '1 secret reach this node; ... this one included. 1125': the count agrees
    with its verb, and the codes that reach a small node are named as such."""
    leaf = client.get("/tree", params={"src": "shipped:mm--optimal", "at": "3 0/2 1"}).text
    assert "1 secret reaches this node;" in leaf
    assert 'It is <span class="candidates">1125</span>.' in leaf
    node = client.get("/tree", params={"src": "shipped:mm--optimal", "at": "3 0/2 0"}).text
    assert "2 secrets reach this node;" in node
    assert 'They are <span class="candidates">1143 1223</span>.' in node


@pytest.mark.parametrize("at", ["", "0 1", "0b1c/1 1"])
def test_tree_api_node(client: TestClient, at: str) -> None:
    node = client.get("/api/tree", params={"src": "shipped:bc--optimal", "at": at}).json()
    depth = len([part for part in at.split("/") if part])
    assert node["node"]["level"] == depth + 1 and len(node["crumbs"]) == depth + 1
    assert sum(r["secrets"] for r in node["replies"]) == node["node"]["secrets"]
    assert max(r["depth"] for r in node["replies"]) + 1 == node["node"]["depth"]


def test_compare_strategies(client: TestClient) -> None:
    form = client.get("/bench").text
    assert 'id="bench-form"' in form and 'value="minimax" checked' in form
    page = client.get("/bench", params=[("rules", "mm"), ("strategy", "minimax"),
                                        ("strategy", "entropy")]).text  # fmt: skip
    assert "5,801" in page and "5,722" in page  # Knuth's and entropy's totals on mm
    chart = re.search(r'id="chart" src="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    svg = client.get(chart.replace("&amp;", "&"))
    assert svg.headers["content-type"] == "image/svg+xml" and "<svg" in svg.text
    data = client.get("/api/bench", params={"rules": "mm", "strategy": "minimax"}).json()
    assert data["strategies"][0]["total"] == 5801 and data["rules"] == "mm"
    csv = client.get("/api/bench", params={"rules": "mm", "strategy": "minimax", "format": "csv"})
    assert csv.text.splitlines()[1].startswith("mm,minimax,5801,")
    refused = client.get("/bench", params={"rules": "bc5", "strategy": "minimax"})
    assert refused.status_code == 400 and "at most 5,040" in refused.text
    assert client.get("/bench", params={"rules": "mm", "seed": "x"}).status_code == 400
    none = client.get("/api/bench", params={"rules": "mm", "strategy": ""})
    assert none.status_code == 400 and "at least one strategy" in none.json()["error"]


def test_bench_reports_are_kept_and_dropped_with_their_charts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bullscows.caching import Kept
    from bullscows.web import benching

    monkeypatch.setattr(benching, "_reports", Kept(1))
    monkeypatch.setattr(benching, "_charts", {})
    first = benching.bench_report("p3c4n", ["simple"])
    assert benching.bench_report("p3c4n", ["simple"]) is first  # kept: not run again
    assert benching.chart_svg(first) is benching.chart_svg(first)
    benching.bench_report("p3c4n", ["minimax"])  # room for one: the first is dropped
    assert benching._charts == {}  # its chart with it
    assert benching.bench_report("p3c4n", ["simple"]) is not first


def test_a_finished_game_shares_its_result_and_a_challenge(client: TestClient) -> None:
    page = new(client, "play", rules="mm")
    say(client, page, "1234")  # given up before a first guess, a game would not count
    over = say(client, page, "quit")
    assert 'id="grid"' in over and "bullscows mm: given up" in over and 'id="outcome"' in over
    game_id = page.rsplit("/", 1)[-1]
    made = client.post(f"/game/{game_id}/challenge")  # answered by the game's page
    assert made.status_code == 303 and made.headers["location"].startswith(f"{page}?")
    shared = client.get(made.headers["location"]).text
    link = re.search(r'id="challenge-link" href="([^"]+)"', shared).group(1)  # type: ignore[union-attr]
    assert client.get(made.headers["location"]).text == shared  # a reload makes no other
    other = new(client, "play")  # bc: never the secret of an mm challenge
    say(client, other, "quit")
    secret = client.get(f"/api/games/{game_id}").json()["state"]["secret"]
    same = new(client, "play", rules="mm")  # mm and finished, but another secret: no link
    say(client, same, "1234"), say(client, same, "quit")
    while client.get(f"/api/games/{same.rsplit('/', 1)[-1]}").json()["state"]["secret"] == secret:
        same = new(client, "play", rules="mm")
        say(client, same, "1234"), say(client, same, "quit")
    accepted = client.post(link).headers["location"]  # its secret, but still being played
    made_id = link.rsplit("/", 1)[-1]
    for shown in (f"{other}?challenge={made_id}", f"{page}?challenge=nothing",
                  f"{same}?challenge={made_id}", f"{accepted}?challenge={made_id}"):  # fmt: skip
        assert 'id="challenge-link"' not in client.get(shown).text  # no link but its own
    games = client.app.state.games  # type: ignore[attr-defined]  # the page hides it anyway
    assert not games.challenges(games.load(accepted.rsplit("/", 1)[-1])[0], made_id)
    told = client.get(link).text.split('class="howto"')[1].split("</section>")[0]
    words = re.sub(r"<[^>]+>", "", told)  # Mastermind's replies are pegs, black and white
    assert "black" in words and "white" in words and not re.search(r"\b(bull|cow)s?\b", words)
    started = client.post(link)
    assert started.status_code == 303 and started.headers["location"] != page
    fresh = client.get(started.headers["location"]).text
    assert "4 symbols of 1-6" in fresh and 'id="say"' in fresh
    assert 'id="record"' in client.get("/record").text


def heading(page: str) -> str:
    found = re.search(r"<h1>([^<]*)</h1>", page)
    assert found is not None, page
    return found.group(1).replace("&#39;", "'")


def test_the_give_up_button_says_whether_the_code_will_be_shown(client: TestClient) -> None:
    """Before the first guess a game of my secret keeps it hidden when given up (so that it
    can be played again): the button says so; after a guess, and in a duel, it shows it."""
    page = new(client, "play", rules="mm")
    shown = client.get(page).text
    assert GIVE_UP_HIDES in shown and GIVE_UP_SHOWS not in shown
    say(client, page, "1234")
    if "still possible" in client.get(page).text:  # not broken by the guess
        shown = client.get(page).text
        assert GIVE_UP_SHOWS in shown and GIVE_UP_HIDES not in shown
    duel = client.get(new(client, "duel")).text
    assert GIVE_UP_SHOWS in duel and GIVE_UP_HIDES not in duel


def test_a_friends_challenge_is_titled_for_their_code(client: TestClient) -> None:
    page = new(client, "play", rules="mm")
    assert heading(client.get(page).text) == "Play: break the computer's code"
    say(client, page, "1234")
    say(client, page, "quit")
    made = client.post(f"{page}/challenge").headers["location"]
    link = re.search(r'id="challenge-link" href="([^"]+)"', client.get(made).text)
    assert link is not None
    invited = client.get(link.group(1)).text  # the friend gave up: no "broke" said of them
    assert "Your friend played a secret code" in invited and "broke" not in invited
    accepted = client.post(link.group(1)).headers["location"]
    assert heading(client.get(accepted).text) == CHALLENGE_TITLE
    game_id = accepted.rsplit("/", 1)[-1]
    assert client.get(f"/api/games/{game_id}").json()["state"]["title"] == CHALLENGE_TITLE
    say(client, accepted, "quit")  # over too (each page replays the stored record)
    assert heading(client.get(accepted).text) == CHALLENGE_TITLE


def test_analysis_page_and_hard_mode_form(client: TestClient) -> None:
    page = new(client, "play", hard="true", hints="true")
    say(client, page, "0123")
    text = say(client, page, "quit")
    assert 'id="analysis-link"' in text
    analysis = client.get(page + "/analysis").text
    assert 'id="analysis"' in analysis and "hard mode" in analysis
    assert 'data-code="0123"' in analysis


def test_every_asset_is_served_by_the_app(client: TestClient) -> None:
    assert client.get("/docs").status_code == 404  # FastAPI's API browser loads a CDN's scripts
    for path in ("/", "/new/play", "/tree", "/bench", "/record", "/about"):
        text = client.get(path).text
        assert not re.search(r'(src|href)="(https?:)?//', text), path
        for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', text):
            assert client.get(asset).status_code == 200, asset
    script = client.get("/static/app.js").text
    assert re.findall(r"https?://[^\"']+", script) == ["http://www.w3.org/2000/svg"]


def test_every_shipped_tree_link_opens(client: TestClient) -> None:
    listing = client.get("/tree").text
    links = re.findall(r'href="(/tree\?src=shipped[^"]+)"', listing)
    assert len(links) == 13 and ">bc:guesses=digits--optimal<" in listing
    assert ">digits--optimal<" in listing
    for link in links:
        response = client.get(link.replace("&amp;", "&"))
        assert response.status_code == 200, link
        assert 'id="node-guess"' in response.text


def test_a_plain_form_post_without_script_is_accepted(client: TestClient) -> None:
    """What chromium sends for a form post when script is off: its own site, no origin."""
    same = {"origin": "null", "sec-fetch-site": "same-origin"}
    response = client.post("/new/play", data={"rules": "bc"}, headers=same)
    assert response.status_code == 303, response.text
    game = response.headers["location"]
    assert submit(client, game, {"say": "0123"}, headers=same).status_code == 303
    response = client.post(
        game, data={"do": "give-up"}, headers={"origin": "null", "sec-fetch-site": "cross-site"}
    )
    assert response.status_code == 403 and "text/html" in response.headers["content-type"]
    assert "Sec-Fetch-Site: &#x27;cross-site&#x27;" in response.text
    assert "<main" in response.text and "Traceback" not in response.text
    assert client.get("/").headers["referrer-policy"] == "same-origin"


def test_the_daily_puzzle_is_the_same_for_everyone(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bullscows import daily

    # One day throughout, though midnight (UTC) may come while the test runs.
    monkeypatch.setattr(daily, "utc_today", lambda: date(2026, 11, 26))
    day = daily.day_number()
    assert day == 330
    listing = client.get("/daily").text
    assert f"Daily puzzle #{day}" in listing and 'id="daily-mm"' in listing
    secrets = set()
    for player in (client, TestClient(client.app, follow_redirects=False)):  # two players
        response = player.post("/daily", data={"rules": "bc"})
        assert response.status_code == 303
        game = response.headers["location"]
        playing = client.get(game).text
        api = client.get("/api" + game.replace("/game/", "/games/")).json()["state"]
        assert "secret" not in api and "seed" not in str(api["record"])
        say(client, game, "0123")  # given up before a first guess, a game would not count
        over = say(client, game, "quit")
        found = re.search(r'The secret was <span class="code tiles" data-code="(\d+)"', over)
        assert found is not None
        secrets.add(found.group(1))
        assert f'data-code="{found.group(1)}"' not in playing
        assert f"bullscows bc #{day}: given up after 1 guess" in over
        assert "7 guesses" in playing  # the daily puzzle's limit
        assert f'data-day="{day}"' in over
    assert len(secrets) == 1
    assert client.post("/daily", data={"rules": "bc5"}).status_code == 400


def test_a_daily_puzzle_is_played_once_then_a_new_game_follows(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asked again the same day, today's puzzle is the player's game of it, finished or not
    (no second try at a secret they know); once it is over, the page offers a new game with
    the form's defaults (no daily guess limit) and the record."""
    from bullscows import daily

    monkeypatch.setattr(daily, "utc_today", lambda: date(2026, 11, 26))
    game = client.post("/daily", data={"rules": "bc"}).headers["location"]
    assert client.post("/daily", data={"rules": "bc", "hints": "true"}).headers["location"] == game
    say(client, game, "0123")
    over = say(client, game, "quit")
    assert client.post("/daily", data={"rules": "bc"}).headers["location"] == game
    listing = client.get("/daily").text
    assert f'id="daily-bc" href="{game}"' in listing and 'id="daily-mm"' in listing
    assert "Play again" not in over and 'href="/record"' in over
    form = re.search(r'<form method="post" action="/new/play"[^>]*>(.*?)</form>', over, re.S)
    assert form is not None and "Play a new game" in form.group(1)
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form.group(1)))
    assert fields == {"rules": "bc"}  # no daily limit, nor the daily's options
    new = client.post("/new/play", data=fields).headers["location"]
    state = client.get("/api" + new.replace("/game/", "/games/")).json()["state"]
    assert state.get("max_guesses") is None and state.get("day") is None
    other = TestClient(client.app, follow_redirects=False)  # another player: their own game
    given_up = other.post("/daily", data={"rules": "mm"}).headers["location"]
    say(other, given_up, "quit")  # before a guess: told nothing, so it may be played again
    assert other.post("/daily", data={"rules": "mm"}).headers["location"] != given_up
    assert other.post("/daily", data={"rules": "bc"}).headers["location"] != game
    monkeypatch.setattr(daily, "utc_today", lambda: date(2026, 11, 27))  # the next day
    assert client.post("/daily", data={"rules": "bc"}).headers["location"] != game


def test_a_guess_limit_loses_the_game_and_shows_the_secret(client: TestClient) -> None:
    page = new(client, "play", limit="2")
    text = say(client, page, "0123")
    assert "1 guess left" in text
    lost = say(client, page, "4567")
    if "You broke it" not in lost:
        assert "Out of guesses. The secret was" in lost
        assert re.search(r"bullscows bc: not broken in 2 guesses", lost)
    assert 'name="limit" value="2"' in lost  # play again keeps the limit
    response = client.post("/new/play", data={"rules": "bc", "limit": "lots"})
    assert response.status_code == 400 and "guess limit &#39;lots&#39;" in response.text
