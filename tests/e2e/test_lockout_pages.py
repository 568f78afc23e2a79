"""A browser locked out of the login form: the message with the minutes left, in Russian too;
the organizer finds the lockout from his tournaments, lifts it, and the user logs in at once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import log_in
from tests.factories import TournamentRoleFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_locked_login_and_the_organizers_unlock(browser, live_server, make_user, organizer,
                                                tournament, settings, screenshot):
    settings.AXES_FAILURE_LIMIT = 3
    settings.AXES_COOLOFF_TIME = timedelta(minutes=15)
    settings.LOGIN_COOLOFF_MINUTES = 15
    organizer.set_password("pw")
    organizer.save()
    referee = make_user("desk-ref")
    referee.set_password("pw")
    referee.save()
    TournamentRoleFactory(tournament=tournament, user=referee, role="referee")

    context = browser.new_context(locale="ru-RU", viewport={"width": 360, "height": 740})
    page = context.new_page()
    for _attempt in range(3):
        page.goto(f"{live_server.url}/accounts/login/")
        page.locator("#id_username").fill("desk-ref")
        page.locator("#id_password").fill("wrong")
        page.locator("main form button[type=submit]").click()
    expect(page.locator("#lockout-message")).to_have_text(
        "Слишком много неудачных входов под этим именем с вашего адреса: попробуйте снова "
        "через 15 минут.")
    screenshot(page, "login_locked_ru")
    page.goto(f"{live_server.url}/accounts/login/")
    page.locator("#id_username").fill("desk-ref")
    page.locator("#id_password").fill("pw")
    page.locator("main form button[type=submit]").click()
    expect(page.locator("#lockout-message")).to_be_visible()  # the right password waits too

    boss = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    desk = boss.new_page()
    log_in(desk, live_server.url, organizer.username)
    desk.goto(f"{live_server.url}/?mine=1")
    desk.get_by_role("link", name="Lockouts").click()
    row = desk.locator("#lockout-list tbody tr", has_text="desk-ref")
    expect(row).to_contain_text("Login form")
    expect(row).to_contain_text("127.0.0.1")
    screenshot(desk, "lockouts_log")
    row.get_by_role("button", name="Unlock").click()
    expect(desk.locator("#lockout-list tbody tr", has_text="desk-ref")).to_contain_text(
        "lifted by org")

    page.goto(f"{live_server.url}/accounts/login/")
    page.locator("#id_username").fill("desk-ref")
    page.locator("#id_password").fill("pw")
    page.locator("main form button[type=submit]").click()
    expect(page.locator("header .who")).to_have_text("desk-ref")
    context.close()
    boss.close()
