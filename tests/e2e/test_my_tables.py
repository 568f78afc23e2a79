"""The demo referee logs in on a 360 × 740 phone in Russian and lands on My tables.

The demo of ``make run`` (``seed_demo``): his parties of the live rounds by name, with their
clocks ticking, nothing wider than the screen. The screenshot is
tests/e2e/screenshots/my_tables_ru.png; the styled 404 is my_tables_404_ru.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Party
from tests.e2e.helpers import PHONE, watch_errors
from tournaments.management.commands.seed_demo import DEMO_PASSWORD, DEMO_SLUG, UDL_SLUG

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTH = PHONE["width"]


def _live_parties(slug: str) -> list[Party]:
    """The demo tournament's parties of its round in play (no byes)."""
    return list(
        Party.objects.filter(
            round__tournament__slug=slug, round__status__in=["published", "in_progress"],
            pair_b__isnull=False,
        ).select_related("pair_a__player1", "pair_a__player2", "pair_b__player1",
                         "pair_b__player2", "table")
    )


def test_the_demo_referee_lands_on_my_tables_at_360px(demo, browser, live_server, screenshot):
    context = browser.new_context(
        locale="ru-RU", viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2
    )
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", "referee")
        page.fill("#id_password", DEMO_PASSWORD)
        page.locator("main form button[type=submit]").click()
        expect(page).to_have_url(f"{live_server.url}/referee/tables/")
        expect(page.locator("main h1")).to_have_text("Мои столы")
        expect(page.locator("header nav")).to_contain_text("Мои столы")

        parties = _live_parties(DEMO_SLUG) + _live_parties(UDL_SLUG)
        assert len(parties) >= 8
        for party in parties:
            card = page.locator(f"[data-party='{party.pk}']")
            expect(card).to_contain_text(f"Стол {party.table.number}")
            for pair in (party.pair_a, party.pair_b):
                expect(card).to_contain_text(pair.display_name)
            box = card.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, box
        text = page.inner_text("main")
        assert "Пара A" not in text and "Pair A" not in text and "Pair B" not in text

        # The clock of a party in play counts down on the device between refreshes.
        started = next(p for p in parties if p.status == Party.Status.IN_PROGRESS)
        clock = page.locator(f"[data-party='{started.pk}'] .clock")
        first = clock.inner_text()
        page.wait_for_timeout(2200)
        assert clock.inner_text() != first

        assert page.evaluate("document.scrollingElement.scrollWidth") <= WIDTH
        screenshot(page, "my_tables_ru")
        assert not errors, errors

        # The tap on a table opens that party's referee screen.
        page.locator(f"[data-party='{started.pk}'] a.mt-link").click()
        expect(page).to_have_url(f"{live_server.url}/referee/party/{started.pk}/")

        # A wrong address: the styled 404, in Russian, with the way back home.
        page.goto(f"{live_server.url}/referee/no-such-page/")
        expect(page.locator("main h1")).to_have_text("Страница не найдена")
        expect(page.locator("[data-home]")).to_have_attribute("href", "/referee/tables/")
        expect(page.locator("[data-back], [data-history-back]").first).to_be_visible()
        assert page.evaluate("document.scrollingElement.scrollWidth") <= WIDTH
        screenshot(page, "my_tables_404_ru")
    finally:
        context.close()
