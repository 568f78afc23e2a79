"""The provisional scoreboard offline, in a real Chromium at 360 × 740, in Russian.

Deals queued on the device are added to the server's last confirmed totals on the phone, with
the deal number and the party's end, marked "not yet saved"; after the sync the scoreboard is
the server's, with the same numbers. The rule data the page carries scores deals as the
server does, for several rule sets (the browser's sums against the server's totals of the same
form fields). Screenshots: tests/e2e/screenshots/desk_board_*.png.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Page, expect

from scoring.models import Party
from scoring.totals.compute import party_totals
from tests.e2e.desk_helpers import open_screen, phone_ru, pick_winner
from tests.e2e.helpers import PHONE, page_width
from tests.referee.test_rule_sets_desk import make_desk

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SYNC = "#desk-sync"
BOARD = "#scoreboard"
NOTE = "#scoreboard [data-board-note]"






def quick_deal(page: Page, side: str, points: int) -> None:
    """Quick entry: who won, the points, record."""
    pick_winner(page, side)
    page.fill("#deal-points", str(points))
    page.click("#btn-deal")


def detailed_deal(page: Page, outcome: str, pips: dict[str, int], went_out: str = "") -> None:
    """A domino or a fish entered with the pips left in each hand."""
    choice = page.locator(f"input[name=outcome][value={outcome}]")
    page.locator("#deal-entry label", has=choice).click()
    details = page.locator("#deal-entry details.ref-more", has=page.locator("input[name=pips_a1]"))
    if not details.evaluate("d => d.open"):
        details.locator("summary").click()
    if went_out:
        details.locator("select[name=went_out]").select_option(went_out)
    for seat, value in pips.items():
        details.locator(f"input[name=pips_{seat}]").fill(str(value))
    page.click("#btn-deal")


def shown(page: Page) -> tuple[int, int, int]:
    """The scoreboard's totals of A and B and the deal number in play."""
    board = page.locator(BOARD)
    return (
        int(board.locator("[data-total=a]").inner_text()),
        int(board.locator("[data-total=b]").inner_text()),
        int(board.locator("[data-deal-in-play]").inner_text()),
    )


def server_points(party_id: int) -> tuple[int, int]:
    party = Party.objects.select_related("round__tournament__regulations").get(pk=party_id)
    points = party_totals(party).points
    return points["a"], points["b"]


def test_six_deals_offline_show_their_sum_not_saved_then_the_servers(
    new_page, live_server, referee_user, party, screenshot
):
    page = phone_ru(new_page, live_server.url, referee_user.username)
    open_screen(page, live_server.url, party.pk, "ru")
    assert shown(page) == (0, 0, 1)

    page.context.set_offline(True)
    quick_deal(page, "a", 30)
    quick_deal(page, "b", 25)
    # A domino: A1 went out; every hand's pips (5 + 10 + 12) to pair A.
    detailed_deal(page, "domino", {"a2": 5, "b1": 10, "b2": 12}, went_out="a1")
    # A fish: pair A holds fewer pips (7 against 19) and scores all 26.
    detailed_deal(page, "fish", {"a1": 3, "a2": 4, "b1": 10, "b2": 9})
    quick_deal(page, "b", 40)
    quick_deal(page, "a", 15)
    expect(page.locator(SYNC)).to_have_attribute("data-pending", "6")

    expect(page.locator("#scoreboard [data-total=a]")).to_have_text("98")
    assert shown(page) == (98, 65, 7)
    assert "is-provisional" in (page.locator(BOARD).get_attribute("class") or "")
    expect(page.locator(NOTE)).to_be_visible()
    expect(page.locator(NOTE)).to_contain_text("Не сохранено")
    expect(page.locator(NOTE)).to_contain_text("(6)")
    assert page_width(page) <= PHONE["width"]
    screenshot(page, "desk_board_offline_ru_360")

    # The tab reloaded without a network: the device's copy and its queue give the same board.
    page.reload()
    expect(page.locator("html[data-from-cache]")).to_have_count(1)
    expect(page.locator("#scoreboard [data-total=a]")).to_have_text("98")
    assert shown(page) == (98, 65, 7)

    page.context.set_offline(False)
    expect(page.locator(SYNC)).to_have_attribute("data-state", "saved", timeout=20_000)
    expect(page.locator(NOTE)).to_be_hidden(timeout=10_000)
    assert "is-provisional" not in (page.locator(BOARD).get_attribute("class") or "")
    assert server_points(party.pk) == (98, 65)
    assert shown(page) == (98, 65, 7)  # the server's scoreboard, the same numbers
    screenshot(page, "desk_board_synced_ru_360")
    assert page.errors == []


