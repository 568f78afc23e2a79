"""A finished party's desk leads to the signatures: a full-width primary button, at 360 × 740 in
Russian, opens the party page at its protocol, where the players sign.

Screenshots: finished_desk_ru.png (the desk), finished_desk_signatures_ru.png (where it leads).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Party
from tests.e2e.a11y import axe_violations, blocking, describe, phone_context
from tests.e2e.helpers import PHONE, in_own_thread, page_width
from tests.e2e.test_tables_offline import log_in_ru, russian_phone

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def play_to_the_end(party_id: int, referee) -> None:
    """Pair A wins deals until the regulations end the party, in a thread of its own (the
    protocol's signing runs an event loop, which Playwright's loop in this thread would refuse)."""
    from scoring.party.deals import record_deal

    def play() -> None:
        for _deal in range(20):
            if Party.objects.get(pk=party_id).status == Party.Status.FINISHED:
                return
            record_deal(party_id, actor=referee, outcome="domino", winner="a",
                        points={"a": 60, "b": 0})

    in_own_thread(play)
    assert Party.objects.get(pk=party_id).status == Party.Status.FINISHED


def test_a_finished_partys_desk_leads_to_the_signatures(
    browser, live_server, referee_user, party, screenshot
):
    play_to_the_end(party.pk, referee_user)
    context = phone_context(browser, "ru", axe=True)  # axe-core comes in as an inline script
    try:
        page = context.new_page()
        log_in_ru(page, live_server.url, referee_user.username)
        page.goto(f"{live_server.url}/referee/party/{party.pk}/")
        button = page.locator("#to-signatures")
        expect(button).to_have_text("Протокол и подписи →")
        expect(button).to_have_class("button primary ref-wide ref-to-sign")
        panel = page.locator("#panel").bounding_box()
        box = button.bounding_box()
        assert panel is not None and box is not None
        assert box["width"] >= panel["width"] - 2 and box["height"] >= 44, (box, panel)
        assert page_width(page) <= PHONE["width"]
        screenshot(page, "finished_desk_ru")
        found = blocking(axe_violations(page))
        assert not found, describe(found)

        button.click()
        expect(page).to_have_url(f"{live_server.url}{party.get_absolute_url()}#protocol")
        signatures = page.locator("#protocol table.signatures")
        expect(signatures).to_be_visible()
        expect(signatures).to_contain_text(party.pair_a.player1.name)
        expect(page.locator("#protocol input[name=pin]").first).to_be_visible()
        screenshot(page, "finished_desk_signatures_ru")
    finally:
        context.close()


def test_a_party_in_play_has_no_way_to_the_signatures_yet(
    browser, live_server, referee_user, party
):
    context = russian_phone(browser)
    try:
        page = context.new_page()
        log_in_ru(page, live_server.url, referee_user.username)
        page.goto(f"{live_server.url}/referee/party/{party.pk}/")
        expect(page.locator("#btn-deal")).to_be_visible()
        expect(page.locator("#to-signatures")).to_have_count(0)
    finally:
        context.close()
