"""Online entry in the browser, in Russian at 360 px: a player enters with his partner from the
tournament's page, the partner confirms by his mailed link, the organizer accepts; the 17th
pair lands on the waiting list and moves up (with its mail) when an accepted pair withdraws."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from scoring.models import Entry, EntrySettings
from tests.e2e.a11y import in_language, log_in, open_page, phone_context
from tests.e2e.helpers import PHONE, page_width
from tournaments.entries.decisions import decide_entry
from tournaments.entries.services import Person, confirm_partner, create_entry
from tournaments.entries.tokens import make_token
from tournaments.setup.services import create_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _link(address: str, kind: str) -> str:
    """The path of the last mailed link of ``kind`` to ``address``."""
    for message in reversed(mail.outbox):
        found = re.search(r"https?://[^/\s]+(/entries/\S+/" + kind + "/)", str(message.body))
        if address in message.to and found:
            return found.group(1)
    raise AssertionError(f"no {kind} link to {address}")


def _enter_with(page, partner: str, email: str, status: str) -> None:
    """Fill the entry form with the partner's name and address, enter, see ``status``."""
    page.fill("#id_partner_name", partner)
    page.fill("#id_partner_email", email)
    page.get_by_role("button", name="Заявиться").click()
    expect(page.locator("#entry-status")).to_have_text(status)


def _fifteen_pairs(tournament, make_user) -> list[Entry]:
    """Fifteen pairs entered, confirmed and accepted through the services."""
    accepted = []
    for n in range(1, 16):
        user = make_user(f"early{n}", email=f"early{n}@example.org")
        entry = create_entry(tournament.pk, Person(name=f"Ранний {n}"),
                             Person(name=f"Напарник {n}", email=f"mate{n}@example.org"),
                             user=user)
        confirm_partner(make_token("partner", entry.pk))
        accepted.append(decide_entry(entry.pk, "accept")[0])
    return accepted


def test_a_pair_enters_both_confirm_and_the_waiting_list_moves_up(
        browser, live_server, organizer, make_user, screenshot):
    cup = create_tournament(name="Кубок «Весна»", slug="vesna", organizer=organizer)
    EntrySettings.objects.create(tournament=cup, open=True, capacity=16, confirm_hours=24)
    early = _fifteen_pairs(cup, make_user)
    make_user("ivan", email="ivan@example.org", first_name="Иван", last_name="Петров")
    make_user("boris", email="boris@example.org")
    base = live_server.url
    context = phone_context(browser, "ru")
    page = open_page(context)
    log_in(page, base, "ivan", "pw")
    page.goto(f"{base}/t/vesna/")
    in_language(page, "ru")
    card = page.locator("#how-to-enter")
    expect(card).to_contain_text("Как заявиться")
    expect(card).to_contain_text("осталось: 1")
    screenshot(page, "entry-1-how-to-enter-ru-360")
    card.get_by_role("link", name="Заявка на турнир").click()
    page.fill("#id_partner_name", "Пётр Ёлкин")
    page.fill("#id_partner_email", "petr@example.org")
    assert page_width(page) <= PHONE["width"]
    screenshot(page, "entry-2-form-ru-360")
    page.get_by_role("button", name="Заявиться").click()
    expect(page.locator("#entry-status")).to_have_text("Ждёт партнёра")
    screenshot(page, "entry-3-waiting-for-partner-ru-360")

    partner = open_page(phone_context(browser, "ru"))
    partner.goto(base + _link("petr@example.org", "partner"))
    expect(partner.locator("main")).to_contain_text("Иван Петров / Пётр Ёлкин")
    partner.get_by_role("button", name="Подтверждаю: играю в этой паре").click()
    expect(partner.locator("#entry-status")).to_have_text("Получена")
    screenshot(partner, "entry-4-partner-confirmed-ru-360")

    boris = open_page(phone_context(browser, "ru"))
    log_in(boris, base, "boris", "pw")
    boris.goto(f"{base}/t/vesna/enter/")
    expect(boris.locator("#full")).to_be_visible()
    _enter_with(boris, "Глеб Щукин", "gleb@example.org", "В листе ожидания")
    expect(boris.locator("#entry")).to_contain_text("Место в листе ожидания: 1.")
    screenshot(boris, "entry-5-seventeenth-waits-ru-360")
    partner.goto(base + _link("gleb@example.org", "partner"))
    partner.get_by_role("button", name="Подтверждаю: играю в этой паре").click()
    expect(partner.locator("#entry-status")).to_have_text("В листе ожидания")

    org = open_page(phone_context(browser, "ru"))
    log_in(org, base, organizer.username, "pw")
    org.goto(f"{base}/t/vesna/entries/")
    ours = Entry.objects.get(email="ivan@example.org")
    item = org.locator(f"#entry-{ours.pk}")
    item.get_by_role("button", name="Принять").click()
    expect(org.locator(f"#entry-{ours.pk}")).to_contain_text("Принята")
    mail.outbox.clear()
    org.locator(f"#entry-{early[0].pk}").get_by_role("button", name="Снять с турнира").click()
    expect(org.locator("main")).to_contain_text("перешла из листа ожидания")
    assert page_width(org) <= PHONE["width"]
    screenshot(org, "entry-6-organizer-promoted-ru-360")
    waiting = Entry.objects.get(email="boris@example.org")
    assert waiting.status == "received"
    promoted = [m for m in mail.outbox if "boris@example.org" in m.to]
    assert promoted and "место ваше" in promoted[0].subject
    boris.reload()
    expect(boris.locator("#entry-status")).to_have_text("Получена")
    for p in (page, partner, boris, org):
        assert p.errors == [], p.errors
