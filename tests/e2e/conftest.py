"""Browser fixtures of the end-to-end tests: Debian's Chromium driven by Playwright's sync API.

The tests run in the normal suite against pytest-django's live server (a thread of this
process, so the ``settings`` fixture reaches it). Nothing is downloaded: the browser is the
system's ``/usr/bin/chromium`` (``make test`` installs it, ``.ci/system-packages``); without it
the run stops before its first test with one line saying what to install.
Screenshots go to ``tests/e2e/screenshots/`` (gitignored, kept as CI artefacts).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.e2e.helpers import ARGS, CHROMIUM, DESKTOP, PHONE, SHOTS, in_own_thread, watch_errors

ASYNC_UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"

expect.set_options(timeout=10_000)


MISSING_BROWSER = (
    f"missing system packages: chromium (no {CHROMIUM}) — run: sudo apt-get install chromium "
    "(`make test` installs it as root)"
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Stop the whole run at once, in one line, when browser tests are chosen without Chromium."""
    here = Path(__file__).parent
    if not Path(CHROMIUM).exists() and any(here in Path(item.path).parents for item in items):
        pytest.exit(MISSING_BROWSER, returncode=1)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One Chromium per test module (a context per user keeps their sessions apart).

    Not per session: while Playwright's sync API is active its event loop runs in this
    thread, and later tests that call ``asyncio.run`` (pyHanko's signing) would fail.
    """
    # Playwright's sync API runs an event loop in the test's thread; Django refuses ORM calls
    # from such a thread (fixtures, the test's own checks) unless told that this is fine.
    previous = os.environ.get(ASYNC_UNSAFE)
    os.environ[ASYNC_UNSAFE] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop(ASYNC_UNSAFE, None)
        else:
            os.environ[ASYNC_UNSAFE] = previous


@pytest.fixture
def screenshot() -> Callable[[Page, str], Path]:
    """Save a full-page screenshot as ``tests/e2e/screenshots/<name>.png``.

    The page is scrolled to the top first, so that sticky parts (the referee's scoreboard)
    are drawn where they belong.
    """
    SHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Page, name: str) -> Path:
        path = SHOTS / f"{name}.png"
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Open a page in a fresh context (its own cookies): ``new_page(phone=True)``.

    The page's ``errors`` list collects console errors (a refused inline script, say),
    uncaught exceptions and responses of 400 and more; the contexts close after the test.
    """
    contexts = []

    def make(*, phone: bool = False) -> Page:
        options = (
            {"viewport": PHONE, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
            if phone
            else {"viewport": DESKTOP}
        )
        context = browser.new_context(locale="en-US", accept_downloads=True, **options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.errors = watch_errors(page)
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def demo() -> None:
    """The demo tournaments, seeded in a thread of its own (the protocols' signing runs its
    own event loop, which Playwright's loop in this thread would refuse)."""
    in_own_thread(lambda: call_command("seed_demo", stdout=open("/dev/null", "w")))  # noqa: SIM115
