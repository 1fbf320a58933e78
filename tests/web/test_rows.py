"""A board's rows in a real browser: each stays one line (its tiles, its pegs in two rows at
most, and its reply's words) for long codes too, measured by the rows' heights; on a phone,
codes of 8 symbols or more give their tiles the first line and their pegs a second."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .test_browser import base, browser, fits, open_context
from .test_phone import WRAPPED

__all__ = ["base", "browser"]  # fixtures, shared with the other browser tests

#: Each row's height beside the most a row of one line takes (its tiles' height or two rows of
#: pegs, whichever is taller, and its padding and border; sizes before transforms, which
#: reveal the newest pegs): [[reply, height, most], ...].
HEIGHTS = """() => [...document.querySelectorAll(".board .row[data-step]")].map(row => {
  const s = getComputedStyle(row), px = name => parseFloat(s[name]);
  const tile = row.querySelector(".tile").offsetHeight;
  const peg = row.querySelector(".peg").offsetHeight;
  const gap = parseFloat(getComputedStyle(row.querySelector(".pegs")).rowGap);
  const most = Math.max(tile, 2 * peg + gap)
    + px("paddingTop") + px("paddingBottom") + px("borderTopWidth") + px("borderBottomWidth");
  const text = row.querySelector(".reply-text").textContent;
  return [text, row.offsetHeight, most]; })"""


def start_p6c8n(browser: Browser, base: str, mode: str, width: int) -> tuple[BrowserContext, Page]:
    """A game of p6c8n (a custom variant of bc: 6 symbols of 0-7) from ``mode``'s form, in a
    window ``width`` px wide, and its page."""
    context = open_context(browser, viewport={"width": width, "height": 800})
    page = context.new_page()
    page.goto(f"{base}/new/{mode}")
    page.locator("details:has(input[name=length]) summary").click()
    page.locator("input[name=length]").fill("6")
    page.locator("input[name=symbols]").fill("01234567")
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/game/"))
    expect(page.locator(".variant")).to_contain_text("p6c8n")
    return context, page


def one_line_each(page: Page) -> None:
    """Every row of the page's boards is one line, its reply's words (where shown) too."""
    rows = page.evaluate(HEIGHTS)
    assert rows and all(height <= most + 1 for _, height, most in rows), rows
    assert page.evaluate(WRAPPED) == []
    fits(page)


@pytest.mark.parametrize("width", [390, 480, 1280])
def test_a_duels_rows_of_six_symbols_stay_on_one_line(
    browser: Browser, base: str, width: int
) -> None:
    """p6c8n gives replies of 4 to 6 pegs: they stand in two rows beside the tiles, and the
    reply's words on one line beside them where there is room (700 px and wider)."""
    context, page = start_p6c8n(browser, base, "duel", width)
    page.locator("#say").fill("012345")
    page.locator("#say").press("Enter")
    page.locator("button.choice").first.wait_for()
    replies = page.locator("button.choice").evaluate_all(
        "bs => bs.map(b => b.dataset.reply.split(' ').map(Number))"
    )
    fullest = max(replies, key=sum)  # the most pegs a reply may have here: 5 or 6
    assert sum(fullest) >= 5, replies
    page.locator(f'button.choice[data-reply="{fullest[0]} {fullest[1]}"]').click()
    expect(page.locator(".board[aria-label='my guesses'] .row[data-step]")).to_have_count(1)
    assert len(page.evaluate(HEIGHTS)) == 2
    one_line_each(page)
    context.close()


@pytest.mark.parametrize("width", [390, 480, 1280])
def test_a_plays_rows_of_six_symbols_stay_on_one_line(
    browser: Browser, base: str, width: int
) -> None:
    """Any 6 of p6c8n's 8 symbols share 4 or more with the secret: replies of 4 to 6 pegs."""
    context, page = start_p6c8n(browser, base, "play", width)
    for count, guess in enumerate(("012345", "234567"), 1):
        page.locator("#say").fill(guess)
        page.locator("#say").press("Enter")
        expect(page.locator(".board .row[data-step]")).to_have_count(count)
        if page.locator("#outcome").count():  # won at once: a row is a row still
            break
    one_line_each(page)
    context.close()


#: Each row's smallest tile (px) and whether its pegs stand under its tiles: [[size, under], ...].
TILES = """() => [...document.querySelectorAll(".board .row[data-step]")].map(row => {
  const tiles = [...row.querySelectorAll(".tile")].map(t => t.getBoundingClientRect());
  const pegs = row.querySelector(".pegs").getBoundingClientRect();
  return [Math.min(...tiles.map(t => t.width)), pegs.top >= Math.max(...tiles.map(t => t.bottom))];
})"""


@pytest.mark.parametrize(("spec", "width"), [("p10c2r", 390), ("p9c3r", 390), ("p10c2r", 559)])
def test_long_codes_on_a_phone_keep_tiles_one_can_read(
    browser: Browser, base: str, spec: str, width: int
) -> None:
    """Codes of 9 or 10 symbols beside their pegs left tiles of 16 or 17 px on a phone: their
    rows give the tiles the first line (27 px and more at 390 px) and the pegs a second."""
    context = open_context(browser, viewport={"width": width, "height": 800})
    page = context.new_page()
    created = page.request.post(f"{base}/api/games", data={"rules": spec})
    assert created.status == 201, created.text()
    game_id = created.json()["id"]
    length = int(spec[1:].split("c")[0])
    for guess in ("01" * 5)[:length], ("0011" * 3)[:length]:
        page.request.post(f"{base}/api/games/{game_id}/guess", data={"code": guess})
    page.goto(f"{base}/game/{game_id}")
    rows = page.evaluate(TILES)
    assert rows and all(size >= 26 and under for size, under in rows), rows
    fits(page)
    context.close()
