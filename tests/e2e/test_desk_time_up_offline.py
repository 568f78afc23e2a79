"""Issue #32, item 1 (acceptance): the clock runs out during an outage, on a 360 px phone in
Russian, in a real Chromium.

A 1-minute party: a deal entered offline before time-up and the deal in play at time-up (the
last one, RULES.md §1) entered offline after it; the network comes back after the expiry. The
party ends by time with the true score: the first deal counts as played in time, the last
deal is accepted. Then the same with two devices on the party, one of them offline: the other
records the last deal online, the offline one's in-time deal still counts when it comes back.
The party's clock is shortened by starting it in the past (the ORM); the rest is the desk's
own flow. Screenshots: tests/e2e/screenshots/desk_time_up_offline_*.png.
"""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from scoring.models import Deal, Party
from tests.e2e.desk_helpers import SYNC, open_screen, phone_ru, quick_deal
from tests.e2e.helpers import PHONE, page_width
from tests.factories import clock_started_ago

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LEFT_AT_OPENING = 20
"""Seconds of the 1-minute clock left when the screen opens: time to enter a deal before it."""




def one_minute_clock(party: Party) -> Party:
    """The party plays a 1-minute clock, of which ``LEFT_AT_OPENING`` seconds are left."""
    return clock_started_ago(party, 60 - LEFT_AT_OPENING)






def wait_past(page: Page, moment) -> None:
    """Let real time run until just past ``moment`` (the clock runs out for real)."""
    left = (moment - timezone.now()).total_seconds()
    page.wait_for_timeout(max(0.0, left) * 1000 + 1500)


def deals(party: Party) -> list[tuple[int, int, int]]:
    return list(Deal.objects.filter(party=party).order_by("number")
                .values_list("number", "points_a", "points_b"))


def script_errors(page: Page) -> list[str]:
    """The page's errors that are not an HTTP answer (a conflict's 409 is the desk's own)."""
    return [error for error in page.errors if not error[:3].isdigit()]


def test_time_up_during_an_outage_gives_the_true_result(
    new_page, live_server, referee_user, party, screenshot
):
    party = one_minute_clock(party)
    page = phone_ru(new_page, live_server.url, referee_user.username)
    open_screen(page, live_server.url, party.pk, "ru")
    quick_deal(page, "a", "10")  # deal 1, online
    bar = page.locator(SYNC)
    expect(page.locator("[data-total=a]")).to_have_text("10")
    expect(bar).to_have_attribute("data-state", "saved")

    page.context.set_offline(True)
    quick_deal(page, "a", "15")  # deal 2, entered offline before time-up
    expect(bar).to_have_attribute("data-pending", "1")
    assert timezone.now() < party.expiry, "the machine was too slow: deal 2 came after time-up"
    wait_past(page, party.expiry)
    expect(page.locator("#scoreboard .clock").first).to_have_class(re.compile(r"\bexpired\b"))
    quick_deal(page, "b", "20")  # deal 3, in play at time-up: the last one
    expect(bar).to_have_attribute("data-pending", "2")
    expect(bar).to_have_attribute("data-state", "offline")
    assert deals(party) == [(1, 10, 0)]
    assert page_width(page) <= PHONE["width"]
    screenshot(page, "desk_time_up_offline_queued_360_ru")

    page.context.set_offline(False)  # back after the expiry
    expect(bar).to_have_attribute("data-state", "saved", timeout=20_000)
    assert deals(party) == [(1, 10, 0), (2, 15, 0), (3, 0, 20)]  # deal 3 accepted
    party.refresh_from_db()
    assert (party.status, party.winner, party.end_reason) == ("finished", "a", "time")
    second, third = Deal.objects.filter(party=party, number__in=(2, 3)).order_by("number")
    assert second.recorded_at > party.time_expired_at  # it arrived after time-up …
    assert second.entered_at < party.time_expired_at  # … and was played in time
    assert third.entered_at > party.time_expired_at
    expect(page.locator("[data-total=a]")).to_have_text("25")  # the true score, 25 : 20
    expect(page.locator("[data-total=b]")).to_have_text("20")
    expect(page.locator("#records")).to_contain_text("Исправить кон 3")  # the panel follows
    expect(page.locator("#btn-deal")).to_have_count(0)  # no deal after the last one
    assert page_width(page) <= PHONE["width"]
    screenshot(page, "desk_time_up_offline_synced_360_ru")
    assert script_errors(page) == []


