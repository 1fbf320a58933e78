"""The coach in a real browser: a coached game of ``mm`` played by the card's advice as the
page shows it (one guess off the card), at a phone's size and a laptop's, with script on and
off; the advice follows each reply and the end shows the game beside the card and the optimum.
Nothing scrolls sideways, and (with script) axe finds no serious violation."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from .test_browser import PHONE, ROWS, WIDE, base, browser, open_context

__all__ = ["base", "browser"]  # fixtures, shared with the other browser tests
OFF_CARD = "3456"  # the second guess, instead of the card's
OFF_BOOK = re.compile(r"^The game left the book; the rule|^The only code that fits")


def fits(page: Page) -> None:
    """The page does not scroll sideways, and the coach's part lies within the window."""
    width = page.viewport_size["width"]  # type: ignore[index]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for part in page.locator("#coach, #coach-review").all():
        box = part.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box


@pytest.fixture(params=["phone", "wide"])
def size(request: pytest.FixtureRequest) -> dict[str, int]:
    return PHONE if request.param == "phone" else WIDE


@pytest.fixture(params=[True, False], ids=["script", "no-script"])
def script(request: pytest.FixtureRequest) -> bool:
    return bool(request.param)


@pytest.fixture
def page(browser: Browser, size: dict[str, int], script: bool) -> Iterator[Page]:
    context = open_context(browser, viewport=size, java_script_enabled=script,
                           reduced_motion="reduce")  # fmt: skip
    yield context.new_page()
    context.close()


def say(page: Page, guess: str, rows: int) -> None:
    """Guess ``guess`` in the prompt; the board then has ``rows`` rows."""
    page.locator("#say").fill(guess)
    page.locator("#say").press("Enter")
    expect(page.locator(ROWS)).to_have_count(rows)


def test_a_coached_game_to_the_end(page: Page, base: str, script: bool) -> None:
    page.goto(f"{base}/new/play")
    page.locator("#rules").select_option("mm")
    page.locator("#coach-option").check()
    fits(page)
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/game/"))
    coach = page.locator("#coach")
    expect(coach).to_contain_text("The card says")
    expect(coach.locator(".why")).to_have_text("Line 1: the first guess; 1,296 codes fit.")
    fits(page)
    played = []
    for _ in range(5):  # the card's first guess may be the server's secret (1 in 1,296)
        played = [(first := coach.locator(".code").get_attribute("data-code") or "", first)]
        say(page, first, 1)
        if not page.locator("#result").count():
            break
        page.locator("#again").click()  # won at once: nothing to coach; another game
        page.wait_for_url(re.compile(r"/game/"))
        expect(page.locator(ROWS)).to_have_count(0)
    for number in range(2, 13):
        expect(coach.locator(".why")).to_contain_text(re.compile(r"codes? fits?\.$"))
        advice = coach.locator(".code").get_attribute("data-code") or ""
        guess = OFF_CARD if number == 2 else advice
        played.append((guess, advice))
        say(page, guess, number)
        if page.locator("#result").count():
            break
        if number == 2:  # off the book, unless the two replies leave one code (a few secrets)
            expect(coach.locator(".why")).to_contain_text(OFF_BOOK)
            fits(page)
    expect(page.locator("#result")).to_contain_text("You broke it in")
    expect(coach).to_have_count(0)
    summary = page.locator("#review-summary")
    followed = sum(guess == advice for guess, advice in played)
    expect(summary).to_contain_text(
        f"You took {len(played)} guesses; {followed} of them were the card's. The card takes "
    )
    rows = page.locator("#coach-moves tbody tr")
    expect(rows).to_have_count(len(played))
    for row, (guess, advice) in zip(rows.all(), played, strict=True):
        assert row.locator("td").nth(1).locator(".code").get_attribute("data-code") == guess
        assert row.locator("td").nth(2).locator(".code").get_attribute("data-code") == advice
        assert row.locator("td").nth(5).locator(".code").count() == 1  # the optimum's guess
    expect(page.locator("#coach-moves tr.left-card")).to_have_count(1)
    fits(page)
    if script:  # axe runs as a script in the page
        problems = [v["id"] for v in Axe().run(page).response["violations"]
                    if v["impact"] in ("serious", "critical")]  # fmt: skip
        assert not problems, problems
    page.locator("#again").click()  # play again: coached again
    page.wait_for_url(re.compile(r"/game/"))
    expect(page.locator(ROWS)).to_have_count(0)
    expect(coach.locator(".why")).to_have_text("Line 1: the first guess; 1,296 codes fit.")
