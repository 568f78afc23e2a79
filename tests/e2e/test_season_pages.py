"""A season in the browser, in Russian at 360 px and on a desktop: two tournaments of the same
four players, played through the services; the organizer groups them into a season on its
form, and the season table shows the expected places and totals and fits the phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from referee.services import start_party
from scoring.models import Party, Profile
from scoring.party.deals import record_deal
from tests.e2e.a11y import in_language, log_in, open_page
from tests.e2e.helpers import DESKTOP, PHONE, page_width
from tournaments.registration.services import add_table, register_pair, register_player
from tournaments.rounds.draw_services import generate_draw
from tournaments.rounds.services import create_round, publish_round
from tournaments.setup.services import create_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PEOPLE = ["Анна Каренина", "Лев Толстой", "Фёдор Достоевский", "Иван Тургенев"]


def _tournament(organizer, slug: str, partners: list[int], profiles: list[Profile],
                start: str):
    """A pairs tournament of the four people (pairs as ``partners`` says), one party played:
    pair A wins 240 : 0."""
    tournament = create_tournament(name=f"Вечер {slug}", slug=slug, organizer=organizer,
                                   start_date=start)
    players = []
    for k in partners:
        player = register_player(tournament, name=PEOPLE[k], club="Клуб «Дубль»")
        player.profile = profiles[k]
        player.save(update_fields=["profile"])
        players.append(player)
    register_pair(tournament, players[0], players[1])
    register_pair(tournament, players[2], players[3])
    add_table(tournament, 1)
    rnd = create_round(tournament.pk)
    generate_draw(rnd.pk)
    publish_round(rnd.pk)
    party = Party.objects.get(round=rnd)
    start_party(party.pk, actor=organizer)
    ours = players[0].pk in (party.pair_a.player1_id, party.pair_a.player2_id)
    pips = {"a1": 0, "a2": 10, "b1": 20, "b2": 30}  # the side going out scores 60
    if not ours:
        pips = {"a1": 20, "a2": 30, "b1": 0, "b2": 10}
    for _ in range(4):
        record_deal(party.pk, actor=organizer, outcome="domino",
                    went_out="a1" if ours else "b1", pips=pips)
    return tournament


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_season_of_two_tournaments_in_the_browser(browser, live_server, organizer,
                                                    screenshot, size):
    profiles = [Profile.objects.create(name=name, club="Клуб «Дубль»") for name in PEOPLE]
    # the first evening: Anna and Lev beat Fyodor and Ivan; the second: Anna and Fyodor beat
    # Lev and Ivan. The winning pair is 1st, the other 2nd: with points 10, 6, 4 Anna has 20,
    # Lev and Fyodor 16, Ivan 12 (Lev and Fyodor equal on every tie-break: they share 2nd).
    _tournament(organizer, "vecher-1", [0, 1, 2, 3], profiles, "2026-01-10")
    _tournament(organizer, "vecher-2", [0, 2, 1, 3], profiles, "2026-01-17")
    phone = size == "phone"
    context = browser.new_context(locale="ru-RU", viewport=PHONE if phone else DESKTOP,
                                  is_mobile=phone, has_touch=phone)
    context.set_default_timeout(10_000)
    page = open_page(context)
    base = live_server.url
    log_in(page, base, organizer.username, "pw")
    page.goto(base + "/?mine=1")
    page.get_by_role("link", name="Сезоны").click()
    page.get_by_role("link", name="Новый сезон").click()
    in_language(page, "ru")
    page.fill("#id_name", "Зимний сезон")
    page.fill("#id_slug", "zima")
    page.select_option("#id_scoring", "place_points")
    page.fill("#id_place_points", "10, 6, 4")
    page.get_by_label("Вечер vecher-1", exact=True).check()
    page.get_by_label("Вечер vecher-2", exact=True).check()
    screenshot(page, f"season_form_{size}_ru")
    if phone:
        assert page_width(page) <= PHONE["width"], f"the form is {page_width(page)} px wide"
    page.get_by_role("button", name="Сохранить").click()
    expect(page.locator("h1")).to_have_text("Зимний сезон")

    rows = page.locator("table.season-table tbody tr")
    expect(rows).to_have_count(4)
    lines = [[cell.strip() for cell in rows.nth(k).locator("td, th").all_inner_texts()]
             for k in range(4)]
    assert lines[0] == ["1", "Анна Каренина", "Клуб «Дубль»", "10", "10", "20"]
    assert sorted(line[:2] for line in lines[1:3]) == [["2", "Лев Толстой"],
                                                       ["2", "Фёдор Достоевский"]]
    assert lines[3] == ["4", "Иван Тургенев", "Клуб «Дубль»", "6", "6", "12"]
    screenshot(page, f"season_table_{size}_ru")
    if phone:
        assert page_width(page) <= PHONE["width"], f"the table is {page_width(page)} px wide"
    assert page.errors == []
