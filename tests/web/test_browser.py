"""Real-browser tests: Playwright drives Debian's chromium against ``bullscows serve`` started
on 127.0.0.1 and a free port (stopped by the test). Without chromium they fail, saying how to
install it: a browser test that cannot run is not a pass.

Each test here runs at a phone's size (390x844) and a laptop's (1280x800) with script on;
``test_games`` plays every mode to its end at both sizes with script on and off, and
``test_phone`` checks every page's width and targets and runs axe-core on each."""

from __future__ import annotations

import gzip
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Locator,
    Page,
    expect,
    sync_playwright,
)

from bullscows import Code, Feedback, Rules, score
from bullscows.outcomes import build_tree
from bullscows.sessions import HIDDEN, Codebreaker
from bullscows.sessions.making import CHALLENGE_TITLE
from bullscows.sessions.outcomes import GIVE_UP_HIDES, GIVE_UP_SHOWS
from bullscows.strategies import get_strategy

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
ROWS = ".board .row[data-step]"
PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1280, "height": 800}
SIZES = {"phone": PHONE, "wide": WIDE}
#: The longest wait of an action, an assertion or a poll (ms): long on a loaded machine.
WAIT_MS = 120_000
#: Controls smaller than this (CSS px) fail; links inside a sentence are exempt (WCAG 2.5.8).
TARGET = 44


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("browser")
    with server(f"sqlite:///{folder / 'games.sqlite3'}") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.fail(
            f"the browser tests need Debian's chromium at {CHROMIUM}: "
            "apt-get install chromium (.ci/run installs it where it is missing)"
        )
    # Assertions wait as long as actions (``open_context``), not Playwright's 5 s: a loaded
    # machine may take longer to answer a click
    expect.set_options(timeout=WAIT_MS)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


def open_context(browser: Browser, **options: Any) -> BrowserContext:
    """A fresh profile (its own storage); ``bypass_csp`` lets tests evaluate their checks."""
    made = browser.new_context(bypass_csp=True, **{"viewport": WIDE, **options})
    made.set_default_timeout(WAIT_MS)
    return made


