"""A team event in a browser (#36), on 360 px phones in Russian: the organizer registers two
teams by the team form and a third by the roster import (its ``team`` column), draws round 1
(one team match at tables 1–2, a bye); board 1's party is played through the services, then
the referee of board 2 records his party on the desk, and the team standings page (open on a
spectator's phone) refreshes itself: the match is decided, its winner leads with 2 match
points. The player of board 2 reads "your team match: table 2 (board 2) against …" in his
area. Screenshots: tests/e2e/screenshots/team-*.png.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Party, Team, TeamMatch
from tests.e2e.a11y import describe, serious_here
from tests.e2e.desk_helpers import open_screen, pick_winner
from tests.e2e.helpers import PHONE, in_own_thread, page_width
from tests.factories import TableFactory, TournamentFactory, TournamentRoleFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SLUG = "komandny-kubok"
BY_FORM = [
    ("Сборная Санкт-Петербурга и Ленинградской области", "Невский клуб", "Россия", [
        ("Вячеслав Преображенский", 1900), ("Александра Константинопольская", 1880),
        ("Святослав Мухоморов", 1850), ("Анастасия Воскресенская", 1820)]),
    ("Клуб «Дубль-шесть» из Верхнеднепровска", "Дубль-шесть", "Россия", [
        ("Владимир Рождественский", 1700), ("Екатерина Ли", 1690),
        ("Константин Верхнеднепровский", 1650), ("Евгения Голенищева-Кутузова", 1640)]),
]
IMPORTED = "Команда Новосибирского академгородка"
ROSTER = (
    "name,club,rating,partner,team\n"
    f"Пётр Первый,Академ,1500,Фёдор Второй,{IMPORTED}\n"
    "Фёдор Второй,Академ,1500,,\n"
    f"Юрий Третий,Академ,1450,Борис Четвёртый,{IMPORTED}\n"
    "Борис Четвёртый,Академ,1450,,\n"
)


def phone(new_page, base: str, username: str | None = None) -> Page:
    """A 360 px phone in Russian, logged in when a user is named."""
    page = new_page(phone=True)
    page.context.set_extra_http_headers({"Accept-Language": "ru"})
    page.context.add_cookies([{"name": "django_language", "value": "ru", "url": base}])
    if username:
        page.goto(f"{base}/accounts/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", "pw")
        page.locator("main form button[type=submit]").click()
        expect(page.locator("header .who")).to_have_text(username)
    return page


def narrow(page: Page) -> None:
    """Nothing wider than the phone."""
    assert page_width(page) <= PHONE["width"], f"{page.url} is {page_width(page)} px wide"


def register_by_form(page: Page, base: str, screenshot) -> None:
    """The two teams of ``BY_FORM``, each with two new pairs and its first player captain."""
    page.goto(f"{base}/t/{SLUG}/teams/new/")
    for k, (name, club, country, players) in enumerate(BY_FORM):
        page.fill("#id_name", name)
        page.fill("#id_club", club)
        page.fill("#id_country", country)
        for index, (player, rating) in enumerate(players):
            slot, seat = index // 2 + 1, index % 2 + 1
            page.fill(f"#id_pair{slot}_player{seat}_name", player)
            page.fill(f"#id_pair{slot}_player{seat}_rating", str(rating))
        page.select_option("#id_captain", "new:1:1")
        if k == 0:
            narrow(page)
            screenshot(page, "team-form-360-ru")
            page.locator("button[name=add_another]").click()
            expect(page).to_have_url(f"{base}/t/{SLUG}/teams/new/")
        else:
            page.locator("main form button.primary[type=submit]").click()
            expect(page).to_have_url(f"{base}/t/{SLUG}/teams/")
        expect(page.locator("ul.messages")).to_contain_text(name)


def register_by_import(page: Page, base: str, tmp_path: Path, screenshot) -> None:
    """The third team from a roster file with a ``team`` column."""
    page.goto(f"{base}/t/{SLUG}/import/")
    roster = tmp_path / "команда.csv"
    roster.write_text(ROSTER, encoding="utf-8")
    page.set_input_files("input[type=file]", str(roster))
    page.locator("button[name=action][value=preview]").click()
    expect(page.locator("button[name=action][value=import]")).to_be_visible()
    expect(page.locator("main")).to_contain_text(IMPORTED)
    screenshot(page, "team-import-360-ru")
    page.locator("button[name=action][value=import]").click()
    expect(page).to_have_url(f"{base}/t/{SLUG}/")


def draw_round_one(page: Page, base: str, screenshot) -> None:
    """Create round 1, draw it and publish it from the organizer's pages."""
    page.goto(f"{base}/t/{SLUG}/rounds/")
    page.locator(f"form[action='/t/{SLUG}/rounds/new/'] button").click()
    expect(page).to_have_url(f"{base}/t/{SLUG}/rounds/1/")
    page.locator(f"form[action='/t/{SLUG}/rounds/1/generate/'] button").first.click()
    expect(page.locator(f"form[action='/t/{SLUG}/rounds/1/publish/'] button")).to_be_visible()
    page.locator(f"form[action='/t/{SLUG}/rounds/1/publish/'] button").click()
    expect(page.locator(f"form[action='/t/{SLUG}/rounds/1/publish/']")).to_have_count(0)
    screenshot(page, "team-round-360-ru")


