"""The team match sheet on the referee's phone (360 × 740, Russian): both captains sign with
their PINs, a wrong PIN is refused on the page, the referee countersigns and downloads the
signed PDF; no sideways scroll at any step.

Screenshots: team_sheet_ru.png (awaiting the captains), team_sheet_signed_ru.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Pair, Player
from scoring.signoff.pins import set_signing_pin
from tests.e2e.helpers import in_own_thread, page_width
from tests.e2e.test_tables_offline import log_in_ru, russian_phone
from tests.protocols.team_sheets import LONG_NAMES, TEAM_A, decide, make_team_match

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_captains_and_referee_sign_the_sheet_on_a_phone(browser, live_server, tournament,
                                                       referee_user, organizer, screenshot,
                                                       settings, tmp_path):
    settings.PROTOCOL_SIGNING_DIR = tmp_path / "signing"
    settings.MEDIA_ROOT = tmp_path / "media"
    made = {}

    def setup() -> None:
        tm = decide(make_team_match(tournament, referee_user), referee_user)
        captain_b = Player.objects.get(
            pk=Pair.objects.filter(team=tm.team_b).order_by("id")[0].player1_id)
        set_signing_pin(tm.team_a.captain.pk, "4711", actor=organizer)
        set_signing_pin(captain_b.pk, "2468", actor=organizer)
        made["tm"] = tm

    in_own_thread(setup)
    tm = made["tm"]
    context = russian_phone(browser)
    try:
        page = context.new_page()
        log_in_ru(page, live_server.url, referee_user.username)
        page.goto(f"{live_server.url}/t/{tournament.slug}/team-matches/{tm.pk}/sheet/")
        expect(page.locator("h1")).to_have_text("Протокол командного матча")
        expect(page.locator("#team-score")).to_contain_text("1 : 1")
        expect(page.locator("#team-score")).to_contain_text(LONG_NAMES[0])
        assert page_width(page) <= 360
        screenshot(page, "team_sheet_ru")
        rows = page.locator("table.signatures tbody tr")
        rows.nth(0).locator("input[name=pin]").fill("0000")
        rows.nth(0).get_by_role("button", name="Подписать PIN-кодом").click()
        expect(page.locator("body")).to_contain_text("Неверный PIN")
        rows.nth(0).locator("input[name=pin]").fill("4711")
        rows.nth(0).get_by_role("button", name="Подписать PIN-кодом").click()
        expect(rows.nth(0)).to_contain_text("Подписан ")
        rows.nth(1).locator("select[name=player]").select_option(label=LONG_NAMES[2])
        rows.nth(1).locator("input[name=pin]").fill("2468")
        rows.nth(1).get_by_role("button", name="Подписать PIN-кодом").click()
        expect(rows.nth(1)).to_contain_text("Подписан ")
        page.get_by_role("button", name="Заверить протокол").click()
        expect(page.locator("#signatures")).to_contain_text("Подписан")
        assert page_width(page) <= 360
        screenshot(page, "team_sheet_signed_ru")
        with page.expect_download() as download:
            page.get_by_role("link", name="Скачать подписанный PDF").click()
        assert download.value.suggested_filename == f"team-match-r1-t1-v{1}.pdf"
        assert TEAM_A in page.content()
    finally:
        context.close()
