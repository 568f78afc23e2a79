"""The referee's party screen offline, in a real Chromium at 360 × 740.

After one visit the screen opens without a network (its service worker); actions taken offline
wait in the device's queue (IndexedDB), shown in the sync bar, survive a reload and are sent in
order when the network returns; a change made meanwhile on another device stops the queue with
a visible conflict, each entry to apply or drop — nothing lost, nothing applied twice.
Screenshots of the pending, reloaded and conflict states go to tests/e2e/screenshots/.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Deal, PartyEvent, Penalty
from tests.e2e.desk_helpers import pick_winner
from tests.e2e.helpers import PHONE, log_in, page_width, watch_errors

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SYNC = "#desk-sync"


def open_screen(page: Page, base_url: str, party_id: int) -> None:
    """Open the party screen and wait until the device keeps it for offline use."""
    page.goto(f"{base_url}/referee/party/{party_id}/")
    expect(page.locator("html[data-offline-ready]")).to_have_count(1)
    expect(page.locator(SYNC)).to_have_attribute("data-state", "saved")


def record_deal(page: Page, side: str, points: str, double_tap: bool = False) -> None:
    """Quick entry: who won, the points, record."""
    pick_winner(page, side.lower())
    page.fill("#deal-points", points)
    if double_tap:
        page.dblclick("#btn-deal")
    else:
        page.click("#btn-deal")


def deal_rows(party) -> list[tuple[int, int, int, str]]:
    return list(Deal.objects.filter(party=party).order_by("number")
                .values_list("number", "points_a", "points_b", "client_id"))


def test_actions_taken_offline_are_kept_and_sent_in_order(
    new_page, live_server, referee_user, party, screenshot
):
    page = new_page(phone=True)
    log_in(page, live_server.url, referee_user.username)
    open_screen(page, live_server.url, party.pk)
    started = PartyEvent.objects.filter(party=party).count()

    page.context.set_offline(True)
    for points in ("10", "20"):
        record_deal(page, "A", points)
    record_deal(page, "A", "30", double_tap=True)  # the second tap sends the emptied form: once
    bar = page.locator(SYNC)
    expect(bar).to_have_attribute("data-pending", "3")
    # A confirmation comes first: cancelled, nothing is queued; confirmed, the action is.
    warning = page.locator("[data-warning=talking-b]")
    warning.evaluate("b => b.form.setAttribute('hx-confirm', 'Warn pair B?')")
    page.once("dialog", lambda dialog: dialog.dismiss())
    warning.click()
    page.wait_for_timeout(300)
    expect(bar).to_have_attribute("data-pending", "3")
    page.once("dialog", lambda dialog: dialog.accept())
    warning.click()
    expect(bar).to_have_attribute("data-pending", "4")
    expect(bar).to_have_attribute("data-state", "offline")
    expect(bar).to_contain_text("4 pending")
    page.click(".desk-sync-toggle")
    expect(page.locator(".desk-sync-item")).to_have_count(4)
    expect(page.locator(".desk-sync-item").first).to_contain_text("Points: 10")
    expect(page.locator(".desk-sync-item").last).to_contain_text("Warnings")
    screenshot(page, "desk_offline_pending_360")
    assert deal_rows(party) == [] and not Penalty.objects.filter(party=party).exists()

    # The tab reloaded without a network: the screen comes from the device, the queue too.
    page.reload()
    expect(page.locator("html[data-from-cache]")).to_have_count(1)
    expect(page.locator("#btn-deal")).to_be_visible()
    expect(bar).to_have_attribute("data-pending", "4")
    expect(page.locator("#scoreboard .clock")).not_to_have_text("")
    assert page_width(page) <= PHONE["width"]
    screenshot(page, "desk_offline_reloaded_360")
    first_errors = page.errors

    # The tab closed and a new one opened, still offline: the screen and the queue are there.
    context = page.context
    page.close()
    page = context.new_page()
    page.errors = watch_errors(page)
    page.goto(f"{live_server.url}/referee/party/{party.pk}/")
    expect(page.locator("html[data-from-cache]")).to_have_count(1)
    bar = page.locator(SYNC)
    expect(bar).to_have_attribute("data-pending", "4")

    page.context.set_offline(False)
    expect(bar).to_have_attribute("data-state", "saved", timeout=20_000)
    expect(bar).to_contain_text("All saved")
    # The server's own scoreboard has come (the device's provisional sum is not the proof).
    provisional = re.compile(r"\bis-provisional\b")
    expect(page.locator("#scoreboard")).not_to_have_class(provisional, timeout=10_000)
    expect(page.locator("[data-total=a]")).to_have_text("60")
    rows = deal_rows(party)
    assert [(n, a, b) for n, a, b, _cid in rows] == [(1, 10, 0), (2, 20, 0), (3, 30, 0)]
    assert len({cid for *_rest, cid in rows}) == 3
    warnings = list(Penalty.objects.filter(party=party).values_list("kind", "category", "side"))
    assert warnings == [("warning", "talking", "b")]
    kinds = list(PartyEvent.objects.filter(party=party).order_by("seq")
                 .values_list("kind", flat=True))[started:]
    assert kinds == ["deal_recorded", "deal_recorded", "deal_recorded", "warning"]
    screenshot(page, "desk_offline_synced_360")

    # The device's copy took the server's latest panel: offline again, it opens as it is now.
    page.wait_for_timeout(500)
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("html[data-from-cache]")).to_have_count(1)
    expect(page.locator("[data-total=a]")).to_have_text("60")
    expect(bar).to_have_attribute("data-state", "saved")
    assert first_errors == [] and page.errors == []  # no script error, nothing refused by the CSP


def test_a_rate_limited_answer_is_a_wait_not_a_failure(new_page, live_server, referee_user,
                                                       party):
    """A queue replayed after an outage meets a 429 of a rate limit on the way (a proxy's: not
    the desk's answer): the entry stays pending, says it waits, and is sent again after the
    Retry-After with the same key; nothing is lost or recorded twice."""
    page = new_page(phone=True)
    log_in(page, live_server.url, referee_user.username)
    open_screen(page, live_server.url, party.pk)
    page.context.set_offline(True)
    for points in ("10", "20"):
        record_deal(page, "A", points)
    bar = page.locator(SYNC)
    expect(bar).to_have_attribute("data-pending", "2")
    limited = []

    def rate_limit(route):
        if route.request.method == "POST" and len(limited) < 2:
            limited.append(route.request.headers.get("idempotency-key"))
            route.fulfill(status=429, headers={"Retry-After": "1", "Content-Type": "text/html"},
                          body="<h1>429 Too Many Requests</h1>")
        else:
            route.continue_()

    page.route(re.compile(r"/referee/party/\d+/[a-z-]+/$"), rate_limit)
    page.context.set_offline(False)
    expect(bar).to_contain_text("the server asks to wait: sent again in 5 s")
    expect(bar).to_have_attribute("data-state", "pending")
    expect(bar).to_have_attribute("data-state", "saved", timeout=30_000)
    assert len(limited) == 2 and limited[0] == limited[1]  # the same entry, the same key
    assert [(n, a, b) for n, a, b, _cid in deal_rows(party)] == [(1, 10, 0), (2, 20, 0)]


def test_a_change_from_another_device_meanwhile_is_a_visible_conflict(
    new_page, live_server, referee_user, party, screenshot
):
    first = new_page(phone=True)
    log_in(first, live_server.url, referee_user.username)
    open_screen(first, live_server.url, party.pk)
    second = new_page(phone=True)
    log_in(second, live_server.url, referee_user.username)

    first.context.set_offline(True)
    record_deal(first, "A", "15")
    first.click("[data-warning=talking-a]")
    expect(first.locator(SYNC)).to_have_attribute("data-pending", "2")

    # Meanwhile the other device records deal 1.
    open_screen(second, live_server.url, party.pk)
    record_deal(second, "B", "40")
    expect(second.locator(".ref-flash.ok")).to_contain_text("Deal 1")

    first.context.set_offline(False)
    bar = first.locator(SYNC)
    expect(bar).to_have_attribute("data-state", "conflict", timeout=20_000)
    expect(bar).to_contain_text("changed on another device")
    # Side by side: the server's deal since this device last synced, and the device's entries.
    expect(bar.locator(".desk-conflict-server li")).to_have_count(1)
    expect(bar.locator(".desk-conflict-server")).to_contain_text("Deal 1")
    held = bar.locator(".desk-conflict-device .desk-sync-item")
    expect(held).to_have_count(2)
    expect(held.first).to_contain_text("Points: 15")
    expect(first.locator("[data-total=b]")).to_have_text("40")  # the server's state
    expect(held.locator(".desk-apply")).to_have_count(2)  # each entry its own; none for all
    expect(first.locator(".desk-reapply")).to_have_count(0)
    screenshot(first, "desk_offline_conflict_360")
    assert [(n, a, b) for n, a, b, _cid in deal_rows(party)] == [(1, 0, 40)]
    assert not Penalty.objects.filter(party=party).exists()  # nothing applied behind his back

    # The deal applied on the server's state becomes deal 2; the warning waits for its own tap.
    held.first.locator(".desk-apply").click()
    expect(held).to_have_count(1, timeout=20_000)
    expect(bar).to_have_attribute("data-state", "conflict")
    rows = deal_rows(party)
    assert [(n, a, b) for n, a, b, _cid in rows] == [(1, 0, 40), (2, 15, 0)]
    assert not Penalty.objects.filter(party=party).exists()
    held.first.locator(".desk-apply").click()
    expect(bar).to_have_attribute("data-state", "saved", timeout=20_000)
    rows = deal_rows(party)
    assert [(n, a, b) for n, a, b, _cid in rows] == [(1, 0, 40), (2, 15, 0)]
    assert len({cid for *_rest, cid in rows}) == 2
    assert Penalty.objects.filter(party=party, kind="warning", side="a").count() == 1

    # Another conflict, dropped this time: the action is gone by the referee's choice only.
    first.context.set_offline(True)
    record_deal(first, "A", "5")
    expect(first.locator(SYNC)).to_have_attribute("data-pending", "1")
    second.reload()
    record_deal(second, "B", "7")
    expect(second.locator(".ref-flash.ok")).to_contain_text("Deal 3")
    first.context.set_offline(False)
    expect(bar).to_have_attribute("data-state", "conflict", timeout=20_000)
    first.once("dialog", lambda dialog: dialog.accept())
    first.click(".desk-drop")
    expect(bar).to_have_attribute("data-state", "saved")
    assert [(n, a, b) for n, a, b, _cid in deal_rows(party)] == [(1, 0, 40), (2, 15, 0),
                                                                   (3, 0, 7)]
    expect(first.locator("[data-total=b]")).to_have_text("47")


def test_a_warning_that_became_a_fine_offline_waits_for_the_referees_confirmation(
    new_page, live_server, referee_user, party, screenshot
):
    """Two talking warnings tapped offline: on the server the second is a fine, so it asks."""
    page = new_page(phone=True)
    log_in(page, live_server.url, referee_user.username)
    open_screen(page, live_server.url, party.pk)
    page.context.set_offline(True)
    warning = page.locator("[data-warning=talking-b]")
    warning.click()
    page.wait_for_timeout(1600)  # not a double tap: the referee means it twice
    warning.click()
    bar = page.locator(SYNC)
    expect(bar).to_have_attribute("data-pending", "2")

    page.context.set_offline(False)
    expect(bar).to_have_attribute("data-state", "confirm", timeout=20_000)
    question = bar.locator(".desk-sync-question")
    expect(question).to_contain_text("25")
    screenshot(page, "desk_offline_confirm_360")
    kinds = list(Penalty.objects.filter(party=party).values_list("kind", flat=True))
    assert kinds == ["warning"]  # the fine waits for the referee

    page.click(".desk-confirm")
    expect(bar).to_have_attribute("data-state", "saved", timeout=20_000)
    kinds = list(Penalty.objects.filter(party=party).order_by("pk").values_list("kind", "points"))
    assert kinds == [("warning", 0), ("fine", 25)]
    asked = f"409 {live_server.url}/referee/party/{party.pk}/warning/"
    assert page.errors == [asked]  # the question, once; no script error


def shown_seconds(page: Page) -> int:
    """The party clock as the screen shows it, in seconds."""
    text = page.locator("#scoreboard .clock").first.inner_text().replace("−", "-")
    minutes, seconds = text.split(":")
    sign = -1 if minutes.startswith("-") else 1
    return sign * (abs(int(minutes)) * 60 + int(seconds))


def clock_error(page: Page, party) -> float:
    """How far the screen's clock is from the server's, in seconds (reading it takes a moment,
    and the screen shows whole seconds ticking once a second)."""
    shown = shown_seconds(page)
    party.refresh_from_db()
    return abs(shown - party.seconds_left())


TOLERANCE = 3.0


def test_the_clock_runs_on_the_servers_time_even_from_the_devices_copy(
    new_page, live_server, referee_user, party
):
    page = new_page(phone=True)
    page.clock.set_system_time(datetime.now() + timedelta(minutes=10))  # the phone runs fast
    log_in(page, live_server.url, referee_user.username)
    open_screen(page, live_server.url, party.pk)
    assert clock_error(page, party) <= TOLERANCE

    page.wait_for_timeout(8_000)  # the copy kept on the device grows older
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("html[data-from-cache]")).to_have_count(1)
    page.wait_for_timeout(1_200)
    assert clock_error(page, party) <= TOLERANCE  # counted from the copy's time, not from now


def test_an_entry_taken_while_the_last_answer_is_shown_goes_at_once(
    new_page, live_server, referee_user, party
):
    """A referee quick enough to record the next deal while the desk is still finishing the
    last one (its answer shown, the sender about to stop): the entry goes with the same sender,
    not after the retry pause that waits for another tab's sender."""
    page = new_page(phone=True)
    log_in(page, live_server.url, referee_user.username)
    open_screen(page, live_server.url, party.pk)
    # The moment the first deal's answer is on the screen, the next deal is tapped.
    page.evaluate("""() => { const DELAY = 0;
      document.addEventListener("htmx:afterSwap", function next(event) {
        if (!event.detail || !event.detail.deskOffline) { return; }
        document.removeEventListener("htmx:afterSwap", next);
        setTimeout(() => {  // the desk is back in its sender, reading the queue once more
          document.querySelector("#deal-entry input[name=winner][value=b]").click();
          document.querySelector("#deal-points").value = "20";
          document.querySelector("#btn-deal").click();
        }, DELAY);
      });
    }""")
    record_deal(page, "A", "10")
    # Both are on the server well inside the 5 s the desk waits before it retries.
    expect(page.locator("[data-total=b]")).to_have_text("20", timeout=3500)
    expect(page.locator(SYNC)).to_have_attribute("data-state", "saved")
    assert [(n, a, b) for n, a, b, _cid in deal_rows(party)] == [(1, 10, 0), (2, 0, 20)]
