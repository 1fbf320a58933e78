"""Every page at a phone's size (390x844) and a laptop's (1280x800), with script off and on:
nothing scrolls sideways, every control is a 44 px target, each mode plays without script,
and axe-core finds no serious or critical violation in any theme."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page, expect

from bullscows import Rules
from bullscows.sessions import Codebreaker

from .test_browser import (
    PHONE,
    ROWS,
    SIZES,
    base,
    browser,
    fits,
    last_reply,
    open_context,
    posted,
    upload_file,
)

__all__ = ["base", "browser"]  # fixtures, shared with the other browser tests
BC = Rules.parse("bc")
THEMES = ("light", "dark", "contrast")


def game_pages(page: Page, base: str) -> dict[str, str]:
    """A game of each mode in an interesting state, made through the pages: name -> URL."""
    made: dict[str, str] = {}
    for mode, lines in (("play", ["0123", "4567"]), ("solve", ["1 1"]), ("duel", ["0123"]),
                        ("assist", ["0123 1 1"])):  # fmt: skip
        for _ in range(5):  # a guess may be the server's secret (1 in 5,040): another game
            page.goto(f"{base}/new/{mode}")
            page.locator("#start").click()
            page.wait_for_url(re.compile(r"/game/"))
            for number, line in enumerate(lines, 1):
                page.locator("#say").fill(line)
                page.locator("#say").press("Enter")
                page.locator(ROWS).nth(number - 1).wait_for()  # this line's answer
                if page.locator("#result").count():
                    break
            else:
                break
        made[mode] = page.url
    made["analysis"] = made["play"] + "/analysis"
    page.goto(f"{base}/new/duel")  # Mastermind: replies as black and white pegs
    page.locator("#rules").select_option("mm")
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/game/"))
    page.locator("#say").fill("1122")
    page.locator("#say").press("Enter")
    page.wait_for_selector("button.choice")
    made["duel-mm"] = page.url
    page.goto(f"{base}/daily")
    page.locator("#daily-mm-colours").click()
    page.wait_for_url(re.compile(r"/game/"))
    made["daily-game"] = page.url
    page.goto(f"{base}/new/play")
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/game/"))
    page.locator("#say").fill("0123")  # given up at once, its secret would stay hidden
    page.locator("#send").click()
    expect(page.locator(ROWS)).to_have_count(1)
    page.locator("details.confirm summary").click()
    page.locator("#give-up").click()
    page.wait_for_selector("#result")
    made["over"] = page.url
    page.locator("#challenge").click()
    made["challenge"] = base + (page.locator("#challenge-link").get_attribute("href") or "")
    return made


@pytest.fixture(scope="module")
def pages(browser: Browser, base: str) -> Iterator[dict[str, str]]:
    context = open_context(browser)
    page = context.new_page()
    every = {
        "home": base + "/", "new": base + "/new/play", "about": base + "/about",
        "record": base + "/record", "trees": base + "/tree",
        "tree": base + "/tree?src=shipped:bc--optimal&at=0 1",
        "bench": base + "/bench?rules=p3c6n&strategy=minimax&strategy=entropy",
        "error": base + "/game/nothing-here", "no-page": base + "/no/such/page",
        "daily": base + "/daily",
        "card": base + "/card?rules=mm", **game_pages(page, base),
    }  # fmt: skip
    context.close()
    yield every


#: How many boxes (lines) each piece of the page's title takes: ``piece`` -> client rects.
LINES_OF = """piece => { const h1 = document.querySelector("h1");
  const at = h1.textContent.indexOf(piece), range = document.createRange();
  const walker = document.createTreeWalker(h1, NodeFilter.SHOW_TEXT);
  let seen = 0, start = null, end = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const next = seen + node.length;
    if (!start && at < next) { start = [node, at - seen]; }
    if (!end && at + piece.length <= next) { end = [node, at + piece.length - seen]; }
    seen = next;
  }
  range.setStart(...start); range.setEnd(...end);
  return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; }"""


@pytest.mark.parametrize("name", ["bc--optimal", "mm-colours--optimal-worst"])
def test_a_trees_name_stays_on_one_line_on_a_phone(browser: Browser, base: str, name: str) -> None:
    context = open_context(browser, viewport=PHONE)
    page = context.new_page()
    page.goto(f"{base}/tree?src=shipped:{name}")
    expect(page.locator("h1")).to_contain_text(name)
    assert page.evaluate(LINES_OF, name) == 1, page.locator("h1").inner_text()
    assert page.locator("h1").inner_text().startswith("The shipped tree")  # a capital, as drawn
    assert page.evaluate(LINES_OF, "the shipped tree") == 1
    fits(page)
    context.close()


@pytest.mark.parametrize("script", ["script", "no-script"])
def test_the_game_is_on_a_phones_first_screen(browser: Browser, base: str, script: str) -> None:
    """The how-to, open on the first visit only, leaves the modes on the first screen; once
    the browser has played it is one line and the game's modes come first."""
    context = open_context(browser, viewport=PHONE, java_script_enabled=script == "script")
    page = context.new_page()
    page.goto(base)
    expect(page.locator("#howto p").first).to_be_visible()
    expect(page.locator("#play-link")).to_be_in_viewport(ratio=1)
    page.goto(f"{base}/new/play")
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/game/"))
    page.goto(base)
    expect(page.locator("#howto p").first).to_be_hidden()
    howto = page.locator("#howto summary").bounding_box()
    assert howto is not None and howto["height"] < 60, howto  # one line
    for link in ("#play-link", "#daily-link", 'a[href="/new/solve"]', 'a[href="/new/duel"]'):
        expect(page.locator(f"main {link}")).to_be_in_viewport(ratio=1)
    page.locator("#howto summary").click()  # still there, a tap away
    expect(page.locator("#howto p").first).to_be_visible()
    context.close()


