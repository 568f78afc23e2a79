"""The desk's queue at the worst moment, on a 360 × 740 phone in Russian.

A refused deal (the server did nothing: the entry is wrong) keeps the referee's values in its
form with the message next to the field, in words, and does not block the warning tapped after
it; an impatient triple tap on "Записать кон" stores one deal and no empty one; queued deals
each read their own number; a change from another device is decided entry by entry.
Screenshots: tests/e2e/screenshots/desk_refused_ru_360.png, desk_conflict_ru_360.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from scoring.models import Deal, Penalty
from tests.e2e.a11y import describe, serious_here
from tests.e2e.desk_helpers import SYNC, open_screen, phone_ru, pick_winner, quick_deal
from tests.e2e.helpers import PHONE, page_width

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DEAL = "#deal-entry"








def enter_refused_deal(page: Page) -> Locator:
    """Сергей Смирнов (A2) went out, yet the referee typed pips for him: the server refuses
    the deal. Returns the deal form."""
    pick_winner(page, "a")
    form = page.locator(f"{DEAL} form.ref-deal")
    form.locator("details.ref-more", has=page.locator("[name=pips_a2]")).locator("summary").click()
    form.locator("select[name=went_out]").select_option("a2")
    for seat, pips in (("a1", "5"), ("a2", "10"), ("b1", "7"), ("b2", "3")):
        form.locator(f"[name=pips_{seat}]").fill(pips)
    page.click("#btn-deal")
    return form


def test_a_refused_deal_keeps_its_values_in_words_and_blocks_nothing(
    new_page, live_server, referee_user, party, screenshot
):
    page = phone_ru(new_page, live_server.url, referee_user.username)
    open_screen(page, live_server.url, party.pk)
    page.context.set_offline(True)

    form = enter_refused_deal(page)
    page.wait_for_timeout(1600)  # a new tap, not a double one
    page.click("[data-warning=talking-b]")
    bar = page.locator(SYNC)
    expect(bar).to_have_attribute("data-pending", "2")

    page.context.set_offline(False)
    expect(bar).to_have_attribute("data-state", "refused", timeout=20_000)
    expect(bar).to_have_attribute("data-pending", "0")
    # The warning after it went on; the refused deal made nothing.
    assert list(Penalty.objects.filter(party=party).values_list("kind", "side")) == [
        ("warning", "b")]
    assert not Deal.objects.filter(party=party).exists()

    # The referee's values are back in the form, the message by the field, in words.
    expect(form.locator("[name=pips_a2]")).to_have_value("10")
    expect(form.locator("[name=pips_b1]")).to_have_value("7")
    expect(form.locator("select[name=went_out]")).to_have_value("a2")
    expect(form.locator("input[name=winner][value=a]")).to_be_checked()
    message = form.locator(".desk-field-error")
    expect(message).to_have_count(1)
    expect(message).to_contain_text("Сергей Смирнов (A2)")
    expect(message).to_contain_text("закончил кон")
    assert "pips" not in message.inner_text() and " a2" not in message.inner_text()
    pips = form.locator("[name=pips_a2]")
    expect(pips).to_have_attribute("aria-invalid", "true")
    # Next to the field: the message follows the field's own label.
    follows = pips.evaluate("el => el.closest('label').nextElementSibling.className")
    assert "desk-field-error" in follows
    expect(bar).to_contain_text("Возвращено в форму")
    expect(page.locator(f"{DEAL} h2")).to_have_text("Кон 1")  # the entry's own number again
    expect(page.locator("[data-total=a]")).to_have_text("0")
    assert page_width(page) <= PHONE["width"]
    screenshot(page, "desk_refused_ru_360")
    assert (found := serious_here(page)) == [], describe(found)

    # Corrected (the player who went out has no pips) and recorded again: it replaces the
    # refused entry, which leaves the bar.
    pips.fill("")
    page.click("#btn-deal")
    expect(bar).to_have_attribute("data-state", "saved", timeout=20_000)
    expect(form.locator(".desk-field-error")).to_have_count(0)
    deal = Deal.objects.get(party=party)
    assert (deal.number, deal.winner, deal.went_out) == (1, "a", "a2")
    assert deal.points_a == 15


def test_a_refusal_never_clobbers_the_next_entry_being_typed(
    new_page, live_server, referee_user, party
):
    page = phone_ru(new_page, live_server.url, referee_user.username)
    open_screen(page, live_server.url, party.pk)
    page.context.set_offline(True)
    form = enter_refused_deal(page)
    page.wait_for_timeout(1600)
    pick_winner(page, "b")  # the next deal, being typed when the refusal arrives
    page.fill("#deal-points", "12")

    page.context.set_offline(False)
    bar = page.locator(SYNC)
    expect(bar).to_have_attribute("data-state", "refused", timeout=20_000)
    expect(page.locator("#deal-points")).to_have_value("12")
    expect(form.locator("input[name=winner][value=b]")).to_be_checked()
    expect(form.locator(".desk-field-error")).to_have_count(0)
    expect(bar.locator(".desk-refusals .desk-sync-reason")).to_contain_text(
        "Игрок Сергей Смирнов (A2) закончил кон")

    # Put back on the referee's tap, after a question (the form holds something else).
    page.once("dialog", lambda dialog: dialog.accept())
    bar.locator(".desk-put-back").click()
    expect(form.locator("[name=pips_a2]")).to_have_value("10")
    expect(form.locator("input[name=winner][value=a]")).to_be_checked()
    expect(form.locator(".desk-field-error")).to_contain_text("Сергей Смирнов (A2)")
    expect(bar.locator(".desk-put-back")).to_have_count(0)
    # Dropped: the refused values leave the form with it.
    bar.locator(".desk-drop").click()
    expect(bar).to_have_attribute("data-state", "saved")
    expect(form.locator("[name=pips_a2]")).to_have_value("")
    expect(form.locator(".desk-field-error")).to_have_count(0)
    assert not Deal.objects.filter(party=party).exists()


def test_a_triple_tap_stores_one_deal_and_no_refused_one(
    new_page, live_server, referee_user, party
):
    page = phone_ru(new_page, live_server.url, referee_user.username)
    open_screen(page, live_server.url, party.pk)
    pick_winner(page, "a")
    page.fill("#deal-points", "25")
    for _ in range(3):  # the server's answer replaces the form between the taps
        page.tap("#btn-deal")
        page.wait_for_timeout(350)
    bar = page.locator(SYNC)
    expect(bar).to_have_attribute("data-state", "saved", timeout=20_000)
    page.wait_for_timeout(1500)
    expect(bar).to_have_attribute("data-state", "saved")
    expect(bar.locator(".desk-refusals")).to_have_count(0)
    assert list(Deal.objects.filter(party=party).values_list("number", "points_a")) == [(1, 25)]
    expect(page.locator(f"{DEAL} h2")).to_have_text("Кон 2")
    assert not [error for error in page.errors if error.startswith("400")], page.errors


def test_queued_deals_each_read_their_own_number_even_after_a_reload(
    new_page, live_server, referee_user, party
):
    page = phone_ru(new_page, live_server.url, referee_user.username)
    open_screen(page, live_server.url, party.pk)
    page.context.set_offline(True)
    quick_deal(page, "a", "10")
    quick_deal(page, "b", "20")
    page.reload()  # from the device's copy, which still says "Кон 1"
    expect(page.locator("html[data-from-cache]")).to_have_count(1)
    quick_deal(page, "a", "30")
    bar = page.locator(SYNC)
    expect(bar).to_have_attribute("data-pending", "3")
    bar.locator(".desk-sync-toggle").click()
    labels = bar.locator(".desk-sync-item strong")
    expect(labels).to_have_count(3)
    assert [text.split(" · ")[0] for text in labels.all_inner_texts()] == [
        "Кон 1", "Кон 2", "Кон 3"]
    expect(page.locator(f"{DEAL} h2")).to_have_text("Кон 4")
    page.context.set_offline(False)
    expect(bar).to_have_attribute("data-state", "saved", timeout=20_000)
    assert list(Deal.objects.filter(party=party).order_by("number")
                .values_list("number", "points_a", "points_b")) == [
        (1, 10, 0), (2, 0, 20), (3, 30, 0)]


def test_a_conflict_shows_both_sides_and_is_decided_entry_by_entry(
    new_page, live_server, referee_user, party, screenshot
):
    first = phone_ru(new_page, live_server.url, referee_user.username)
    open_screen(first, live_server.url, party.pk)
    second = phone_ru(new_page, live_server.url, referee_user.username)

    first.context.set_offline(True)
    quick_deal(first, "a", "15")
    first.wait_for_timeout(1600)
    quick_deal(first, "a", "15")  # the same deal entered twice by mistake
    first.click("[data-warning=talking-a]")
    expect(first.locator(SYNC)).to_have_attribute("data-pending", "3")

    open_screen(second, live_server.url, party.pk)  # meanwhile the other device: deal 1
    quick_deal(second, "b", "40")
    expect(second.locator(".ref-flash.ok")).to_contain_text("Кон 1")

    first.context.set_offline(False)
    bar = first.locator(SYNC)
    expect(bar).to_have_attribute("data-state", "conflict", timeout=20_000)
    server = bar.locator(".desk-conflict-server li")
    expect(server).to_have_count(1)
    expect(server).to_contain_text("Кон 1")
    expect(server).to_contain_text("40")
    mine = bar.locator(".desk-conflict-device .desk-sync-item")
    expect(mine).to_have_count(3)
    expect(bar.locator(".desk-apply")).to_have_count(3)  # one per entry, none for them all
    expect(bar.locator(".desk-reapply")).to_have_count(0)
    assert first.evaluate("() => getComputedStyle(document.querySelector("
                          "'.desk-conflict-sides')).gridTemplateColumns.split(' ').length") == 1
    assert page_width(first) <= PHONE["width"]
    screenshot(first, "desk_conflict_ru_360")
    assert (found := serious_here(first)) == [], describe(found)
    assert list(Deal.objects.filter(party=party).values_list("number", "points_b")) == [(1, 40)]

    # The first deal applied: it becomes deal 2; nothing else goes with it.
    mine.nth(0).locator(".desk-apply").click()
    expect(mine).to_have_count(2, timeout=20_000)
    expect(bar).to_have_attribute("data-state", "conflict")
    assert list(Deal.objects.filter(party=party).order_by("number")
                .values_list("number", "points_a", "points_b")) == [(1, 0, 40), (2, 15, 0)]
    assert not Penalty.objects.filter(party=party).exists()

    # The duplicate dropped (after a question), the warning applied.
    first.once("dialog", lambda dialog: dialog.accept())
    mine.nth(0).locator(".desk-drop").click()
    expect(mine).to_have_count(1)
    mine.nth(0).locator(".desk-apply").click()
    expect(bar).to_have_attribute("data-state", "saved", timeout=20_000)
    assert Deal.objects.filter(party=party).count() == 2
    assert Penalty.objects.filter(party=party, kind="warning", side="a").count() == 1
