"""The groups' public page in a browser (#35), on a phone in Russian: the "Группы" tab leads to
it, each group's standings table fits 360 px (it scrolls in its own box), no serious axe-core
violation. Screenshot: tests/e2e/screenshots/groups-360-ru.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Party, Round
from tests.e2e.a11y import describe, serious_here
from tests.e2e.helpers import page_width
from tests.e2e.test_finals_pages import eight_pairs
from tests.tournaments.play import play
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds
from tournaments.rounds.finals import start_groups

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

def _groups_after_a_round(organizer):
    """Eight pairs in two groups of four, the groups' first round played (side A wins)."""
    t = eight_pairs(organizer, "Кубок групп", "cup-groups")
    start_groups(t.pk, group_count=2)
    rnd = rounds.create_round(t.pk)
    draw_services.generate_draw(rnd.pk)
    rounds.publish_round(rnd.pk)
    rounds.start_round(rnd.pk)
    for party in Party.objects.filter(round=rnd):
        play(party.pk, "a")
    assert Round.objects.filter(tournament=t).count() == 1
    return t


def test_the_groups_page_on_a_phone_in_russian(new_page, live_server, organizer, screenshot):
    t = _groups_after_a_round(organizer)
    page = new_page(phone=True)
    page.context.set_extra_http_headers({"Accept-Language": "ru"})
    page.context.add_cookies([{"name": "django_language", "value": "ru",
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/t/{t.slug}/standings/")
    page.locator("nav.tabs").get_by_role("link", name="Группы").click()
    expect(page).to_have_url(f"{live_server.url}/t/{t.slug}/groups/")
    groups = page.locator("#groups")
    for name in ("Группа A", "Группа B"):
        table = groups.get_by_role("table", name=name)
        expect(table.locator("tbody tr")).to_have_count(4)
    # the round's winners lead their groups, level on 1=
    winners = {party.pair_a.name for party in Party.objects.filter(round__tournament=t)
               .select_related("pair_a")}
    for name in ("Группа A", "Группа B"):
        rows = groups.get_by_role("table", name=name).locator("tbody tr")
        for n in (0, 1):
            expect(rows.nth(n).locator("td").first).to_have_text("1=")
            assert rows.nth(n).locator("td").nth(1).locator("a").inner_text() in winners
    assert page_width(page) <= 360
    screenshot(page, "groups-360-ru")
    found = serious_here(page)
    assert not found, describe(found)
    assert page.errors == []
