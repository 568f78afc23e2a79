"""The way in, end to end (#37's acceptance), on phones in Russian at 360 px: a player finds the
tournament in the calendar, enters with his partner (both confirm: the partner by his mailed
link), takes the 16th place; the 17th pair waits and moves up (with its mail) when a pair
withdraws; at the hall he checks in by the door QR while the organizer ticks others off; the
draw of round 1 seats only the checked-in pairs and its notes name the others.
Screenshots: tests/e2e/screenshots/way-in-*-ru-360.png."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from scoring.models import CheckIn, Entry, Party
from tests.e2e.a11y import in_language, log_in, open_page, phone_context
from tests.e2e.helpers import PHONE, page_width
from tests.e2e.test_online_entry import _enter_with, _fifteen_pairs, _link
from tournaments.checkin import services as checkin
from tournaments.entries.decisions import update_entry_settings
from tournaments.entries.tokens import make_token
from tournaments.registration.services import add_table
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds
from tournaments.setup.services import create_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CONFIRM = "Подтверждаю: играю в этой паре"


def _narrow(page, name: str, screenshot) -> None:
    """Take the screenshot and fail when the page scrolls sideways on the phone."""
    screenshot(page, f"way-in-{name}-ru-360")
    assert page_width(page) <= PHONE["width"], f"{name}: {page_width(page)} px wide"


def test_from_the_calendar_to_the_draw_of_round_1(browser, live_server, organizer, make_user,
                                                   screenshot):
    start = timezone.localdate() + timedelta(days=3)
    cup = create_tournament(name="Кубок «Осень»", slug="osen", organizer=organizer,
                            city="Казань", venue="Клуб «Домино»", start_date=start)
    create_tournament(name="Кубок Перми", slug="kubok-permi", organizer=organizer,
                      city="Пермь", start_date=start)
    for number in range(1, 9):
        add_table(cup, number)
    update_entry_settings(cup.pk, open=True, capacity=16, confirm_hours=24)
    early = _fifteen_pairs(cup, make_user)
    make_user("ivan", email="ivan@example.org", first_name="Иван", last_name="Петров")
    make_user("boris", email="boris@example.org", first_name="Борис", last_name="Ёлкин")
    base = live_server.url

    # the player finds the tournament in the calendar (filtered by city) and enters
    page = open_page(phone_context(browser, "ru"))
    log_in(page, base, "ivan", "pw")
    page.goto(f"{base}/calendar/")
    in_language(page, "ru")
    page.select_option("#id_city", "Казань")
    page.get_by_role("button", name="Показать").click()
    upcoming = page.locator("#calendar-upcoming")
    expect(page.get_by_role("link", name="Кубок Перми")).to_have_count(0)
    expect(upcoming.locator(".entry-state")).to_have_text("Идёт приём заявок")
    _narrow(page, "1-calendar", screenshot)
    upcoming.get_by_role("link", name="Кубок «Осень»").click()
    card = page.locator("#how-to-enter")
    expect(card).to_contain_text("осталось: 1")
    _narrow(page, "2-tournament", screenshot)
    card.get_by_role("link", name="Заявка на турнир").click()
    _enter_with(page, "Пётр Щукин", "petr@example.org", "Ждёт партнёра")

    partner = open_page(phone_context(browser, "ru"))
    partner.goto(base + _link("petr@example.org", "partner"))
    expect(partner.locator("main")).to_contain_text("Иван Петров / Пётр Щукин")
    partner.get_by_role("button", name=CONFIRM).click()
    expect(partner.locator("#entry-status")).to_have_text("Получена")
    _narrow(partner, "3-partner-confirmed", screenshot)

    # the 17th pair: the places are taken, it waits
    boris = open_page(phone_context(browser, "ru"))
    log_in(boris, base, "boris", "pw")
    boris.goto(f"{base}/calendar/")
    expect(boris.locator("#calendar-upcoming .entry-state")).to_have_text("Лист ожидания")
    boris.goto(f"{base}/t/osen/enter/")
    expect(boris.locator("#full")).to_be_visible()
    _enter_with(boris, "Глеб Юдин", "gleb@example.org", "В листе ожидания")
    partner.goto(base + _link("gleb@example.org", "partner"))
    partner.get_by_role("button", name=CONFIRM).click()
    expect(partner.locator("#entry-status")).to_have_text("В листе ожидания")
    _narrow(partner, "4-seventeenth-waits", screenshot)

    # the organizer accepts the 16th pair; an early pair withdraws by its entry's link
    org = open_page(phone_context(browser, "ru"))
    log_in(org, base, organizer.username, "pw")
    org.goto(f"{base}/t/osen/entries/")
    ours = Entry.objects.get(email="ivan@example.org")
    org.locator(f"#entry-{ours.pk}").get_by_role("button", name="Принять").click()
    expect(org.locator(f"#entry-{ours.pk}")).to_contain_text("Принята")
    mail.outbox.clear()
    quitter = open_page(phone_context(browser, "ru"))
    quitter.goto(f"{base}/entries/{make_token('entry', early[0].pk)}/")
    quitter.on("dialog", lambda dialog: dialog.accept())
    quitter.get_by_role("button", name="Отозвать заявку").click()
    expect(quitter.locator("#entry-status")).to_have_text("Отозвана")
    promoted = [m for m in mail.outbox if "boris@example.org" in m.to]
    assert promoted and "место ваше" in promoted[0].subject, [m.subject for m in mail.outbox]
    boris.reload()
    expect(boris.locator("#entry-status")).to_have_text("Получена")
    waiting = Entry.objects.get(email="boris@example.org")
    org.reload()
    org.locator(f"#entry-{waiting.pk}").get_by_role("button", name="Принять").click()
    expect(org.locator(f"#entry-{waiting.pk}")).to_contain_text("Принята")
    pairs = list(checkin.entrants(cup))
    assert len(pairs) == 16

    # check-in: ivan by the door QR, the organizer ticks boris off, ten more on their phones
    window = checkin.open_window(cup, closes_at=timezone.now() + timedelta(minutes=30))
    ivans = Entry.objects.get(pk=ours.pk).pair
    borises = Entry.objects.get(pk=waiting.pk).pair
    others = [p for p in pairs if p not in (ivans, borises)]
    for pair in others[:10]:
        checkin.check_in(window.pk, pair, how=CheckIn.How.PHONE)
    org.goto(f"{base}/t/osen/checkin/{window.pk}/qr/")
    expect(org.locator("#door svg.qr")).to_be_visible()
    door = org.locator("#door code").inner_text()
    page.goto(door)
    expect(page.locator("#checkin")).to_contain_text(ivans.display_name)
    page.get_by_role("button", name="Я на месте").click()
    expect(page.locator("#checkin .checkin-done")).to_contain_text("Отмечены в")
    _narrow(page, "5-door-checkin", screenshot)
    org.goto(f"{base}/t/osen/checkin/")
    expect(org.locator(f"#entrant-{ivans.pk}")).to_contain_text("по QR-коду у входа")
    org.locator(f"#entrant-{borises.pk}").get_by_role("button", name="На месте").click()
    expect(org.locator("#checked-count")).to_have_text("отметились 12 из 16")
    _narrow(org, "6-checkin-list", screenshot)
    org.get_by_role("button", name="Закрыть отметку").click()
    expect(org.locator(".messages")).to_contain_text("Отметка закрыта: отметились 12 из 16")

    # the draw of round 1 seats the twelve checked in; its notes name the four others
    rnd = draw_services.generate_draw(rounds.create_round(cup.pk).pk)
    seated = {pk for sides in Party.objects.filter(round=rnd).values_list("pair_a", "pair_b")
              for pk in sides}
    assert seated == {p.pk for p in [ivans, borises, *others[:10]]}
    org.goto(f"{base}/t/osen/rounds/1/")
    notes = org.locator(".warnings")
    expect(notes).to_contain_text("Не отметились и пропускают этот тур:")
    for pair in others[10:]:
        expect(notes).to_contain_text(pair.display_name)
    _narrow(org, "7-draw-notes", screenshot)
    for p in (page, partner, boris, org, quitter):
        assert p.errors == [], p.errors
