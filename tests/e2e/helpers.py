"""What the browser tests share besides fixtures: the browser's place, logging in, checks."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

#: Debian's Chromium (``E2E_CHROMIUM`` names another binary, or a missing one to test the check).
CHROMIUM = os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(__file__).parent / "screenshots"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def watch_errors(page: Page) -> list[str]:
    """Collect script errors, CSP refusals and failed requests of a page into a list."""
    errors: list[str] = []
    page.on(
        "console",
        lambda msg: msg.type == "error"
        and not msg.text.startswith("Failed to load resource")  # reported by status below
        and errors.append(msg.text),
    )
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on(
        "response",
        lambda r: r.status >= 400
        and not r.url.endswith("/favicon.ico")
        and errors.append(f"{r.status} {r.url}"),
    )
    return errors


def log_in(page: Page, base_url: str, username: str, password: str = "pw") -> None:
    """Log in through the login form."""
    page.goto(f"{base_url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.locator("main form").get_by_role("button", name="Log in").click()
    expect(page.locator("header .who")).to_have_text(username)


def page_width(page: Page) -> int:
    """How wide the page's content is (wider than the viewport: it scrolls sideways)."""
    return page.evaluate("document.documentElement.scrollWidth")


def in_own_thread(work: Callable[[], object]) -> None:
    """Run database work in a thread of its own and re-raise what it raised: the protocols'
    signing runs its own event loop, which Playwright's loop in the test's thread refuses."""
    from django.db import connection

    errors: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:  # reported in the test's thread
            errors.append(exc)
        finally:
            connection.close()

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    assert not errors, errors
