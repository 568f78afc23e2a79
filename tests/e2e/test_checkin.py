"""Check-in at the hall in a browser (#37), on phones in Russian: a player opens the door QR's
link, logs in and taps «Я на месте»; the organizer's list (filtered by his name) shows him
checked in, the organizer ticks another pair off and closes check-in; the draw of round 1
seats only the checked-in pairs and its notes name the others. Screenshots:
tests/e2e/screenshots/checkin-*-360-ru.png."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scoring.models import CheckIn, Party
from tests.e2e.helpers import page_width
from tournaments.checkin import services
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _in_russian(page, live_server) -> None:
    page.context.set_extra_http_headers({"Accept-Language": "ru"})
    page.context.add_cookies([{"name": "django_language", "value": "ru",
                               "url": live_server.url}])


def test_check_in_by_the_door_qr_and_the_draw_of_checked_in_pairs(
        new_page, live_server, tournament, organizer, make_user, screenshot):
    pairs = list(tournament.pairs.order_by("pk"))
    ivan = pairs[0].player1
    ivan.user = make_user("ivan")
    ivan.save()
    window = services.open_window(tournament, closes_at=timezone.now() + timedelta(minutes=30))
    for pair in pairs[1:5]:  # four pairs checked in already, on their phones
        services.check_in(window.pk, pair, how=CheckIn.How.PHONE)

    desk = new_page(phone=True)
    _in_russian(desk, live_server)
    desk.context.add_cookies([{"name": "sessionid", "url": live_server.url,
                               "value": _session(organizer)}])
    desk.goto(f"{live_server.url}/t/{tournament.slug}/checkin/{window.pk}/qr/")
    expect(desk.locator("h1")).to_contain_text("Отметка перед туром 1")
    door = desk.locator("#door code").inner_text()
    expect(desk.locator("#door svg.qr")).to_be_visible()

    phone = new_page(phone=True)
    _in_russian(phone, live_server)
    phone.goto(door)  # not logged in: the login page first, then back to the code's page
    phone.get_by_label("Имя пользователя").fill("ivan")
    phone.get_by_label("Пароль").fill("pw")
    phone.locator("main form").get_by_role("button", name="Войти").click()
    expect(phone.locator("#checkin")).to_contain_text(pairs[0].display_name)
    phone.get_by_role("button", name="Я на месте").click()
    expect(phone.locator("#checkin .checkin-done")).to_contain_text("Отмечены в")
    assert page_width(phone) <= 360
    screenshot(phone, "checkin-door-360-ru")
    phone.goto(f"{live_server.url}/t/{tournament.slug}/me/")
    expect(phone.locator("#checkin")).to_contain_text("Вы отмечены")
    screenshot(phone, "checkin-area-360-ru")
    assert phone.errors == []

    desk.goto(f"{live_server.url}/t/{tournament.slug}/checkin/")
    desk.get_by_label("Найти пару или игрока").fill("Иван")
    desk.get_by_role("button", name="Найти", exact=True).click()
    row = desk.locator(f"#entrant-{pairs[0].pk}")
    expect(row).to_contain_text("по QR-коду у входа")
    desk.get_by_role("link", name="Показать всех").click()
    expect(desk.locator("#checked-count")).to_have_text("отметились 5 из 8")
    desk.locator(f"#entrant-{pairs[5].pk}").get_by_role("button", name="На месте").click()
    expect(desk.locator("#checked-count")).to_have_text("отметились 6 из 8")
    assert page_width(desk) <= 360
    screenshot(desk, "checkin-list-360-ru")
    desk.get_by_role("button", name="Закрыть отметку").click()
    expect(desk.locator(".messages")).to_contain_text("Отметка закрыта: отметились 6 из 8")

    rnd = draw_services.generate_draw(rounds.create_round(tournament.pk).pk)
    seated = {pk for sides in Party.objects.filter(round=rnd).values_list("pair_a", "pair_b")
              for pk in sides}
    assert seated == {pair.pk for pair in pairs[:6]}
    desk.goto(f"{live_server.url}/t/{tournament.slug}/rounds/1/")
    notes = desk.locator(".warnings")
    expect(notes).to_contain_text("Не отметились и пропускают этот тур:")
    for pair in pairs[6:]:
        expect(notes).to_contain_text(pair.display_name)
    assert page_width(desk) <= 360
    screenshot(desk, "checkin-draw-360-ru")
    assert desk.errors == []


def _session(user) -> str:
    """A session cookie of ``user`` (the organizer's phone is logged in)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.utils.module_loading import import_string

    store = import_string(f"{settings.SESSION_ENGINE}.SessionStore")()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return store.session_key
