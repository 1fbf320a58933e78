"""What a tour of every mode at a phone's and a laptop's size found, in a real browser: a long
shared result wraps in its box, the bench's chart stays readable on a phone, the how-to page
leads on to a game, the tree file's label reads as one line, and a refused new game keeps
its form's choices."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from .test_browser import PHONE, ROWS, SIZES, base, browser, fits, open_context

__all__ = ["base", "browser"]  # fixtures, shared with the other browser tests


@pytest.mark.parametrize("script", ["script", "no-script"])
def test_a_long_shared_result_wraps_in_its_box_on_a_phone(
    browser: Browser, base: str, script: str
) -> None:
    """The result's first line (variant, outcome, hints, hard mode) is longer than a phone's
    box: it wraps there, whole, instead of hiding its end behind a sideways scroll."""
    context = open_context(browser, viewport=PHONE, java_script_enabled=script == "script")
    page = context.new_page()
    page.goto(f"{base}/new/play")
    page.locator("#rules").select_option("mm-colours")
    page.locator("input[name=hard]").check()
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/game/"))
    page.locator("#hint-button").click()
    expect(page.locator("#hint")).to_be_visible()
    page.locator("#say").fill("RGBY")  # given up before a guess, a game has no result to share
    page.locator("#send").click()
    expect(page.locator(ROWS)).to_have_count(1)
    if not page.locator("#result").count():  # not broken by that guess: give up
        page.locator("details.confirm summary").click()
        page.locator("#give-up").click()
    grid = page.locator("#grid")
    first = r"bullscows mm-colours: (given up after|broken in) 1 guess, 1 hint, hard mode"
    # what is copied: the first line whole, no break put in, then the guess's pegs
    expect(grid).to_have_value(re.compile(rf"^{first}\n[●○·]+$"))
    assert grid.evaluate("box => box.scrollWidth <= box.clientWidth + 1"), grid.evaluate(
        "box => [box.scrollWidth, box.clientWidth]"
    )
    assert grid.evaluate("box => box.scrollHeight <= box.clientHeight + 1")
    fits(page)
    context.close()


def test_the_bench_chart_reads_on_a_phone(browser: Browser, base: str) -> None:
    """Shrunk to a phone's width the chart's words were a few pixels high: it keeps 40rem and
    scrolls sideways in its own frame (the page does not), and a tap opens it whole."""
    context = open_context(browser, viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{base}/bench?rules=p3c6n&strategy=minimax&strategy=entropy")
    chart = page.locator("#chart")
    page.wait_for_function("document.getElementById('chart').naturalWidth > 0")
    box = chart.bounding_box()
    assert box is not None and box["width"] >= 640, box
    assert page.locator(".chart").evaluate("f => f.scrollWidth > f.clientWidth")
    fits(page)
    src = chart.get_attribute("src")
    expect(page.locator("#chart-link")).to_have_attribute("href", src or "")
    page.locator("#chart-link").click()
    expect(page).to_have_url(re.compile(r"/bench/chart\.svg\?"))
    context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_how_to_page_leads_on_to_a_game(browser: Browser, base: str, size: str) -> None:
    context = open_context(browser, viewport=SIZES[size], java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{base}/about")
    fits(page)
    page.locator("#about-play").click()
    expect(page).to_have_url(f"{base}/new/play")
    page.goto(f"{base}/about")
    page.get_by_role("link", name="The daily puzzle").click()
    expect(page).to_have_url(f"{base}/daily")
    context.close()


#: The height of the tree file's label's text, up to its box, in its lines' height.
LABEL_LINES = """() => { const label = document.querySelector("#upload label");
  const range = document.createRange();
  range.setStartBefore(label.firstChild); range.setEndBefore(label.querySelector("input"));
  return range.getBoundingClientRect().height / parseFloat(getComputedStyle(label).lineHeight); }"""


def test_the_tree_files_label_reads_as_one_line_on_a_laptop(browser: Browser, base: str) -> None:
    """The label's words and its command were each a line of their own (the form's label is a
    column of flex items): one sentence, on one line where there is room."""
    context = open_context(browser, viewport=SIZES["wide"], java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{base}/tree")
    assert page.evaluate(LABEL_LINES) < 1.5
    context.close()


@pytest.mark.parametrize("script", ["script", "no-script"])
def test_a_refused_new_game_keeps_what_was_chosen(browser: Browser, base: str, script: str) -> None:
    """A custom variant too large for the web is refused in one line; the form comes back as
    it was sent (the custom box open, its length, the options), to be corrected, not retyped."""
    context = open_context(browser, viewport=PHONE, java_script_enabled=script == "script")
    page = context.new_page()
    page.goto(f"{base}/new/play")
    page.locator("#rules").select_option("bc-1to9")
    page.locator("details:has(input[name=length]) summary").click()
    page.locator("input[name=length]").fill("9")
    page.locator("#limit").select_option("7")
    page.locator("input[name=hard]").check()
    page.locator("input[name=hints]").uncheck()
    page.locator("#start").click()
    expect(page.locator(".error")).to_contain_text("has 362,880 codes")
    expect(page.locator("input[name=length]")).to_be_visible()  # the custom box is open
    expect(page.locator("input[name=length]")).to_have_value("9")
    expect(page.locator("#rules")).to_have_value("bc-1to9")
    expect(page.locator("#limit")).to_have_value("7")
    expect(page.locator("input[name=hard]")).to_be_checked()
    expect(page.locator("input[name=hints]")).not_to_be_checked()
    page.locator("input[name=length]").fill("3")  # corrected: the game starts
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/game/"))
    expect(page.locator(".variant")).to_contain_text("hard mode")
    expect(page.locator(".variant")).to_contain_text("7 guesses")
    context.close()