def test_two_devices_one_offline_at_time_up_give_the_true_result(
    new_page, live_server, referee_user, party, screenshot
):
    party = one_minute_clock(party)
    offline = phone_ru(new_page, live_server.url, referee_user.username)
    online = phone_ru(new_page, live_server.url, referee_user.username)
    open_screen(offline, live_server.url, party.pk, "ru")
    open_screen(online, live_server.url, party.pk, "ru")

    offline.context.set_offline(True)
    quick_deal(offline, "a", "25")  # entered before time-up on the device without a network
    bar = offline.locator(SYNC)
    expect(bar).to_have_attribute("data-pending", "1")
    assert timezone.now() < party.expiry, "the machine was too slow: the deal came after time-up"
    wait_past(online, party.expiry)

    online.reload()
    quick_deal(online, "b", "20")  # the deal in play at time-up, recorded by the other device
    expect(online.locator(SYNC)).to_have_attribute("data-state", "saved", timeout=20_000)
    expect(online.locator("[data-total=b]")).to_have_text("20")
    party.refresh_from_db()
    assert (party.status, party.winner) == ("finished", "b")  # as far as the server knows

    offline.context.set_offline(False)
    expect(bar).to_have_attribute("data-state", "conflict", timeout=20_000)
    screenshot(offline, "desk_time_up_offline_two_devices_conflict_360_ru")
    # The referee applies his queued deal: a different deal.
    bar.locator(".desk-conflict-device .desk-apply").first.click()
    expect(bar).to_have_attribute("data-state", "saved", timeout=20_000)

    # The in-time deal goes before the last one, and the party is decided again: 25 : 20.
    assert deals(party) == [(1, 25, 0), (2, 0, 20)]
    party.refresh_from_db()
    assert (party.status, party.winner, party.end_reason) == ("finished", "a", "time")
    first, last = Deal.objects.filter(party=party).order_by("number")
    assert first.entered_at < party.time_expired_at < last.entered_at
    expect(offline.locator("[data-total=a]")).to_have_text("25", timeout=10_000)
    expect(offline.locator("[data-total=b]")).to_have_text("20")
    expect(offline.locator("#log")).to_contain_text("перед коном 1 (теперь 2)")
    online.reload()
    expect(online.locator("[data-total=a]")).to_have_text("25")
    assert page_width(offline) <= PHONE["width"]
    screenshot(offline, "desk_time_up_offline_two_devices_synced_360_ru")
    screenshot(online, "desk_time_up_offline_two_devices_other_360_ru")
    assert script_errors(offline) == [] and script_errors(online) == []


def test_a_device_that_never_measured_the_servers_clock_says_the_arrival_counts(
    new_page, live_server, referee_user, party, screenshot
):
    page = phone_ru(new_page, live_server.url, referee_user.username)
    open_screen(page, live_server.url, party.pk, "ru")
    page.context.set_offline(True)
    page.evaluate("localStorage.removeItem('desk.clockOffset')")
    page.reload()  # the device's copy, offline: nothing to measure the server's clock by
    expect(page.locator("html[data-from-cache]")).to_have_count(1)
    quick_deal(page, "a", "10")
    bar = page.locator(SYNC)
    expect(bar).to_have_attribute("data-pending", "1")
    expect(bar.locator(".desk-sync-clock")).to_have_text(
        "Часы сервера ещё не известны: будет учтено время поступления, а не время ввода.")
    assert page_width(page) <= PHONE["width"]
    screenshot(page, "desk_time_up_offline_clock_unknown_360_ru")

    page.context.set_offline(False)
    expect(bar).to_have_attribute("data-state", "saved", timeout=20_000)
    expect(bar.locator(".desk-sync-clock")).to_have_count(0)
    deal = Deal.objects.get(party=party)
    assert (deal.points_a, deal.entered_at) == (10, None)  # the server took its arrival
