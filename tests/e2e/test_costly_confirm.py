"""Costly one-click actions of the organizer's pages in a real Chromium: the button asks in a
dialog that names the consequence, cancelling changes nothing; without scripts the server
asks on a page of its own. Screenshots in tests/e2e/screenshots/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring.core.errors import ServiceError
from scoring.models import TournamentRole
from scoring.signoff import pins
from tests.e2e import a11y
from tests.e2e.helpers import PHONE, SHOTS, log_in, watch_errors

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
QUESTION = "Все 16 напечатанных листков перестанут действовать"


def _russian(page: Page, base: str) -> None:
    page.context.add_cookies([{"name": "django_language", "value": "ru", "url": base}])


def _signs(tournament, printed: dict[int, str]) -> bool:
    """Whether every printed PIN still signs."""
    try:
        for player in tournament.players.all():
            pins.check_pin(player, printed[player.pk])
    except ServiceError:
        return False
    return True


def test_new_pins_for_everyone_ask_and_cancelling_keeps_the_printed_ones(
        new_page, live_server, tournament, organizer):
    printed = {item.player.pk: item.pin
               for item in pins.generate_pins(tournament.pk, actor=organizer)}
    base = live_server.url
    page = new_page(phone=True)
    log_in(page, base, organizer.username)
    _russian(page, base)
    page.goto(f"{base}/t/{tournament.slug}/people/")
    every = page.locator("button[name=pins][value=all]")
    expect(every).to_have_text("Новые PIN-коды всем игрокам (старые перестанут работать)")

    every.click()
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(QUESTION)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "pins_reset_360_dialog.png"))
    dialog.get_by_role("button", name="Отменить").click()
    expect(dialog).to_be_hidden()
    page.wait_for_timeout(500)  # nothing is sent after a cancel
    assert _signs(tournament, printed)

    every.click()  # asked again; this time confirmed: the new slips download
    expect(dialog).to_contain_text(QUESTION)
    with page.expect_download() as download:
        dialog.get_by_role("button", name="Да, выполнить").click()
    assert download.value.suggested_filename == f"pins-{tournament.slug}.pdf"
    assert not _signs(tournament, printed)
    assert page.errors == [], page.errors


def test_without_scripts_the_server_asks_on_a_page(browser, live_server, tournament,
                                                   organizer):
    printed = {item.player.pk: item.pin
               for item in pins.generate_pins(tournament.pk, actor=organizer)}
    base = live_server.url
    context = browser.new_context(locale="en-US", viewport=PHONE, java_script_enabled=False)
    try:
        page = context.new_page()
        page.errors = watch_errors(page)
        log_in(page, base, organizer.username)
        _russian(page, base)
        page.goto(f"{base}/t/{tournament.slug}/people/")
        page.locator("button[name=pins][value=all]").click()
        expect(page.locator("#ask-first-text")).to_contain_text(QUESTION)
        page.screenshot(path=str(SHOTS / "pins_reset_360_no_script.png"), full_page=True)
        page.get_by_role("link", name="Отменить").click()
        expect(page.locator("#pins")).to_be_visible()
        assert _signs(tournament, printed)
    finally:
        context.close()


def test_removing_a_referee_asks_and_cancelling_keeps_him(new_page, live_server, tournament,
                                                         organizer, referee_user):
    role = TournamentRole.objects.get(tournament=tournament, user=referee_user)
    base = live_server.url
    page = new_page()
    log_in(page, base, organizer.username)
    page.goto(f"{base}/referee/t/{tournament.slug}/referees/")
    page.locator(f"#role-{role.pk}").get_by_role("button", name="Remove").click()
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_contain_text("is removed from this tournament")
    dialog.get_by_role("button", name="Cancel").click()
    page.wait_for_timeout(500)
    assert TournamentRole.objects.filter(pk=role.pk).exists()
    page.locator(f"#role-{role.pk}").get_by_role("button", name="Remove").click()
    dialog.get_by_role("button", name="Yes, do it").click()
    expect(page.locator(".messages")).to_contain_text("The referee was removed.")
    assert not TournamentRole.objects.filter(pk=role.pk).exists()
    assert page.errors == [], page.errors


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_question_passes_axe(browser, live_server, tournament, organizer, lang):
    """The dialog and the server's question page: no serious or critical axe violation."""
    pins.generate_pins(tournament.pk, actor=organizer)
    context = a11y.phone_context(browser, lang, axe=True)
    try:
        page = a11y.open_page(context)
        a11y.log_in(page, live_server.url, organizer.username, "pw")
        page.goto(f"{live_server.url}/t/{tournament.slug}/people/")
        a11y.in_language(page, lang)
        every = page.locator("button[name=pins][value=all]")
        every.click()
        expect(page.locator("#confirm-dialog")).to_be_visible()
        found = a11y.blocking(a11y.axe_violations(page))
        assert found == [], a11y.describe(found)
        page.keyboard.press("Escape")  # closing the dialog sends nothing
        expect(page.locator("#confirm-dialog")).to_be_hidden()
        every.evaluate("button => button.removeAttribute('data-confirm')")
        every.click()  # as without scripts: the server asks on its page
        expect(page.locator("#ask-first")).to_be_visible()
        found = a11y.blocking(a11y.axe_violations(page))
        assert found == [], a11y.describe(found)
        assert page.errors == [], page.errors
    finally:
        context.close()
