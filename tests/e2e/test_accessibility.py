"""Issue #12 item 6: axe-core finds no serious or critical violation, tap targets are 44 px.

On the demo (``seed_demo``) at 360 × 740, in English and in Russian: the referee screen of a
party in play, "My tables", the public party page and the public standings. axe-core is the
vendored copy (``tests/e2e/vendor/axe-core``); the browser asks for the language with its
Accept-Language, and each page is checked to be served in it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from scoring.models import Party
from tests.e2e.a11y import (
    axe_violations,
    blocking,
    describe,
    in_language,
    log_in,
    open_page,
    phone_context,
    small_tap_targets,
    unfold,
)
from tournaments.management.commands.seed_demo import DEMO_PASSWORD, DEMO_SLUG

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LANGUAGES = ("en", "ru")


def _party_in_play() -> Party:
    """The demo cup's first party in progress (the demo referee referees the tournament)."""
    return (
        Party.objects.filter(round__tournament__slug=DEMO_SLUG, status=Party.Status.IN_PROGRESS)
        .select_related("pair_a__player1", "pair_a__player2")
        .order_by("table__number")
        .first()
    )


def _referee_screen(page: Page, base: str) -> None:
    """The referee screen of a party in play, its deal form present."""
    page.goto(f"{base}/referee/party/{_party_in_play().pk}/")
    expect(page.locator("#btn-deal")).to_be_visible()


def _my_tables(page: Page, base: str) -> None:
    """My tables of the demo referee, his live parties listed."""
    page.goto(f"{base}/referee/tables/")
    expect(page.locator("[data-party]").first).to_be_visible()


def _party_page(page: Page, base: str) -> None:
    """The public page of a party in play."""
    party = _party_in_play()
    page.goto(f"{base}/party/{party.pk}/")
    expect(page.locator("main")).to_contain_text(party.pair_a.player1.name)


def _standings(page: Page, base: str) -> None:
    """The public standings of the demo cup."""
    page.goto(f"{base}/t/{DEMO_SLUG}/standings/")
    expect(page.locator("main table").first).to_be_visible()


PAGES: dict[str, tuple[Callable[[Page, str], None], bool]] = {
    "referee-screen": (_referee_screen, True),
    "my-tables": (_my_tables, True),
    "party-page": (_party_page, False),
    "standings": (_standings, False),
}
"""Each page: how to open it, and whether the demo referee must be logged in for it."""


def _open(browser: Browser, base: str, name: str, lang: str) -> Page:
    """A phone in ``lang`` on the named page (logged in as the demo referee where needed)."""
    go, as_referee = PAGES[name]
    page = open_page(phone_context(browser, lang, axe=True))
    if as_referee:
        log_in(page, base, "referee", DEMO_PASSWORD)
    go(page, base)
    page.wait_for_load_state("networkidle")
    in_language(page, lang)
    return page


@pytest.fixture
def opened(browser: Browser) -> Iterator[Callable[[str, str, str], Page]]:
    """Open pages with :func:`_open`; their contexts close after the test."""
    pages: list[Page] = []

    def make(base: str, name: str, lang: str) -> Page:
        pages.append(_open(browser, base, name, lang))
        return pages[-1]

    yield make
    for page in pages:
        page.context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", list(PAGES))
def test_axe_finds_no_serious_violation(demo, opened, live_server, screenshot, name, lang):
    page = opened(live_server.url, name, lang)
    screenshot(page, f"a11y-{name}-{lang}")
    found = blocking(axe_violations(page))
    unfold(page)  # what the folded parts (<details>) hold, too
    found += [v for v in blocking(axe_violations(page)) if v not in found]
    assert not found, f"{name} ({lang}): axe-core finds\n{describe(found)}"
    assert not page.errors, page.errors


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", ["referee-screen", "my-tables"])
def test_tap_targets_are_44px(demo, opened, live_server, name, lang):
    page = opened(live_server.url, name, lang)
    unfold(page)  # the referee opens the folded parts (rulings, the tile picker): measured open
    small = small_tap_targets(page)
    assert not small, f"{name} ({lang}): tap targets under 44 × 44 px:\n" + "\n".join(small)