#: The background and text colours of the menu's entries: ``selector`` -> [[href, bg, fg]].
COLOURS = """sel => [...document.querySelectorAll(sel)].map(a => { const s = getComputedStyle(a);
  return [a.getAttribute("href"), s.backgroundColor, s.color]; })"""


@pytest.mark.parametrize("size", list(SIZES))
def test_the_menu_shows_which_page_is_open(browser: Browser, base: str, size: str) -> None:
    context = open_context(browser, viewport=SIZES[size], java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{base}/tree")
    if size == "phone":
        page.locator(".menu summary").click()
    nav = ".menu nav a" if size == "phone" else ".wide-nav a"
    current = page.locator(f'{nav}[aria-current="page"]')
    expect(current).to_have_count(1)
    expect(current).to_have_text("Trees")
    entries = page.evaluate(COLOURS, nav)
    marked = [entry[1:] for entry in entries if entry[0] == "/tree"]
    others = {tuple(entry[1:]) for entry in entries if entry[0] != "/tree"}
    assert len(others) == 1 and tuple(marked[0]) not in others, entries  # it looks different
    context.close()


@pytest.mark.parametrize("script", ["script", "no-script"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_first_tab_skips_the_menu(browser: Browser, base: str, size: str, script: str) -> None:
    """The keyboard's first stop is a link past the menu, shown while focused; after it the
    next stop is the page's own first link (here a shipped tree's)."""
    context = open_context(browser, viewport=SIZES[size], java_script_enabled=script == "script")
    page = context.new_page()
    page.goto(f"{base}/tree")
    skip = page.locator("a.skip")
    expect(skip).not_to_be_in_viewport()
    page.keyboard.press("Tab")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport(ratio=1)
    box = skip.bounding_box()
    assert box is not None and box["height"] >= 44, box
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('main') !== null"), page.evaluate(
        "document.activeElement.outerHTML"
    )
    context.close()


@pytest.mark.parametrize("script", ["script", "no-script"])
@pytest.mark.parametrize("mode", ["solve", "duel"])
def test_reply_buttons_open_with_the_board_and_the_question_in_view(
    browser: Browser, base: str, mode: str, script: str
) -> None:
    """Where the replies are buttons, a phone's page opens at the board, the guess and the
    buttons, not scrolled down to the box under them (which script focuses unscrolled)."""
    context = open_context(browser, viewport=PHONE, java_script_enabled=script == "script")
    page = context.new_page()
    page.goto(f"{base}/new/{mode}")
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/game/"))
    page.locator("#say").fill("1 1" if mode == "solve" else "0123")
    page.locator("#say").press("Enter")
    page.locator(ROWS).first.wait_for()
    page.goto(page.url)  # the page as it opens
    page.wait_for_load_state("load")
    expect(page.locator(ROWS).first).to_be_in_viewport(ratio=1)
    expect(page.locator("#guess")).to_be_in_viewport(ratio=1)
    expect(page.locator("button.choice").first).to_be_in_viewport(ratio=1)
    context.close()


#: What marks each visible box that opens (its summary's ``::before``): [[text, marker]].
MARKERS = """() => [...document.querySelectorAll("main details > summary")]
  .filter(s => s.offsetParent !== null && !s.closest(".confirm"))
  .map(s => [s.textContent.trim(), getComputedStyle(s, "::before").content,
             getComputedStyle(s).display])"""


@pytest.mark.parametrize("path", ["/", "/new/play"])
def test_a_box_that_opens_shows_a_triangle(browser: Browser, base: str, path: str) -> None:
    """A summary styled as a flex box loses the browser's triangle: ours stands in for it,
    turning down when the box is open."""
    context = open_context(browser, viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(base + path)
    markers = page.evaluate(MARKERS)
    assert markers and all(m[1] in ('"▸"', '"▾"') for m in markers), markers
    page.locator("main details > summary").first.click()
    assert page.evaluate(MARKERS)[0][1] != markers[0][1]
    context.close()


#: The vertical middle of each cell's text in the tree's first reply row: [y, ...].
MIDDLES = """() => [...document.querySelector("table.replies tbody tr").cells].map(cell => {
  const range = document.createRange(); range.selectNodeContents(cell);
  const box = [...range.getClientRects()].find(r => r.height > 0);
  return box.top + box.height / 2; })"""


def test_a_tree_rows_figures_stand_on_the_line_of_its_link(browser: Browser, base: str) -> None:
    context = open_context(browser, viewport=SIZES["wide"], java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{base}/tree?src=shipped:bc--optimal")
    middles = page.evaluate(MIDDLES)
    assert len(middles) == 4 and max(middles) - min(middles) < 4, middles
    context.close()


#: The height of each reply row of the tree's node (CSS px).
ROW_HEIGHTS = """() => [...document.querySelectorAll("table.replies tbody tr")]
  .map(row => Math.round(row.getBoundingClientRect().height))"""


def test_a_trees_node_reads_at_a_glance_on_a_phone(browser: Browser, base: str) -> None:
    """The root of bc--optimal on a phone, without script: each of its 14 replies one short
    row (pegs and words, secrets as 1,440, the next guess in tiles), the whole node within two
    screens (it took three as a card per reply), and a row leads to its node from any cell."""
    context = open_context(browser, viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{base}/tree?src=shipped:bc--optimal")
    fits(page)
    expect(page.locator("#node-guess .tile")).to_have_text(list("0123"))
    rows = page.locator("table.replies tbody tr")
    expect(rows).to_have_count(14)
    expect(rows.locator(".pegs")).to_have_count(14)
    expect(rows.locator(".tiles")).to_have_count(13)  # the win's row: found, no next guess
    expect(rows.nth(1)).to_contain_text("1,440")
    assert max(page.evaluate(ROW_HEIGHTS)) <= 56, page.evaluate(ROW_HEIGHTS)
    height = page.evaluate("document.scrollingElement.scrollHeight")
    assert height <= 2 * PHONE["height"], height
    # A click on the secrets of "0 bulls, 1 cow" lands on its link, stretched over the row
    rows.nth(1).locator("td").nth(1).click(force=True)
    expect(page.locator(".node h2")).to_contain_text("Guess 2:")
    expect(page.locator("#node-guess")).to_have_text("1456")
    context.close()


def test_back_after_a_swapped_page_shows_the_page_before(browser: Browser, base: str) -> None:
    """With script a form's answer replaces the page in place; the back button still leads to
    the page before, and a link within the page (the skip link) reloads nothing."""
    context = open_context(browser, viewport=PHONE)
    page = context.new_page()
    page.goto(f"{base}/new/play")
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/game/"))
    expect(page.locator("#say")).to_be_visible()
    page.locator("#say").fill("0123")  # typed, not sent: a reload would empty the box
    page.goto(page.url + "#main")
    expect(page.locator("#say")).to_have_value("0123")
    page.go_back()
    page.go_back()
    expect(page).to_have_url(f"{base}/new/play")
    expect(page.locator("#start")).to_be_visible()
    context.close()


@pytest.mark.parametrize("script", ["script", "no-script"])
@pytest.mark.parametrize("size", list(SIZES))
def test_no_page_scrolls_sideways_and_targets_are_big(
    browser: Browser, pages: dict[str, str], size: str, script: str
) -> None:
    context = open_context(browser, viewport=SIZES[size], java_script_enabled=script == "script")
    page = context.new_page()
    for name, url in pages.items():
        page.goto(url)
        fits(page)
        if size == "phone":
            page.locator(".menu summary").click()  # the menu opens and fits too
            expect(page.locator(".menu nav a").first).to_be_visible()
            assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"], name
    context.close()


@pytest.mark.parametrize("width", [1280, 1024, 800, 700])
def test_an_analysis_reads_whole_at_every_width(
    browser: Browser, pages: dict[str, str], width: int
) -> None:
    """A game's analysis (ten columns, the last a sentence) never scrolls sideways: a table
    where the page widens enough to give the sentence room, else a card per move; its
    sentence is never squeezed to a word a line (it was 85 px wide, and the page scrolled
    sideways from 641 to 916 px)."""
    context = open_context(browser, viewport={"width": width, "height": 800})
    page = context.new_page()
    page.goto(pages["analysis"])
    fits(page)
    widths = page.locator("#analysis tbody td:last-child").evaluate_all(
        "ts => ts.map(t => t.getBoundingClientRect().width)"
    )
    assert widths and min(widths) >= 250, (width, widths)
    context.close()


def test_axe_finds_no_serious_violation_in_any_theme(
    browser: Browser, pages: dict[str, str]
) -> None:
    axe = Axe()
    context = open_context(browser, viewport=PHONE, reduced_motion="reduce")
    page = context.new_page()
    problems = []
    for name, url in pages.items():
        page.goto(url)
        for theme in THEMES:
            page.evaluate(f"document.documentElement.dataset.theme = '{theme}'")
            results = axe.run(page)
            for violation in results.response["violations"]:
                if violation["impact"] in ("serious", "critical"):
                    nodes = [n["target"] for n in violation["nodes"][:3]]
                    problems.append(f"{name} ({theme}): {violation['id']}: {nodes}")
    context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture(params=list(SIZES))
def scriptless(browser: Browser, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    """A fresh profile with script off, at each size."""
    context = open_context(browser, viewport=SIZES[request.param], java_script_enabled=False)
    yield context
    context.close()


def test_play_without_script(scriptless: BrowserContext, base: str) -> None:
    page = scriptless.new_page()
    page.goto(f"{base}/new/play")
    posted(page, page.locator("#start"))  # a plain form post: accepted, not a 403
    expect(page).to_have_url(re.compile(r"/game/"))
    expect(page.locator(".keypad")).to_be_hidden()  # the keypad needs script; the box not
    page.locator("#say").fill("0123")
    page.locator("#send").click()
    expect(page.locator(ROWS)).to_have_count(1)
    page.locator("#hint-button").click()
    expect(page.locator("#hint")).to_be_visible()
    hint = page.locator("#hint").inner_text()
    page.reload()  # the hint's page is read again, not posted again (refused as sent twice)
    expect(page.locator("#hint")).to_have_text(hint)
    expect(page.locator(".error")).to_have_count(0)
    page.get_by_text("Give up…").click()
    page.locator("#give-up").click()
    expect(page.locator("#result")).to_contain_text("The secret was")
    expect(page.locator("#grid")).to_be_visible()
    page.locator("#again").click()
    expect(page.locator(ROWS)).to_have_count(0)
    expect(page.locator("#say")).to_be_visible()


def test_trees_bench_and_challenge_without_script(
    scriptless: BrowserContext, base: str, tmp_path: Path
) -> None:
    page = scriptless.new_page()
    page.goto(f"{base}/tree")
    page.get_by_role("link", name="bc:guesses=digits--optimal", exact=True).click()
    expect(page.locator("#node-guess")).to_be_visible()
    page.goto(f"{base}/tree")
    page.locator('input[type="file"]').set_input_files(upload_file(tmp_path))
    posted(page, page.locator('form:has(input[type="file"]) button[type="submit"]'))
    expect(page.locator(".variant")).to_contain_text("p3c4n")
    page.goto(f"{base}/bench")
    page.locator("#bench-rules").fill("p3c6n")
    page.locator("#run-bench").click()
    expect(page.locator("#bench-table")).to_be_visible()
    page.goto(f"{base}/new/play")
    page.locator("#start").click()
    page.locator("#say").fill("0123")  # a game given up before its first guess is not counted
    page.locator("#send").click()
    expect(page.locator(ROWS)).to_have_count(1)
    page.get_by_text("Give up…").click()
    page.locator("#give-up").click()
    page.locator("#challenge").click()
    page.locator("#challenge-link").click()
    page.locator("#accept").click()
    expect(page.locator("#say")).to_be_visible()
    page.goto(f"{base}/record")  # the game given up counts; the challenge accepted is not over
    expect(page.locator('.variant-record[data-rules="bc"]')).to_contain_text("1 played, 0 won")


def test_the_record_counts_a_game_played_without_script(
    scriptless: BrowserContext, base: str
) -> None:
    page = scriptless.new_page()
    page.goto(f"{base}/record")
    expect(page.locator("#no-record")).to_be_visible()
    page.goto(f"{base}/new/play")
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/game/"))
    solver = Codebreaker(BC, "minimax")
    for number in range(1, 12):
        page.locator("#say").fill(solver.suggest().text)
        page.locator("#send").click()
        expect(page.locator(ROWS)).to_have_count(number)
        reply = last_reply(page)
        if reply.is_win(BC.length):
            break
        solver.reply(reply)
    expect(page.locator("#result")).to_contain_text("You broke it in")
    page.goto(f"{base}/record")  # counted by the server: this browser's cookie names its player
    section = page.locator('.variant-record[data-rules="bc"]')
    expect(section).to_contain_text("1 played, 1 won")
    expect(section.locator('[data-stat="win %"] b')).to_have_text("100")
    expect(section.locator('[data-stat="streak"] b')).to_have_text("1")
    expect(section.locator("svg rect")).to_have_count(1)
    page.locator("#forget").click()
    expect(page.locator("#no-record")).to_be_visible()


@pytest.mark.parametrize("script", ["script", "no-script"])
def test_a_refused_line_says_why_beside_the_box_on_a_phone(
    browser: Browser, base: str, script: str
) -> None:
    """Under a contradiction's fixes the box is far down a phone's page: the reason a line
    was refused shows where the box and the eyes are, not off the screen above the board."""
    context = open_context(browser, viewport=PHONE, java_script_enabled=script == "script")
    page = context.new_page()
    page.goto(f"{base}/new/assist")
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/game/"))
    for number, line in enumerate(["0123 0 2", "4567 1 1", "0123 0 0"], 1):  # no code fits
        page.locator("#say").fill(line)
        page.locator("#say").press("Enter")
        expect(page.locator(ROWS)).to_have_count(number)
    expect(page.locator(".contradiction")).to_be_visible()
    page.locator("#say").fill("0123 many")
    page.locator("#say").press("Enter")
    error = page.locator(".error")
    expect(error).to_contain_text("'many'")
    expect(page.locator("#say")).to_be_focused()
    expect(error).to_be_in_viewport(ratio=1)  # all of it
    expect(page.locator("#say")).to_have_attribute("aria-describedby", "error")
    context.close()


#: Each option's text of the form's boxes beside the room its box has for it (CSS px):
#: [[text, width, room]]; the room leaves 24 px for the box's arrow.
OPTION_ROOM = """() => [...document.querySelectorAll("main select")].flatMap(box => {
  const s = getComputedStyle(box), pen = document.createElement("canvas").getContext("2d");
  pen.font = s.font;
  const room = box.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - 24;
  return [...box.options].map(o => [o.text, pen.measureText(o.text).width, room]); })"""


def test_the_variants_read_whole_on_a_phone(browser: Browser, base: str) -> None:
    """A select cannot wrap its text: each option (a preset's name and size, a guess limit)
    fits its box at 390 px, what each variant is stands in a box that opens below the
    variant's, and the title has room."""
    context = open_context(browser, viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{base}/new/play")
    options = page.evaluate(OPTION_ROOM)
    assert len(options) >= 16 and all(width <= room for _, width, room in options), options
    assert "bc-nolead · 4,536 codes" in [text for text, _, _ in options]
    page.locator("#variants summary").click()
    expect(page.locator("#variants")).to_contain_text(
        "bc-nolead: 4 distinct symbols of 0-9 (allowed at position 1: 1-9), 4,536 codes"
    )
    title = page.locator("h1").bounding_box()
    label = page.locator("label:has(#rules)").bounding_box()
    assert title and label and label["y"] - (title["y"] + title["height"]) >= 12, (title, label)
    fits(page)
    context.close()


#: The replies written beside the pegs that take more than one line: [text, ...].
WRAPPED = """() => [...document.querySelectorAll(".board .reply-text")].filter(t =>
  t.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(t).lineHeight))
  .map(t => t.textContent)"""


@pytest.mark.parametrize("width", [1280, 800, 700, 390])
def test_a_duels_replies_stay_on_one_line(browser: Browser, base: str, width: int) -> None:
    """Both boards of a duel side by side where there is room for a whole row, its reply
    words on one line ("0 bulls, 2 cows"), else one under the other; never sideways."""
    context = open_context(browser, viewport={"width": width, "height": 800})
    page = context.new_page()
    page.goto(f"{base}/new/duel")
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/game/"))
    page.locator("#say").fill("0123")
    page.locator("#say").press("Enter")
    page.locator('button.choice[data-reply="0 2"]').click()  # the longest words of bc
    expect(page.locator(".board[aria-label='my guesses'] .row[data-step]")).to_have_count(1)
    expect(page.locator(".reply-text", has_text="0 bulls, 2 cows").first).to_be_attached()
    assert page.evaluate(WRAPPED) == [], width
    fits(page)
    context.close()


@pytest.mark.parametrize("line", ["suggest", "0 1 2 3 4"])
def test_a_line_longer_than_a_code_is_marked_not_cut(
    browser: Browser, base: str, line: str
) -> None:
    """The tiles of the row being typed never show a long line cut to a code's length (as if
    'suggest' were read as 'sugg'): the row is marked, with the count the game gives when it
    refuses the line; separators the game drops are dropped from the tiles too, and a command
    the game takes ('history') is shown as no code."""
    context = open_context(browser, viewport=PHONE)
    page = context.new_page()
    page.goto(f"{base}/new/play")
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/game/"))
    page.locator("#say").fill("0,1-2 3")
    expect(page.locator("#typed .tile")).to_have_text(list("0123"))
    expect(page.locator("#typed-note")).to_be_hidden()
    page.locator("#say").fill(line)
    count = len(line.replace(" ", ""))
    expect(page.locator(".row.current")).to_have_class(re.compile(r"\bover\b"))
    expect(page.locator("#typed-note")).to_have_text(f"{count} symbols: a code has 4")
    fits(page)
    page.locator("#say").press("Enter")
    expect(page.locator(".error")).to_be_visible()  # refused whole, as the row said
    expect(page.locator(ROWS)).to_have_count(0)
    if line[0].isdigit():
        expect(page.locator(".error")).to_contain_text(f"has {count} symbols; a code has 4")
    page.locator("#say").fill("History")  # a command the game takes: no code, too long or not
    expect(page.locator("#typed-note")).to_be_hidden()
    expect(page.locator("#typed .tile.blank")).to_have_count(4)
    page.locator("#say").press("Enter")
    expect(page.locator("#told")).to_be_visible()
    expect(page.locator(".error")).to_have_count(0)
    context.close()