@pytest.fixture(params=list(SIZES))
def context(browser: Browser, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    """A fresh profile at each size, script on."""
    made = open_context(browser, viewport=SIZES[request.param])
    yield made
    made.close()


def too_small(page: Page) -> list[str]:
    """The visible controls smaller than a thumb, outside running text."""
    found: list[str] = page.evaluate(
        """limit => [...document.querySelectorAll('button, select, input, summary, a, textarea')]
        .filter(e => e.offsetParent !== null && !e.closest('p, li.row, td, .candidates'))
        .map(e => e.closest('label') || e)  // a box's target is its whole label
        .filter(e => { const r = e.getBoundingClientRect();
                       return r.width > 0 && (r.height < limit - 0.5 || r.width < limit - 0.5); })
        .map(e => e.outerHTML.slice(0, 80))""",
        TARGET,
    )
    return found


def posted(page: Page, button: Locator) -> None:
    """Click ``button`` of a form that posts the ordinary way (no script, or a file): the
    page it leads to must not be an error (a refused post was a raw 403)."""
    with page.expect_navigation() as went:
        button.click()
    answer = went.value
    assert answer is not None and answer.status < 400, (answer, page.content()[:300])


def fits(page: Page) -> None:
    """The page does not scroll sideways, every control is a thumb's size, and no reply
    written beside its pegs is cut off."""
    page.wait_for_load_state("load")  # its style sheet applied
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= page.viewport_size["width"], (page.url, width)  # type: ignore[index]
    assert not too_small(page), (page.url, too_small(page))
    clipped = page.locator(".reply-text").evaluate_all(
        "ts => ts.filter(t => t.offsetParent !== null && t.scrollWidth > t.clientWidth + 1)"
        ".map(t => t.textContent)"
    )
    assert not clipped, (page.url, clipped)


def start_game(page: Page, base: str, mode: str, rules: str = "bc") -> None:
    """Open the new-game form and start a game with the keyboard alone."""
    page.goto(f"{base}/new/{mode}")
    if rules != "bc":
        page.locator("#rules").select_option(rules)
        page.locator("#start").focus()
    expect(page.locator("#start")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/game/*")


def rows(page: Page) -> int:
    return page.locator(ROWS).count()


def last_reply(page: Page) -> Feedback:
    return Feedback.parse(page.locator(f"{ROWS} .reply-text").last.text_content() or "", BC)


def test_play_a_game_to_the_end_by_keyboard(context: BrowserContext, base: str) -> None:
    page = context.new_page()
    start_game(page, base, "play")
    solver = Codebreaker(BC, "minimax")
    for number in range(1, 12):
        expect(page.locator("#say")).to_be_focused()
        page.keyboard.type(solver.suggest().text)
        page.keyboard.press("Enter")
        expect(page.locator(ROWS)).to_have_count(number)
        reply = last_reply(page)
        expect(page.locator("#status")).to_contain_text(reply.format("words"))  # read out
        if reply.is_win(BC.length):
            break
        solver.reply(reply)
    result = page.locator("#result")
    expect(result).to_contain_text("You broke it in")
    assert solver.suggest().text in result.inner_text().replace("\n", "")
    assert page.locator(".peg.bull").first.inner_text() == "B"  # a letter on every peg
    expect(page.locator("#grid")).to_have_value(re.compile(r"bullscows bc: broken in \d"))
    grid = page.locator("#grid")  # the share box shows every row, the winning one included
    assert grid.evaluate("box => box.scrollHeight <= box.clientHeight + 1")
    assert grid.evaluate("box => box.scrollWidth <= box.clientWidth + 1")
    fits(page)
    page.locator("#again").click()  # play again: a new game of the same variant
    page.wait_for_url(re.compile(r"/game/"))
    expect(page.locator(ROWS)).to_have_count(0)
    page.goto(f"{base}/record")  # the browser kept the game; the library counted it
    section = page.locator('.variant-record[data-rules="bc"]')
    expect(section).to_contain_text("1 played, 1 won")
    expect(section.locator('[data-stat="streak"] b')).to_have_text("1")
    expect(section.locator('[data-stat="win %"] b')).to_have_text("100")
    expect(page.locator(".variant-record svg rect")).to_have_count(1)
    page.locator("#theme").select_option("contrast")
    page.reload()
    assert page.evaluate("document.documentElement.dataset.theme") == "contrast"


def test_the_keypad_types_and_shows_what_is_known(context: BrowserContext, base: str) -> None:
    page = context.new_page()
    for _ in range(5):  # 0123 may be the server's secret (1 in 5,040): no keypad after it
        start_game(page, base, "play")
        for symbol in "0124":
            page.locator(f'.keypad .key[data-symbol="{symbol}"]').click()
        page.locator('.keypad .key[data-key="back"]').click()
        page.locator('.keypad .key[data-symbol="3"]').click()
        expect(page.locator("#say")).to_have_value("0123")
        expect(page.locator("#typed .tile").nth(3)).to_have_text("3")  # the row being typed
        page.locator('.keypad .key[data-key="enter"]').click()
        expect(page.locator(ROWS)).to_have_count(1)
        if not page.locator("#result").count():
            break
    reply = last_reply(page)
    keys = page.locator(".keypad .key[data-symbol]")
    states = dict(keys.evaluate_all("ks => ks.map(k => [k.dataset.symbol, k.className])"))
    if reply.bulls + reply.cows == 0:
        assert all("k-out" in states[s] for s in "0123")
    if reply.bulls + reply.cows == 4:
        assert all("k-in" in states[s] or "k-placed" in states[s] for s in "0123")
        assert all("k-out" in states[s] for s in "456789")
    out = page.locator(".keypad .key.k-out")
    if out.count():  # a ruled-out key says so in words too, not by colour alone
        assert "ruled out" in (out.first.get_attribute("aria-label") or "")


def test_give_up_asks_first_and_ends_the_game(context: BrowserContext, base: str) -> None:
    page = context.new_page()
    start_game(page, base, "play")
    expect(page.locator("#give-up")).to_be_hidden()
    page.get_by_text("Give up…").click()
    expect(page.locator("#give-up")).to_be_visible()
    expect(page.locator("#give-up")).to_have_text(GIVE_UP_HIDES)  # not "and show the code"
    assert not page.locator("#result").count()  # opening the question ends nothing
    page.locator("#give-up").click()
    expect(page.locator("#result")).to_contain_text(HIDDEN)  # before a guess: costs nothing
    expect(page.locator("#again")).to_be_visible()
    expect(page.locator("#not-counted")).to_be_visible()  # it does not count: nothing to share
    assert not page.locator("#copy-grid").count() and not page.locator("#grid").count()


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
        guess = Code(page.locator("#guess").inner_text().replace("\n", ""), BC)
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
        expect(page.locator(ROWS)).to_have_count(number)
    expect(page.locator(".contradiction")).to_contain_text("contradict each other")
    first_guess = Code(page.locator(ROWS).nth(slip_at - 1).locator(".code").inner_text()
                       .replace("\n", ""), BC)  # fmt: skip
    fix = page.locator(
        f'button.fix[data-fix="{slip_at}:{score(first_guess, secret).format("pair")}"]'
    )
    fix.click()
    expect(page.locator(".contradiction")).to_have_count(0)
    expect(page.locator("#guess")).to_be_visible()
    while not page.locator("#result").count():
        count = rows(page)
        guess = Code(page.locator("#guess").inner_text().replace("\n", ""), BC)
        page.locator(f'button.choice[data-reply="{score(guess, secret).format("pair")}"]').click()
        expect(page.locator(ROWS)).to_have_count(count + 1)
        assert count < 12
    expect(page.locator("#result")).to_contain_text("2745")
    fits(page)


def test_a_double_click_on_a_reply_records_it_once(context: BrowserContext, base: str) -> None:
    page = context.new_page()
    start_game(page, base, "solve")
    choice = page.locator("button.choice").first
    choice.dblclick()
    expect(page.locator(ROWS)).to_have_count(1)
    page.wait_for_load_state("networkidle")
    page.reload()
    expect(page.locator(ROWS)).to_have_count(1)  # the server has one move, not two


def test_buttons_wait_while_a_move_is_sent(context: BrowserContext, base: str) -> None:
    page = context.new_page()
    start_game(page, base, "solve")
    held: list[Any] = []
    page.route(f"{base}/game/*", lambda route: held.append(route)
               if route.request.method == "POST" else route.continue_())  # fmt: skip
    page.locator("button.choice").first.click()
    expect(page.locator("main")).to_have_attribute("aria-busy", "true")
    expect(page.locator("button.choice").first).to_be_disabled()
    for _ in range(WAIT_MS // 50):  # the request reaches the route a moment after the click
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1
    held[0].continue_()
    expect(page.locator(ROWS)).to_have_count(1)
    expect(page.locator("main")).not_to_have_attribute("aria-busy", "true")


def test_walk_the_optimal_bc_tree_to_a_leaf(context: BrowserContext, base: str) -> None:
    page = context.new_page()
    page.goto(base)
    expect(page.locator("#howto p").first).to_be_visible()  # the first visit shows how to play
    page.reload()
    expect(page.locator("#howto p").first).to_be_hidden()  # then one line, closed
    expect(page.locator("#howto summary")).to_be_visible()
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
    fits(page)


#: A reply in words: "0 bulls, 1 cow".
WORDS = re.compile(r"\d bulls?, \d cows?")


def read_once(tree: str, least: int) -> None:
    """Each line of the accessibility ``tree`` (``aria_snapshot``), an element and its name,
    says a reply at most once, and at least ``least`` lines say one."""
    said = [len(WORDS.findall(line)) for line in tree.splitlines()]
    assert max(said, default=0) == 1 and said.count(1) >= least, tree


def test_a_reply_is_read_once(context: BrowserContext, base: str) -> None:
    """Screen readers read a reply once: a tree's rows and the replies' buttons hide their
    pegs (decoration beside the words) from them; the board's rows label their pegs (the
    words give way to the tiles on a phone) and hide the words instead."""
    page = context.new_page()
    page.goto(f"{base}/tree")
    page.get_by_role("link", name="bc--optimal", exact=True).click()
    expect(page.locator("table.replies tbody tr")).to_have_count(14)
    # Each row, its cell and its link (the win's row has none) name the reply once.
    read_once(page.locator("table.replies tbody").aria_snapshot(), 14 * 3 - 1)
    hidden = page.locator("table.replies .pegs[aria-hidden='true']")
    expect(hidden).to_have_count(14)
    start_game(page, base, "solve")
    expect(page.locator("button.choice")).to_have_count(14)
    read_once(page.locator(".choices").aria_snapshot(), 14)
    expect(page.locator("button.choice .pegs[aria-hidden='true']")).to_have_count(14)
    page.locator("button.choice").first.click()
    expect(page.locator(ROWS)).to_have_count(1)
    read_once(page.locator(".board").first.aria_snapshot(), 1)
    expect(page.locator(f"{ROWS} .pegs[role='img']")).to_have_attribute("aria-label", WORDS)


def test_every_shipped_tree_opens_from_the_list(context: BrowserContext, base: str) -> None:
    page = context.new_page()
    page.goto(f"{base}/tree")
    names = page.locator('a[href^="/tree?src=shipped"]').all_inner_texts()
    assert len(names) == 13  # digits--optimal among them
    for name in names:
        page.goto(f"{base}/tree")
        with page.expect_navigation() as went:
            page.get_by_role("link", name=name, exact=True).click()
        assert went.value is not None and went.value.status == 200, (name, went.value)
        expect(page.locator("#node-guess")).to_be_visible()
    assert "bc:guesses=digits--optimal" in names  # names as written, not percent-encoded


def upload_file(tmp_path: Path) -> Path:
    tree = build_tree(Rules.parse("p3c4n"), get_strategy("entropy"))
    path = tmp_path / "tree.json.gz"
    path.write_bytes(gzip.compress(tree.to_json().encode()))
    return path


def test_upload_a_tree_file(context: BrowserContext, base: str, tmp_path: Path) -> None:
    page = context.new_page()
    page.goto(f"{base}/tree")
    page.locator('input[type="file"]').set_input_files(upload_file(tmp_path))
    posted(page, page.locator('form:has(input[type="file"]) button[type="submit"]'))
    expect(page.locator("#node-guess")).to_be_visible()
    expect(page.locator(".variant")).to_contain_text("p3c4n")


def test_run_a_small_bench_and_see_the_chart(context: BrowserContext, base: str) -> None:
    page = context.new_page()
    page.goto(f"{base}/bench")
    page.locator("#bench-rules").fill("mm")
    page.locator("#run-bench").click()
    expect(page.locator("#bench-table")).to_contain_text("5,801")
    chart = page.locator("#chart")
    expect(chart).to_be_visible()
    page.wait_for_function("document.getElementById('chart').naturalWidth > 0")
    fits(page)
    assert page.locator("#json").get_attribute("href").endswith("format=json")  # type: ignore[union-attr]


@pytest.mark.parametrize("size", list(SIZES))
def test_a_challenge_explains_the_game_to_a_friend(browser: Browser, base: str, size: str) -> None:
    me = open_context(browser, viewport=SIZES[size])
    page = me.new_page()
    start_game(page, base, "play")
    page.locator("#say").fill("0123")  # given up at once, a game is no challenge
    page.locator("#send").click()
    expect(page.locator(ROWS)).to_have_count(1)
    page.get_by_text("Give up…").click()
    expect(page.locator("#give-up")).to_have_text(GIVE_UP_SHOWS)  # after a guess, it is shown
    page.locator("#give-up").click()
    expect(page.locator("#copy-grid")).to_be_visible()  # a game that counts has a result
    page.locator("#challenge").click()
    link = page.locator("#challenge-link").get_attribute("href")
    me.close()
    friend = open_context(browser, viewport=SIZES[size])  # no record, no how-to seen
    page = friend.new_page()
    page.goto(f"{base}{link}")
    expect(page.locator("main")).to_contain_text("bull")
    expect(page.locator("main")).to_contain_text("4 distinct symbols of 0-9")
    page.locator("#accept").click()
    page.wait_for_url(re.compile(r"/game/"))
    expect(page.locator("#say")).to_be_visible()
    expect(page.locator("h1")).to_have_text(CHALLENGE_TITLE)  # not "break the computer's code"
    fits(page)
    friend.close()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_replies_are_revealed_peg_by_peg_unless_motion_is_reduced(
    browser: Browser, base: str, motion: str, size: str
) -> None:
    made = open_context(browser, viewport=SIZES[size], reduced_motion=motion)
    page = made.new_page()
    start_game(page, base, "play")
    page.locator("#say").fill("0123")
    page.keyboard.press("Enter")
    expect(page.locator(ROWS)).to_have_count(1)
    names = page.locator(".row.newest .peg").evaluate_all(
        "pegs => pegs.map(p => getComputedStyle(p).animationName)"
    )
    delays = page.locator(".row.newest .peg").evaluate_all(
        "pegs => pegs.map(p => getComputedStyle(p).animationDelay)"
    )
    if motion == "reduce":
        assert set(names) == {"none"}
    else:
        assert set(names) == {"reveal"}
        assert len(set(delays)) == len(delays)  # one after another
    made.close()
