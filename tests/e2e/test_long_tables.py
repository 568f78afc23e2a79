"""A long standings table on a phone in Russian: one page of rows, the search by name, the
page links and "my place" fit 360 px and work without JavaScript's help."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Pair, Player
from scoring.ranking.results import standings_table
from tests.e2e.helpers import log_in, page_width

pytestmark = pytest.mark.django_db(transaction=True)


def test_long_standings_on_a_phone_in_russian(browser, live_server, make_field, make_user,
                                              settings, screenshot):
    settings.PUBLIC_TABLE_PAGE_SIZE = 6
    t = make_field(24)
    rows = standings_table(t).rows
    mine = Pair.objects.get(pk=rows[14].entrant)
    user = make_user("igrok")
    user.set_password("pw")
    user.save()
    Player.objects.filter(pk=mine.player1_id).update(user=user)

    context = browser.new_context(locale="en-US", viewport={"width": 360, "height": 740})
    page = context.new_page()
    log_in(page, live_server.url, "igrok")
    context.add_cookies([{"name": "django_language", "value": "ru", "url": live_server.url}])
    page.goto(f"{live_server.url}/t/{t.slug}/standings/")
    expect(page.locator("table.standings-table tbody tr")).to_have_count(6)
    expect(page.locator("nav.page-links")).to_contain_text("Строки 1–6 из 24")
    assert page_width(page) <= 360
    screenshot(page, "long_standings_ru_360")

    page.get_by_role("link", name=f"Моё место: {rows[14].rank}", exact=False).click()
    expect(page.locator(f"#e-{mine.pk}")).to_be_visible()
    expect(page.locator("nav.page-links .current")).to_have_text("3")
    screenshot(page, "long_standings_my_place_ru_360")

    page.locator("#id_q").fill(mine.player2.name)
    page.get_by_role("button", name="Найти").click()
    expect(page.locator("table.standings-table tbody tr")).to_have_count(1)
    expect(page.locator("main")).to_contain_text("Найдено по запросу")
    assert page_width(page) <= 360
    screenshot(page, "long_standings_search_ru_360")
