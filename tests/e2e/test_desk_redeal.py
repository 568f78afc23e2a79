"""Kozel's redeal on the referee's screen in a real Chromium at 360 × 740 (issue #34).

Taken offline, the redeal waits in the device's queue, labelled with its section and the tiles
ticked, and is sent once the network returns: the ruling is saved, the deal in play keeps its
number.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Deal, Ruling
from tests.e2e.helpers import log_in
from tests.e2e.test_desk_offline import SYNC, open_screen
from tests.referee.test_rule_sets_desk import make_desk

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TILES = ("0-0", "1-1", "2-2", "3-3", "4-4")


def test_a_redeal_taken_offline_is_queued_with_its_tiles_and_sent(new_page, live_server, make_user):
    desk = make_desk(make_user, "kozel")
    page = new_page(phone=True)
    log_in(page, live_server.url, desk.referee.username)
    open_screen(page, live_server.url, desk.party_id)

    page.context.set_offline(True)
    page.locator("#redeal summary").click()
    page.locator("#redeal label:has(input[name=seat][value=b1])").click()
    for tile in TILES:
        page.locator(f"#redeal label.ref-tile:has(input[value='{tile}'])").click()
    page.locator("#redeal button[data-ruling=redeal]").click()
    bar = page.locator(SYNC)
    expect(bar).to_have_attribute("data-pending", "1")
    page.click(".desk-sync-toggle")
    item = page.locator(".desk-sync-item").first
    expect(item).to_contain_text("Redeal")
    expect(item).to_contain_text("His tiles: " + " ".join(TILES))
    assert not Ruling.objects.filter(party_id=desk.party_id).exists()

    page.context.set_offline(False)
    expect(bar).to_have_attribute("data-state", "saved", timeout=20_000)
    ruling = Ruling.objects.get(party_id=desk.party_id)
    assert (ruling.kind, ruling.seat, ruling.deal_number) == ("redeal", "b1", 1)
    assert ruling.details == {"redeal_reason": "five_doubles",
                              "hand": [[0, 0], [1, 1], [2, 2], [3, 3], [4, 4]]}
    assert not Deal.objects.filter(party_id=desk.party_id).exists()
    expect(page.locator("#deal-entry h2")).to_have_text("Deal 1")
    expect(page.locator("#log")).to_contain_text("Deal 1 dealt again")
