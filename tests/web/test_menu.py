"""The phone's menu in a real browser: it opens and closes without script (a tap outside it
closes it, the tap following nothing below), and Escape closes it with script."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from .test_browser import PHONE, base, browser, open_context

__all__ = ["base", "browser"]  # fixtures, shared with the other browser tests


@pytest.mark.parametrize("script", ["script", "no-script"])
def test_a_tap_outside_the_menu_closes_it(browser: Browser, base: str, script: str) -> None:
    context = open_context(browser, viewport=PHONE, java_script_enabled=script == "script")
    page = context.new_page()
    page.goto(f"{base}/tree")
    page.locator(".menu summary").click()
    expect(page.locator(".menu nav a").first).to_be_visible()
    menu = page.locator(".menu nav").bounding_box()
    assert menu is not None
    below = next(  # a link of the page under the veil, below the menu
        box for link in page.locator("main .tree-list a").all()
        if (box := link.bounding_box()) and box["y"] > menu["y"] + menu["height"]
    )  # fmt: skip
    page.mouse.click(below["x"] + below["width"] / 2, below["y"] + below["height"] / 2)
    expect(page.locator(".menu nav")).to_be_hidden()
    expect(page).to_have_url(f"{base}/tree")  # the tap closed the menu, and followed nothing
    page.locator(".menu summary").click()  # it opens again, and its links still lead on
    page.locator(".menu nav a", has_text="Daily").click()
    expect(page).to_have_url(f"{base}/daily")
    context.close()


def test_escape_closes_the_menu_with_script(browser: Browser, base: str) -> None:
    context = open_context(browser, viewport=PHONE)
    page = context.new_page()
    page.goto(f"{base}/tree")
    page.locator(".menu summary").click()
    page.locator(".menu nav a").first.focus()
    page.keyboard.press("Escape")
    expect(page.locator(".menu nav")).to_be_hidden()
    expect(page.locator(".menu summary")).to_be_focused()  # the keyboard goes on from the button
    context.close()
