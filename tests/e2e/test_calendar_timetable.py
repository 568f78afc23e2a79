"""The calendar and the timetable in the browser, in Russian at 360 px: a visitor filters the
calendar by city and finds the tournament, its page shows the venue, the dates and the
timetable, and the hall screen counts down to the next round, updating without a reload."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scoring.models import Round
from tests.e2e.a11y import in_language, log_in, open_page
from tests.e2e.helpers import PHONE, page_width
from tournaments.schedule.services import create_item
from tournaments.setup.services import create_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_visitor_finds_the_tournament_and_its_timetable(browser, live_server, organizer,
                                                           screenshot):
    soon = timezone.now().replace(second=0, microsecond=0) + timedelta(minutes=13)
    kazan = create_tournament(name="Кубок Казани", slug="kubok-kazani", organizer=organizer,
                              city="Казань", venue="Дворец спорта «Ак Барс»",
                              start_date=timezone.localdate(), time_zone="Europe/Moscow")
    create_tournament(name="Кубок Перми", slug="kubok-permi", organizer=organizer,
                      city="Пермь", start_date=timezone.localdate())
    Round.objects.create(tournament=kazan, number=1, status=Round.Status.DRAFT,
                         scheduled_start=soon)
    create_item(kazan, kind="opening", starts_at=soon - timedelta(minutes=30))
    create_item(kazan, kind="break", starts_at=soon + timedelta(hours=2),
                ends_at=soon + timedelta(hours=2, minutes=30))
    create_item(kazan, kind="prizes", title="Награждение победителей",
                starts_at=soon + timedelta(hours=5))
    context = browser.new_context(locale="ru-RU", viewport=PHONE, is_mobile=True,
                                  has_touch=True)
    context.set_default_timeout(10_000)
    page = open_page(context)
    base = live_server.url

    page.goto(base + "/")
    page.locator("header nav").get_by_role("link", name="Календарь").click()
    in_language(page, "ru")
    expect(page.locator("h1")).to_have_text("Календарь турниров")
    page.select_option("#id_city", "Казань")
    page.get_by_role("button", name="Показать").click()
    upcoming = page.locator("#calendar-upcoming")
    expect(upcoming.get_by_role("link", name="Кубок Казани")).to_be_visible()
    expect(page.get_by_role("link", name="Кубок Перми")).to_have_count(0)
    screenshot(page, "calendar_city_phone_ru")
    assert page_width(page) <= PHONE["width"], f"the calendar is {page_width(page)} px wide"

    upcoming.get_by_role("link", name="Кубок Казани").click()
    timetable = page.locator("#timetable")
    expect(timetable).to_contain_text("Дворец спорта «Ак Барс», Казань")
    rows = timetable.locator("tbody tr")
    expect(rows).to_have_count(4)
    labels = [rows.nth(k).locator("td").nth(1).inner_text() for k in range(4)]
    assert labels == ["Открытие зала", "Тур 1", "Перерыв", "Награждение победителей"]
    start = timezone.localtime(soon).strftime("%H:%M")
    expect(rows.nth(1)).to_contain_text(start)
    screenshot(page, "tournament_timetable_phone_ru")
    assert page_width(page) <= PHONE["width"], f"the page is {page_width(page)} px wide"

    page.goto(f"{base}/t/{kazan.slug}/hall/")
    coming = page.locator("#hall-coming")
    expect(coming).to_contain_text(f"Тур 1 начнётся в {start} — через")
    expect(coming).to_contain_text(re.compile(r"через 1[23] мин"))
    screenshot(page, "hall_countdown_phone_ru")
    # the minutes run down in the browser: a start three minutes off shows at the next tick
    page.evaluate("""() => { const el = document.querySelector('#hall-coming [data-starts-at]');
        el.dataset.startsAt = String(Math.floor(Date.now() / 1000) + 170); }""")
    expect(coming).to_contain_text("через 3 мин")
    assert page.errors == []
    context.close()


def test_the_organizer_moves_a_round_and_the_later_ones_follow(browser, live_server, organizer,
                                                               screenshot):
    start = timezone.now().replace(hour=10, minute=0, second=0, microsecond=0)
    cup = create_tournament(name="Кубок Казани", slug="kubok-kazani-2", organizer=organizer,
                            city="Казань", time_zone="Europe/Moscow")
    for number in (1, 2):
        Round.objects.create(tournament=cup, number=number, status=Round.Status.DRAFT,
                             scheduled_start=start + timedelta(hours=2 * (number - 1)))
    create_item(cup, kind="prizes", starts_at=start + timedelta(hours=5))
    context = browser.new_context(locale="ru-RU", viewport=PHONE, is_mobile=True,
                                  has_touch=True)
    context.set_default_timeout(10_000)
    page = open_page(context)
    log_in(page, live_server.url, organizer.username, "pw")
    page.goto(f"{live_server.url}/t/{cup.slug}/timetable/")
    in_language(page, "ru")
    form = page.locator("#round-start-1")
    local = timezone.localtime(start + timedelta(minutes=20))
    form.locator("input[type=datetime-local]").fill(local.strftime("%Y-%m-%dT%H:%M"))
    form.get_by_label("Сдвинуть последующие на то же время").check()
    screenshot(page, "timetable_edit_phone_ru")
    assert page_width(page) <= PHONE["width"], f"the page is {page_width(page)} px wide"
    form.get_by_role("button", name="Сохранить начало").click()
    expect(page.locator("ul.messages")).to_contain_text(
        "2 последующих пункта")
    second = Round.objects.get(tournament=cup, number=2).scheduled_start
    assert second == start + timedelta(hours=2, minutes=20)
    assert page.errors == []
    context.close()
