"""The standings' clubs and countries tabs on a phone (360 px, Russian): reached from the
standings, readable without scrolling sideways, each club with the results it counts."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.a11y import in_language, open_page, phone_context
from tests.e2e.helpers import PHONE, page_width
from tournaments.management.commands.seed_demo import DEMO_SLUG

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_clubs_and_countries_tabs_fit_a_phone_in_russian(demo, browser: Browser, live_server,
                                                          screenshot):
    page = open_page(phone_context(browser, "ru"))
    page.goto(f"{live_server.url}/t/{DEMO_SLUG}/standings/")
    in_language(page, "ru")
    tabs = page.locator("nav.standings-tabs")
    tabs.get_by_role("link", name="Клубы").click()
    expect(page.locator("h1")).to_have_text("Зачёт клубов")
    rows = page.locator("table.club-standings tbody tr")
    expect(rows).to_have_count(6)
    expect(rows.first).to_contain_text("Дубль-шесть")
    expect(rows.first.locator("ul.counted li")).to_have_count(2)
    expect(page.locator("#club-standings p.muted").first).to_contain_text(
        "В зачёт клуба идут 2 лучших результата")
    assert page_width(page) <= PHONE["width"], f"the page is {page_width(page)} px wide"
    screenshot(page, "club-standings-360-ru")

    page.locator("nav.standings-tabs").get_by_role("link", name="Страны").click()
    expect(page.locator("h1")).to_have_text("Зачёт стран")
    expect(page.locator("table.club-standings tbody tr").first).to_contain_text("Россия")
    assert page_width(page) <= PHONE["width"], f"the page is {page_width(page)} px wide"
    screenshot(page, "country-standings-360-ru")
    assert not page.errors, page.errors
    page.context.close()