def play_in_a_thread(party_id: int, winner: str) -> None:
    """Start a party and let ``winner`` win it through the services, in a thread of its own
    (the protocol's signing runs an event loop, which Playwright's loop here would refuse)."""
    from referee.services.clock import start_party
    from tests.tournaments.play import play

    def work() -> None:
        start_party(party_id)
        play(party_id, winner)

    in_own_thread(work)


def standings_rows(page: Page) -> dict[str, list[str]]:
    """The team standings: per team name, its cells (#, team, MP, M, W–D–L, PW, ±)."""
    found = {}
    for row in page.locator("#team-standings tbody tr").all():
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        name = row.locator("td.team-cell a").inner_text().strip()
        found[name] = [cells[0], *cells[2:]]
    return found


def test_a_team_event_from_registration_to_the_team_standings(
        new_page, live_server, organizer, make_user, screenshot, tmp_path, settings):
    settings.PUBLIC_ETAG_VERSION_SECONDS = 0
    base = live_server.url
    t = TournamentFactory(name="Командный кубок России по спортивному домино", slug=SLUG,
                          organizer=organizer, format="teams")
    TableFactory.create_batch(4, tournament=t)
    referee = make_user("ref")
    TournamentRoleFactory(tournament=t, user=referee, role="referee")

    # The organizer registers two teams by the form and one by the roster import.
    org = phone(new_page, base, organizer.username)
    register_by_form(org, base, screenshot)
    register_by_import(org, base, tmp_path, screenshot)
    teams = {team.name: team for team in Team.objects.filter(tournament=t)}
    assert sorted(teams) == sorted([*(name for name, *_ in BY_FORM), IMPORTED])
    assert all(team.pairs.count() == 2 for team in teams.values())

    # Round 1: one team match at tables 1 and 2, the third team has a bye.
    draw_round_one(org, base, screenshot)
    match = TeamMatch.objects.select_related("team_a", "team_b").get(
        round__tournament=t, team_b__isnull=False)
    bye = TeamMatch.objects.select_related("team_a").get(round__tournament=t,
                                                         team_b__isnull=True).team_a
    assert match.first_table == 1
    board1 = Party.objects.get(team_match=match, board=1)
    board2 = Party.objects.select_related("pair_a__player1", "pair_b__player1", "table").get(
        team_match=match, board=2)
    assert board2.table.number == 2

    # The public draw shows the team match with its two boards.
    fan = phone(new_page, base)
    fan.goto(f"{base}/t/{SLUG}/draw/")
    card = fan.locator(f"#team-match-{match.pk}")
    expect(card.locator("h2")).to_contain_text(match.team_a.name)
    expect(card.locator("h2")).to_contain_text(match.team_b.name)
    expect(card.locator(".tcard-no")).to_have_text(["Доска 1 · Стол 1", "Доска 2 · Стол 2"])
    expect(fan.locator(".bye-line")).to_contain_text(bye.name)
    narrow(fan)
    screenshot(fan, "team-draw-360-ru")

    # The player of board 2 finds his table, his board and the other team in his area.
    me = board2.pair_a.player1
    player = phone(new_page, base)
    player.goto(f"{base}/p/{me.access_token}/")
    expect(player.locator(".next-team-match")).to_contain_text(
        f"Ваш командный матч: стол 2 (доска 2) против команды {match.team_b.name}")
    narrow(player)
    screenshot(player, "team-player-360-ru")

    # The team standings before board 2's party: board 1 is won, the match not decided.
    play_in_a_thread(board1.pk, "a")
    fan.clock.install()  # the page's own 10 s refresh is driven by the test
    fan.goto(f"{base}/t/{SLUG}/team-standings/")
    expect(fan.get_by_role("heading", level=1)).to_have_text("Командный зачёт")
    live = fan.locator(f"#live-match-{match.pk}")
    expect(live).to_contain_text("1 : 0 по партиям")
    expect(live).to_contain_text("1 партия завершена")
    before = standings_rows(fan)
    assert before[bye.name][1] == "2" and before[bye.name][3] == "1–0–0", before  # the bye
    assert before[match.team_a.name][1] == "0" and before[match.team_b.name][1] == "0", before
    narrow(fan)
    screenshot(fan, "team-standings-before-360-ru")

    # The referee of board 2 records his party on the desk: team A's pair wins it.
    ref = phone(new_page, base, referee.username)
    open_screen(ref, base, board2.pk, "ru")
    ref.locator("#btn-start").click()
    expect(ref.locator("#deal-entry")).to_be_visible()
    total = ref.locator("#scoreboard [data-total=a]")
    # 60 + 70 + 80: the target of 200 reached (each deal its own points: no double tap)
    for deal, (points, running) in enumerate([(60, 60), (70, 130), (80, 210)], start=1):
        expect(ref.locator("#deal-entry h2")).to_have_text(f"Кон {deal}")
        pick_winner(ref, "a")
        ref.fill("#deal-points", str(points))
        ref.click("#btn-deal")
        expect(total).to_have_text(str(running))
    expect(ref.locator("#deal-entry")).to_have_count(0)  # the party is over
    expect(ref.locator("#desk-sync")).to_have_attribute("data-state", "saved")
    assert Party.objects.get(pk=board2.pk).status == Party.Status.FINISHED
    narrow(ref)
    screenshot(ref, "team-desk-board-2-360-ru")

    # The standings page refreshes itself: the match is decided, its winner leads.
    fan.clock.run_for(11_000)
    expect(live).to_contain_text("2 : 0 по партиям", timeout=20_000)
    after = standings_rows(fan)
    assert after[match.team_a.name][1:5] == ["2", "1", "1–0–0", "2"]
    assert after[match.team_b.name][1:4] == ["0", "1", "0–0–1"]
    assert after[match.team_b.name][0] == "3"
    assert int(after[match.team_a.name][-1]) > 0 > int(after[match.team_b.name][-1])
    narrow(fan)
    screenshot(fan, "team-standings-after-360-ru")
    found = serious_here(fan)
    assert not found, describe(found)

    # The winning team's page: its match board by board, its pairs linked to their pages.
    fan.locator("#team-standings").get_by_role("link", name=match.team_a.name).click()
    expect(fan.get_by_role("heading", level=1)).to_have_text(match.team_a.name)
    boards = fan.locator(f"#team-match-{match.pk} .tm-boards li")
    expect(boards).to_have_count(2)
    expect(boards.nth(1)).to_contain_text("Доска 2 · Стол 2")
    expect(fan.locator("#members tbody tr")).to_have_count(2)
    narrow(fan)
    screenshot(fan, "team-page-360-ru")
    found = serious_here(fan)
    assert not found, describe(found)

    # The hall screen's panels: the team matches, then the team standings.
    hall = new_page()
    hall.context.set_extra_http_headers({"Accept-Language": "ru"})
    hall.set_viewport_size({"width": 1920, "height": 1080})
    hall.goto(f"{base}/t/{SLUG}/hall/?panel=matches-1")
    expect(hall.locator(".hall-team-matches tbody tr")).to_have_count(2)
    screenshot(hall, "team-hall-matches-1920")
    hall.goto(f"{base}/t/{SLUG}/hall/?panel=teams-1")
    expect(hall.locator(".hall-team-standings tbody tr")).to_have_count(3)
    screenshot(hall, "team-hall-standings-1920")
    for page in (org, fan, player, ref, hall):
        assert page.errors == [], page.errors
