"""One full game of each mode in chromium, at a phone's size (390x844) and a laptop's
(1280x800), with script on and off: play, solve, duel, assist and the daily puzzle, each to
its end. After each game the page fits its width, every control is a thumb's size, and no
request of the game was answered with an error."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, Response, expect

from bullscows import Code, Feedback, Rules, score
from bullscows.sessions import Codebreaker

from .test_browser import ROWS, SIZES, base, browser, fits, open_context

__all__ = ["base", "browser"]  # fixtures, shared with the other browser tests
BC, MM = Rules.parse("bc"), Rules.parse("mm")
SECRET = "2745"  # the person's code in solve, duel and assist


@pytest.fixture(params=[(size, script) for size in SIZES for script in ("script", "no-script")],
                ids=lambda p: f"{p[0]}-{p[1]}")  # fmt: skip
def page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A page of a fresh profile at each size, with script on and off. Every answer of the
    server is watched: an error (a refused form, a missing file) fails the test."""
    size, script = request.param
    context = open_context(browser, viewport=SIZES[size], java_script_enabled=script == "script")
    made = context.new_page()
    failed: list[str] = []

    def seen(response: Response) -> None:
        if response.status >= 400:
            failed.append(f"{response.request.method} {response.url}: {response.status}")

    made.on("response", seen)
    yield made
    context.close()
    assert not failed, failed


def start(page: Page, base: str, mode: str, rules: str = "bc") -> None:
    """Start a game of ``mode`` from its form, as a person does."""
    page.goto(f"{base}/new/{mode}")
    if rules != "bc":
        page.locator("#rules").select_option(rules)
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/game/"))


def say(page: Page, line: str) -> None:
    """Type a line into the game's box and send it with Enter; wait for the new row."""
    count = page.locator(ROWS).count()
    page.locator("#say").fill(line)
    page.locator("#say").press("Enter")
    expect(page.locator(ROWS)).not_to_have_count(count)


def reply_of(row_text: str | None, rules: Rules) -> Feedback:
    return Feedback.parse(row_text or "", rules)


def code_of(page: Page, selector: str, rules: Rules = BC) -> Code:
    return Code(page.locator(selector).first.get_attribute("data-code") or "", rules)


def break_code(page: Page, rules: Rules) -> int:
    """Guess with minimax's guesses, read each reply off the board, until the game ends."""
    solver = Codebreaker(rules, "minimax")
    for number in range(1, 12):
        say(page, solver.suggest().text)
        reply = reply_of(page.locator(f"{ROWS} .reply-text").last.text_content(), rules)
        if reply.is_win(rules.length) or page.locator("#result").count():
            return number
        solver.reply(reply)
    raise AssertionError("minimax breaks a bc code in at most 7 guesses")


def test_play(page: Page, base: str) -> None:
    start(page, base, "play")
    guesses = break_code(page, BC)
    expect(page.locator("#result")).to_contain_text(f"You broke it in {guesses} guess")
    expect(page.locator("#grid")).to_have_value(re.compile(rf"^bullscows bc: broken in {guesses}"))
    fits(page)
    page.locator("#again").click()
    expect(page.locator("#say")).to_be_visible()
    expect(page.locator(ROWS)).to_have_count(0)


def test_solve(page: Page, base: str) -> None:
    start(page, base, "solve")
    secret = Code(SECRET, BC)
    while not page.locator("#result").count():
        count = page.locator(ROWS).count()
        assert count < 8
        guess = code_of(page, "#guess")
        page.locator(f'button.choice[data-reply="{score(guess, secret).format("pair")}"]').click()
        expect(page.locator(ROWS)).to_have_count(count + 1)
    expect(page.locator("#result")).to_contain_text("I found it")
    fits(page)
    page.locator("#undo").click()  # taken back: asked again
    expect(page.locator("#guess")).to_be_visible()


def test_duel_on_mastermind(page: Page, base: str) -> None:
    """A duel on Mastermind to its end: replies are black and white pegs everywhere, each
    written in full beside its pegs where there is room, never cut off."""
    start(page, base, "duel", "mm")
    secret = Code("3321", MM)
    solver = Codebreaker(MM, "minimax")
    for _ in range(30):
        if page.locator("#result").count():
            break
        if page.locator("#guess").count():  # the computer asks: answer honestly
            choices = page.locator("button.choice .choice-text").all_text_contents()
            assert choices and all(re.fullmatch(r"\dB\dW", c) for c in choices), choices
            true = score(code_of(page, "#guess", MM), secret).format("pair")
            count = page.locator(ROWS).count()
            page.locator(f'button.choice[data-reply="{true}"]').click()
            expect(page.locator(ROWS)).to_have_count(count + 1)
        else:
            say(page, solver.suggest().text)
            mine = page.locator(f".duel section:first-child {ROWS} .reply-text").last
            reply = reply_of(mine.text_content(), MM)
            if not reply.is_win(MM.length):
                solver.reply(reply)
    expect(page.locator("#result")).to_contain_text("My code was")
    main = page.locator("main").inner_text()
    assert not re.search(r"\b(bull|cow)s?\b", main, re.IGNORECASE), main
    texts = page.locator(".board .reply-text")
    assert all(re.fullmatch(r"\dB\dW", t) for t in texts.all_text_contents())
    if texts.first.is_visible():  # written out in full where shown: nothing cut off
        clipped = texts.evaluate_all("ts => ts.filter(t => t.scrollWidth > t.clientWidth + 1)"
                                     ".map(t => t.textContent)")  # fmt: skip
        assert not clipped, clipped
    pegs = page.locator(".board .pegs")
    labels = pegs.evaluate_all("ps => ps.map(p => p.getAttribute('aria-label'))")
    assert all(re.fullmatch(r"\dB\dW", label) for label in labels), labels
    fits(page)


def test_assist(page: Page, base: str) -> None:
    start(page, base, "assist")
    secret = Code(SECRET, BC)
    for _ in range(8):
        if page.locator("#result").count():
            break
        guess = code_of(page, "#suggestion .code")
        say(page, f"{guess.text} {score(guess, secret).format('pair')}")
    expect(page.locator("#result")).to_contain_text(SECRET)
    fits(page)


def test_daily(page: Page, base: str) -> None:
    page.goto(f"{base}/daily")
    page.locator("#daily-bc").click()
    page.wait_for_url(re.compile(r"/game/"))
    expect(page.locator("h1")).to_contain_text("Daily puzzle #")
    day = (page.locator("h1").text_content() or "").rsplit("#", 1)[1].strip()
    guesses = break_code(page, BC)
    expect(page.locator("#grid")).to_have_value(
        re.compile(rf"^bullscows bc #{day}: broken in {guesses}/7 guess")
    )
    fits(page)
    page.goto(f"{base}/record")  # the day's game counts in the record
    expect(page.locator('.variant-record[data-rules="bc"]')).to_contain_text("1 played, 1 won")
    fits(page)


def test_card_and_its_coach(page: Page, base: str) -> None:
    page.goto(f"{base}/card")
    page.locator('#card-form input[name="rules"]').fill("mm")
    page.locator('#card-form input[name="after"]').fill("1124 0 1")
    page.locator('#card-form button[type="submit"]').click()
    expect(page.locator("#advice")).to_contain_text("The card says 4656")
    fits(page)
