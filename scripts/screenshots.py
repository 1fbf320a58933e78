"""Screenshots of every page of the web app, for the README: docs/screenshots/*.png.

Run: .venv/bin/python scripts/screenshots.py [--out docs/screenshots]

Starts ``bullscows serve`` over a fresh SQLite file and drives Debian's chromium (Playwright)
through each mode: a game being played with a hint, a solve whose replies contradict each
other, a duel, an assist, the optimal ``bc`` tree, a bench and its chart, and the dark and
high-contrast themes.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from bullscows.web.process import serving

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip


def start(page: Page, base: str, mode: str, rules: str = "bc") -> None:
    page.goto(f"{base}/new/{mode}")
    page.locator("#rules").select_option(rules)
    page.locator("#start").click()
    page.wait_for_selector("table.board")


def enter(page: Page, *lines: str) -> None:
    for line in lines:
        rows = page.locator("table.board tbody tr").count()
        page.locator("#say").fill(line)
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"document.querySelectorAll('table.board tbody tr').length > {rows}"
            " || document.querySelector('.hint, .error')"
        )


def shoot(page: Page, out: Path, name: str) -> None:
    page.screenshot(path=str(out / f"{name}.png"), full_page=False)
    print(f"{out / name}.png")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    out: Path = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory() as folder,
        serving(f"sqlite:///{folder}/shots.sqlite3") as base,
        sync_playwright() as playwright,
    ):
        context = playwright.chromium.launch_persistent_context(
            str(Path(folder) / "profile"), executable_path=CHROMIUM, headless=True, args=ARGS,
            viewport={"width": 1000, "height": 720}, bypass_csp=True,
        )  # fmt: skip
        page = context.new_page()
        page.goto(base)
        shoot(page, out, "home")
        page.locator("#howto-close").click()
        start(page, base, "play")
        enter(page, "0123", "4567")
        page.locator("#hint-button").click()
        page.wait_for_selector("#hint")
        shoot(page, out, "play")
        start(page, base, "solve")
        page.locator('button.choice[data-reply="0 1"]').click()
        page.wait_for_function("document.querySelectorAll('table.board tbody tr').length == 1")
        shoot(page, out, "solve")
        enter(page, "2 0", "2 1", "0 1", "1 3")
        shoot(page, out, "solve-contradiction")
        start(page, base, "duel", "mm")
        enter(page, "1122")
        shoot(page, out, "duel")
        start(page, base, "assist")
        enter(page, "1389 0 0", "1234 0 2", "1759 1b1c")
        shoot(page, out, "assist")
        page.goto(f"{base}/tree?src=shipped:bc--optimal&at=0 1/1 1")
        shoot(page, out, "tree")
        page.goto(f"{base}/bench?rules=mm&strategy=minimax&strategy=entropy&strategy=simple")
        page.wait_for_function("document.getElementById('chart').naturalWidth > 0")
        page.locator("#chart").scroll_into_view_if_needed()
        shoot(page, out, "bench")
        for theme in ("dark", "contrast"):
            page.goto(f"{base}/tree?src=shipped:mm--optimal")
            page.locator("#theme").select_option(theme)
            shoot(page, out, f"theme-{theme}")
        context.close()


if __name__ == "__main__":
    main()
