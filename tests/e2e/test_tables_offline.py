"""My tables and the party screens of the referee's live round open offline, at 360 × 740 in
Russian (Debian's Chromium, the live server on localhost: a secure context).

The referee opens My tables once online; the network goes; My tables reloads from the device's
copy, says it is one, and a party screen of the round he never opened opens from the copy the
service worker kept for it. Screenshots: tables_offline_ru.png, tables_offline_party_ru.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.helpers import PHONE, page_width

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

COPY_NOTE = "#from-cache"


def russian_phone(browser: Browser) -> BrowserContext:
    """A 360 × 740 touch phone in Russian."""
    return browser.new_context(
        locale="ru-RU", viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2
    )


def log_in_ru(page: Page, base_url: str, username: str) -> None:
    """Log in through the form (in Russian): the referee lands on My tables."""
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw")
    page.locator("main form button[type=submit]").click()
    expect(page).to_have_url(f"{base_url}/referee/tables/")


def test_my_tables_and_its_party_screens_open_offline(
    browser, live_server, referee_user, party, make_party, screenshot
):
    pairs = list(party.round.tournament.pairs.order_by("id"))
    other = make_party(pairs[2], pairs[3], table_number=2, round_number=party.round.number)
    context = russian_phone(browser)
    try:
        page = context.new_page()
        script_errors: list[str] = []
        page.on("pageerror", lambda err: script_errors.append(str(err)))
        log_in_ru(page, live_server.url, referee_user.username)
        expect(page.locator("main h1")).to_have_text("Мои столы")
        # The device keeps My tables and the party screens it lists.
        expect(page.locator("html[data-offline-ready]")).to_have_count(1)
        expect(page.locator("html")).to_have_attribute("data-parties-kept", "2")
        expect(page.locator(COPY_NOTE)).to_be_hidden()  # the server's page: no note

        context.set_offline(True)
        page.reload()
        expect(page.locator("html[data-from-cache]")).to_have_count(1)
        expect(page.locator("main h1")).to_have_text("Мои столы")
        for shown in (party, other):
            card = page.locator(f"[data-party='{shown.pk}']")
            expect(card).to_contain_text(f"Стол {shown.table.number}")
            expect(card).to_contain_text(shown.pair_a.display_name)
        note = page.locator(COPY_NOTE)
        expect(note).to_be_visible()
        expect(note).to_contain_text("Копия на этом устройстве, состояние на")
        expect(note).to_contain_text("нет связи с сервером")
        assert page_width(page) <= PHONE["width"]
        screenshot(page, "tables_offline_ru")

        # A party screen of the round he never opened: it opens from the kept copy.
        page.locator(f"[data-party='{other.pk}'] a.mt-link").click()
        expect(page).to_have_url(f"{live_server.url}/referee/party/{other.pk}/")
        expect(page.locator("html[data-from-cache]")).to_have_count(1)
        expect(page.locator("#scoreboard")).to_contain_text(other.pair_b.player1.name)
        expect(page.locator("#btn-start")).to_be_visible()
        expect(page.locator(COPY_NOTE)).to_contain_text("Копия на этом устройстве")
        assert page_width(page) <= PHONE["width"]
        screenshot(page, "tables_offline_party_ru")

        # The network is back: the screen takes the server's state and the note goes.
        context.set_offline(False)
        expect(page.locator(COPY_NOTE)).to_be_hidden(timeout=20_000)
        assert script_errors == []
    finally:
        context.close()