def test_time_up_offline_says_the_deal_in_play_is_the_last_one(
    new_page, live_server, referee_user, party, screenshot
):
    # The party's clock has a few seconds left when the phone loses the network.
    limit = party.limit_seconds
    Party.objects.filter(pk=party.pk).update(
        started_at=timezone.now() - timedelta(seconds=limit - 6)
    )
    page = phone_ru(new_page, live_server.url, referee_user.username)
    open_screen(page, live_server.url, party.pk, "ru")
    phase = page.locator("#scoreboard .ref-phase")
    expect(phase).to_have_text("Идёт игра")

    page.context.set_offline(True)
    quick_deal(page, "a", 20)  # played in time
    expect(phase).to_have_text("Идёт игра")
    expect(phase).to_have_text("Время вышло: текущий кон — последний", timeout=15_000)
    screenshot(page, "desk_board_time_up_ru_360")

    quick_deal(page, "b", 10)  # the deal in play at the expiry: the last one
    expect(phase).to_contain_text("Время вышло: побеждает")
    expect(phase).to_contain_text("Иван Петров")
    assert shown(page) == (20, 10, 3)
    screenshot(page, "desk_board_time_won_ru_360")


# The same form fields, scored by the page's rule data in the browser and by the server.
CASES = {
    "sport, the partner's pips not counted, a drawn fish carries": (
        "sport", {"domino_counts_partner": False, "drawn_fish": "carry"}, [
            {"outcome": "domino", "winner": "a", "points": "30"},
            {"outcome": "domino", "went_out": "b1", "pips_a1": "10", "pips_a2": "5",
             "pips_b2": "7"},
            {"outcome": "fish", "pips_a1": "5", "pips_a2": "5", "pips_b1": "6", "pips_b2": "4"},
            {"outcome": "fish", "pips_a1": "1", "pips_a2": "2", "pips_b1": "6", "pips_b2": "9"},
        ]),
    "Latin pairs, a tied fish to the pair that led": (
        "latin", {}, [
            {"outcome": "fish", "led": "b2", "pips_a1": "5", "pips_a2": "5", "pips_b1": "6",
             "pips_b2": "4"},
            {"outcome": "domino", "went_out": "a2", "pips_a1": "3", "pips_b1": "8",
             "pips_b2": "2"},
            {"outcome": "domino", "winner": "b", "points": "17"},
        ]),
    "the Draw game, two players": (
        "draw", {}, [
            {"outcome": "domino", "winner": "a1", "points": "20"},
            {"outcome": "domino", "went_out": "b1", "pips_a1": "12"},
            {"outcome": "fish", "pips_a1": "3", "pips_b1": "8"},
        ]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_rule_data_scores_deals_as_the_server_does(
    case, new_page, live_server, make_user, settings
):
    code, regulations, deals = CASES[case]
    desk = make_desk(make_user, code, **regulations)
    desk.referee.set_password("pw")
    desk.referee.save()
    page = phone_ru(new_page, live_server.url, desk.referee.username)
    page.goto(f"{live_server.url}/referee/party/{desk.party_id}/")
    fields = [[list(pair) for pair in deal.items()] for deal in deals]
    device = page.evaluate(
        """(deals) => {
            const data = JSON.parse(document.getElementById("desk-board-data").textContent);
            const result = DeskBoard.provisional(
                data, deals.map((fields) => ({ fields: fields, at: 0 })), 0);
            return { points: result.points, unscored: result.unscored };
        }""",
        fields,
    )
    page.context.close()  # nothing more from the browser while the test thread writes
    client = Client()
    client.force_login(desk.referee)
    for deal in deals:
        answer = client.post(f"/referee/party/{desk.party_id}/deal/", deal)
        assert answer.status_code == 302, answer.content.decode()[:2000]
    party = Party.objects.select_related("round__tournament__regulations").get(pk=desk.party_id)
    assert party.deals.count() == len(deals)
    assert device["unscored"] == 0
    assert device["points"] == party_totals(party).points


def test_a_game_counted_on_the_server_says_the_score_waits(
    new_page, live_server, make_user, screenshot
):
    desk = make_desk(make_user, "kozel")
    desk.referee.set_password("pw")
    desk.referee.save()
    page = phone_ru(new_page, live_server.url, desk.referee.username)
    open_screen(page, live_server.url, desk.party_id, "ru")
    page.context.set_offline(True)
    for seat, value in (("a1", "0"), ("b1", "5"), ("a2", "13"), ("b2", "2")):
        page.fill(f"#deal-entry input[name=points_{seat}]", value)
    page.click("#btn-deal")
    expect(page.locator(NOTE)).to_contain_text("Счёт ждёт сервера")
    expect(page.locator("#scoreboard [data-deal-in-play]")).to_have_text("2")
    # The totals shown are the server's, not marked as the device's own sum.
    assert "is-provisional" not in (page.locator(BOARD).get_attribute("class") or "")
    screenshot(page, "desk_board_waits_ru_360")
