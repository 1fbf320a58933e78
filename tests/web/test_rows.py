"""A board's rows in a real browser: each stays one line (its tiles, its pegs in two rows at
most, and its reply's words) for long codes too, measured by the rows' heights."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

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


@pytest.mark.parametrize("width", [390, 1280])
def test_a_duels_rows_of_six_symbols_stay_on_one_line(
    browser: Browser, base: str, width: int
) -> None:
    """p6c8n (a custom variant of bc: 6 symbols of 0-7) gives replies of 4 to 6 pegs: they
    stand in two rows beside the tiles, and the reply's words on one line beside them."""
    context = open_context(browser, viewport={"width": width, "height": 800})
    page = context.new_page()
    page.goto(f"{base}/new/duel")
    page.locator("details:has(input[name=length]) summary").click()
    page.locator("input[name=length]").fill("6")
    page.locator("input[name=symbols]").fill("01234567")
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/game/"))
    expect(page.locator(".variant")).to_contain_text("p6c8n")
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
    rows = page.evaluate(HEIGHTS)
    assert len(rows) == 2 and all(height <= most + 1 for _, height, most in rows), rows
    assert page.evaluate(WRAPPED) == [], width
    fits(page)
    context.close()
