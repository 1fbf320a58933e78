"""Real-browser tests: Playwright drives Debian's chromium against ``bullscows serve`` started
on 127.0.0.1 and a free port (stopped by the test). Without chromium they fail, saying how to
install it: a browser test that cannot run is not a pass."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect, sync_playwright

from bullscows import Code, Feedback, Rules, score
from bullscows.sessions import Codebreaker

from .conftest import server

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
BC = Rules.parse("bc")


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    with server(f"sqlite:///{tmp_path / 'games.sqlite3'}") as url:
        yield url


@pytest.fixture
def context(tmp_path: Path) -> Iterator[BrowserContext]:
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.fail(
            f"the browser tests need Debian's chromium at {CHROMIUM}: "
            "apt-get install chromium (.ci/run installs it where it is missing)"
        )
    with sync_playwright() as playwright:
        browser_context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=ARGS
        )
        browser_context.set_default_timeout(30_000)
        try:
            yield browser_context
        finally:
            browser_context.close()


def start_game(page: Page, base: str, mode: str) -> None:
    """Open the new-game form and start the default game with the keyboard alone."""
    page.goto(f"{base}/new/{mode}")
    expect(page.locator("#start")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/game/*")


def rows(page: Page) -> int:
    return page.locator("table.board tbody tr").count()


def test_play_a_game_to_the_end_by_keyboard(context: BrowserContext, base: str) -> None:
    page = context.new_page()
    start_game(page, base, "play")
    solver = Codebreaker(BC, "minimax")
    for number in range(1, 12):
        expect(page.locator("#say")).to_be_focused()
        page.keyboard.type(solver.suggest().text)
        page.keyboard.press("Enter")
        expect(page.locator("table.board tbody tr")).to_have_count(number)
        text = page.locator("table.board tbody tr").last.locator(".reply-text").inner_text()
        reply = Feedback.parse(text, BC)
        expect(page.locator("#status")).to_contain_text(text)  # read out to screen readers
        if reply.is_win(BC.length):
            break
        solver.reply(reply)
    result = page.locator("#result")
    expect(result).to_contain_text("You broke it in")
    assert solver.suggest().text in result.inner_text()
    assert page.locator(".peg.bull").first.inner_text() == "B"  # a letter on every peg
    expect(page.locator("#grid")).to_have_value(re.compile(r"bullscows bc: broken in \d"))
    page.goto(f"{base}/record")  # the browser kept the game
    expect(page.locator('.variant-record[data-rules="bc"]')).to_contain_text("1 played, 1 won")
    expect(page.locator(".variant-record svg rect")).to_have_count(1)
    page.locator("#theme").select_option("contrast")
    page.reload()
    assert page.evaluate("document.documentElement.dataset.theme") == "contrast"


def test_solve_by_clicking_replies_with_a_contradiction_fixed(
    context: BrowserContext, base: str
) -> None:
    page = context.new_page()
    start_game(page, base, "solve")
    secret = Code("2745", BC)
    slip_at, slipped = 2, ""
    for number in range(1, 15):
        if page.locator(".contradiction").count():
            break
        guess = Code(page.locator("#guess").inner_text(), BC)
        true = score(guess, secret).format("pair")
        if number == slip_at:
            offered = page.locator("button.choice").evaluate_all(
                "buttons => buttons.map(b => b.dataset.reply)"
            )
            slipped = next(reply for reply in offered if reply != true)
            page.locator(f'button.choice[data-reply="{slipped}"]').click()
        elif page.locator(f'button.choice[data-reply="{true}"]').count():
            page.locator(f'button.choice[data-reply="{true}"]').click()
        else:  # not offered: the replies so far rule it out; typed, as the terminal takes it
            page.locator("#say").fill(true)
            page.keyboard.press("Enter")
        expect(page.locator("table.board tbody tr")).to_have_count(number)
    expect(page.locator(".contradiction")).to_contain_text("contradict each other")
    first_guess = Code(page.locator("table.board tbody tr").nth(slip_at - 1)
                       .locator(".code").inner_text(), BC)  # fmt: skip
    fix = page.locator(
        f'button.fix[data-fix="{slip_at}:{score(first_guess, secret).format("pair")}"]'
    )
    fix.click()
    expect(page.locator(".contradiction")).to_have_count(0)
    expect(page.locator("#guess")).to_be_visible()
    while not page.locator("#result").count():
        count = rows(page)
        guess = Code(page.locator("#guess").inner_text(), BC)
        page.locator(f'button.choice[data-reply="{score(guess, secret).format("pair")}"]').click()
        expect(page.locator("table.board tbody tr")).to_have_count(count + 1)
        assert count < 12
    expect(page.locator("#result")).to_contain_text("2745")


def test_walk_the_optimal_bc_tree_to_a_leaf(context: BrowserContext, base: str) -> None:
    page = context.new_page()
    page.goto(base)
    expect(page.locator("#howto")).to_be_visible()  # the first visit shows how to play
    page.reload()
    expect(page.locator("#howto")).to_be_hidden()
    page.goto(f"{base}/tree")
    page.get_by_role("link", name="bc--optimal", exact=True).click()
    expect(page.locator("#node-guess")).to_have_text("0123")
    for level in range(2, 10):
        if page.locator("#leaf").count():
            break
        page.locator("a.branch").last.click()
        expect(page.locator(".node h2")).to_contain_text(f"Guess {level}:")
    expect(page.locator("#leaf")).to_contain_text("A leaf")
    leaf = page.url
    page.locator(".crumbs a").first.click()
    expect(page.locator("#node-guess")).to_have_text("0123")
    page.goto(leaf)  # the permalink leads back to the same node
    expect(page.locator("#leaf")).to_be_visible()


def test_run_a_small_bench_and_see_the_chart(context: BrowserContext, base: str) -> None:
    page = context.new_page()
    page.goto(f"{base}/bench")
    page.locator("#bench-rules").fill("mm")
    page.locator("#run-bench").click()
    expect(page.locator("#bench-table")).to_contain_text("5,801")
    chart = page.locator("#chart")
    expect(chart).to_be_visible()
    page.wait_for_function("document.getElementById('chart').naturalWidth > 0")
    assert page.locator("#json").get_attribute("href").endswith("format=json")  # type: ignore[union-attr]
