"""Screenshots of every page of the web app at a phone's size (390x844) and a laptop's
(1280x800): docs/screenshots/NAME-phone.png and NAME-wide.png.

Run: .venv/bin/python scripts/screenshots.py [--out docs/screenshots] [--only NAME ...]

Starts ``bullscows serve`` over a fresh SQLite file, its games seeded (``BULLSCOWS_SEED``,
``--seed``: the same secrets and codes each retake, so that only a changed page changes its
picture; the daily puzzle's are the day's), and drives Debian's chromium (Playwright)
through each mode: a game being played with a hint, a game won and its share box, a solve
and one whose replies contradict each other, a duel, an assist, the optimal ``bc`` tree, a
bench, the record, a challenge, the card's coach, the help page, an error page (a game that
is not there), and the dark and high-contrast themes.
"""

from __future__ import annotations

import argparse
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from bullscows import Codebreaker, Feedback, Rules
from bullscows.web.app import SEED_ENV
from bullscows.web.process import serving

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
SIZES = {"phone": (390, 844), "wide": (1280, 800)}
ROWS = ".board .row[data-step]"


def start(page: Page, base: str, mode: str, rules: str = "bc") -> None:
    page.goto(f"{base}/new/{mode}")
    page.locator("#rules").select_option(rules)
    page.locator("#start").click()
    page.wait_for_url(f"{base}/game/*")


def enter(page: Page, *lines: str) -> None:
    for line in lines:
        rows = page.locator(ROWS).count()
        page.locator("#say").fill(line)
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"(document.querySelectorAll('{ROWS}').length > {rows}"
            " || document.querySelector('.error, #result'))"
            " && !document.querySelector('main.pending')"
        )


def phone(page: Page) -> bool:
    return (page.viewport_size or {"width": 0})["width"] == SIZES["phone"][0]


def win(page: Page) -> None:
    """Play the current bc game to the end with minimax's guesses."""
    rules = Rules.parse("bc")
    solver = Codebreaker(rules, "minimax")
    while not page.locator("#result").count():
        enter(page, solver.suggest().text)
        reply = page.locator(f"{ROWS} .reply-text").last.inner_text()
        solver.reply(Feedback.parse(reply, rules))


def scenes(base: str) -> dict[str, Callable[[Page], None]]:
    """Each picture's name and how to reach it."""

    def play(page: Page) -> None:
        start(page, base, "play")
        enter(page, "0123", "4567")
        page.locator("#hint-button").click()
        page.wait_for_selector("#hint")
        hinted = re.search(r"Try (\w+)", page.locator("#hint").inner_text())
        first = hinted.group(1)[0] if hinted else "8"  # the hint's guess begun on the keypad
        page.locator(f".keypad .key[data-symbol='{first}']").click()

    def won(page: Page) -> None:
        start(page, base, "play")
        win(page)
        if phone(page):  # the result to share, under the board
            page.locator(".share").scroll_into_view_if_needed()
        else:  # the page from its top: the result and the share box below the board
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_function("window.scrollY === 0")

    def solve(page: Page) -> None:
        start(page, base, "solve")
        page.locator('button.choice[data-reply="0 1"]').click()
        page.wait_for_function(f"document.querySelectorAll('{ROWS}').length == 1")

    def contradiction(page: Page) -> None:
        solve(page)
        enter(page, "2 0", "2 1", "0 1", "1 3")

    def duel(page: Page) -> None:
        start(page, base, "duel", "mm-colours")
        enter(page, "RRGG")

    def assist(page: Page) -> None:
        start(page, base, "assist")
        enter(page, "1389 0 0", "1234 0 2", "1759 1b1c")

    def analysis(page: Page) -> None:
        start(page, base, "play")
        enter(page, "0123", "4567")
        page.goto(page.url + "/analysis")

    def record(page: Page) -> None:
        page.goto(f"{base}/record")
        page.wait_for_selector(".variant-record, #no-record")

    def bench(page: Page) -> None:
        page.goto(f"{base}/bench?rules=mm&strategy=minimax&strategy=entropy&strategy=simple")
        page.wait_for_function("document.getElementById('chart').naturalWidth > 0")
        page.locator("#bench-table").scroll_into_view_if_needed()

    def challenge(page: Page) -> None:
        start(page, base, "play")
        enter(page, "0123")  # a game given up before its first guess is no challenge
        page.locator("details.confirm summary").click()
        page.locator("#give-up").click()
        page.locator("#challenge").click()
        page.goto(base + (page.locator("#challenge-link").get_attribute("href") or ""))

    def daily(page: Page) -> None:
        page.goto(f"{base}/daily")
        page.locator("#daily-mm-colours").click()
        page.wait_for_url(f"{base}/game/*")
        enter(page, "RGBY", "OPRG")

    def themed(theme: str) -> Callable[[Page], None]:
        def shot(page: Page) -> None:
            start(page, base, "play", "mm-colours")
            enter(page, "RRGG", "BYOP")
            page.locator("#theme").select_option(theme)

        return shot

    return {
        "home": lambda page: page.goto(base),
        "play": play,
        "won": won,
        "daily": daily,
        "solve": solve,
        "solve-contradiction": contradiction,
        "duel": duel,
        "assist": assist,
        "analysis": analysis,
        "record": record,
        "tree": lambda page: page.goto(f"{base}/tree?src=shipped:bc--optimal&at=0 1/1 1"),
        "trees": lambda page: page.goto(f"{base}/tree"),
        "bench": bench,
        "challenge": challenge,
        "card": lambda page: page.goto(f"{base}/card?rules=mm&after=1124 0 1"),
        "about": lambda page: page.goto(f"{base}/about"),
        "error": lambda page: page.goto(f"{base}/game/no-such-game"),
        "theme-dark": themed("dark"),
        "theme-contrast": themed("contrast"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--only", nargs="*", default=None, help="the pictures to take")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the server's games")
    args = parser.parse_args()
    os.environ[SEED_ENV] = str(args.seed)  # read by the server ``serving`` starts
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory() as folder,
        serving(f"sqlite:///{folder}/shots.sqlite3") as base,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        for size, (width, height) in SIZES.items():
            context = browser.new_context(
                viewport={"width": width, "height": height},
                reduced_motion="reduce",
                bypass_csp=True,  # the script's own checks are evaluated in the page
            )
            page = context.new_page()
            for name, reach in scenes(base).items():
                if args.only and name not in args.only:
                    continue
                reach(page)
                path = out / f"{name}-{size}.png"
                page.screenshot(path=str(path), full_page=False)
                print(path)
            context.close()
        browser.close()


if __name__ == "__main__":
    main()
