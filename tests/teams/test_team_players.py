"""Teams of players (#36): a team registers 4 to ``team_squad_players`` players and its
captain pairs four of them for each team match before the round is published; by default the
first four in registration order play (1 + 2 at board 1, 3 + 4 at board 2). The parties are
ordinary parties of pairs formed for the round."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import Pair, Party, Player, Team, TeamMatch, Tournament
from scoring.signoff.team_sheets.content import build_sheet_content
from tests.factories import PlayerFactory, TableFactory, TournamentFactory
from tests.tournaments.play import play
from tournaments.transfer.roster import import_roster

pytestmark = pytest.mark.django_db

RED = ["Анна Красная", "Борис Красный", "Вера Красная", "Глеб Красный", "Дина Красная"]
BLUE = ["Егор Синий", "Жанна Синяя", "Зоя Синяя", "Иван Синий"]


@pytest.fixture
def api(organizer):
    client = APIClient()
    client.force_authenticate(organizer)
    return client


@pytest.fixture
def event(organizer):
    """A team tournament of players (squad of 5 at most), two halves, 4 tables."""
    t = TournamentFactory(slug="squads", organizer=organizer, format=Tournament.Format.TEAMS)
    Tournament.objects.filter(pk=t.pk).update(
        team_halves=True, team_members=Tournament.TeamMembers.PLAYERS, team_squad_players=5)
    t.refresh_from_db()
    TableFactory.create_batch(4, tournament=t)
    return t


def _register(api, t, name, names, ratings=None, captain=""):
    ratings = ratings or [1500] * len(names)
    return api.post("/api/v1/teams/", {
        "tournament": t.pk, "name": name, "captain_name": captain,
        "players": [{"name": n, "rating": r} for n, r in zip(names, ratings, strict=True)]},
        format="json")


def _two_teams(api, t):
    red = _register(api, t, "Красные", RED, [1600, 1500, 1400, 1300, 1200], captain=RED[0])
    assert red.status_code == 201, red.data
    blue = _register(api, t, "Синие", BLUE)
    assert blue.status_code == 201, blue.data
    return red.data, blue.data


def _ids(team):
    return [p["id"] for p in team["players"]]


def _seated(tm, team):
    """The team's players at board 1 and board 2 of the first half, by name."""
    side = "pair_a" if tm.team_a_id == team.pk else "pair_b"
    out = []
    for party in Party.objects.filter(team_match=tm, half=1).order_by("board").select_related(
            f"{side}__player1", f"{side}__player2"):
        pair = getattr(party, side)
        out.append((pair.player1.name, pair.player2.name))
    return out


def test_registration_refusals_write_nothing(api, event):
    red, _blue = _two_teams(api, event)
    assert red["rating"] == 1400 and [p["name"] for p in red["players"]] == RED
    assert red["pairs"] == []
    teams, players = Team.objects.count(), Player.objects.count()
    few = _register(api, event, "Трое", ["Один", "Два", "Три"])
    assert few.status_code == 400 and "players" in few.data
    many = _register(api, event, "Шестеро", [f"Игрок {n}" for n in range(6)])
    assert many.status_code == 400 and "players" in many.data
    taken = api.post("/api/v1/teams/", {
        "tournament": event.pk, "name": "Перебежчики",
        "players": [{"player": red["players"][0]["id"]}, *[{"name": f"Новый {n}"}
                                                           for n in range(3)]]},
        format="json")
    assert taken.status_code == 400 and "Красные" in str(taken.data["players"])
    pairs = api.post("/api/v1/teams/", {"tournament": event.pk, "name": "Пары", "pairs": []},
                     format="json")
    assert pairs.status_code == 400 and "players" in pairs.data
    assert (Team.objects.count(), Player.objects.count()) == (teams, players)


def test_default_pairing_then_the_captain_pairs_his_players(api, event, make_user):
    red, blue = _two_teams(api, event)
    rid = api.post("/api/v1/rounds/", {"tournament": event.pk}, format="json").data["id"]
    assert api.post(f"/api/v1/rounds/{rid}/generate/", {}, format="json").status_code == 200
    tm = TeamMatch.objects.get(round_id=rid)
    team = Team.objects.get(pk=red["id"])
    # by default the first four in registration order: 1 + 2 at board 1, 3 + 4 at board 2
    assert _seated(tm, team) == [(RED[0], RED[1]), (RED[2], RED[3])]
    formed = Pair.objects.filter(formed_in_round_id=rid, team=team)
    assert formed.count() == 2

    captain = make_user("captain")
    Player.objects.filter(name=RED[0]).update(user=captain)
    client = APIClient()
    client.force_authenticate(captain)
    p = _ids(red)
    url = f"/api/v1/team-matches/{tm.pk}/lineup/"
    before = sorted(Party.objects.filter(team_match=tm).values_list("pair_a", "pair_b"))
    for players, wrong in (([p[4], p[4], p[0], p[1]], "twice"),
                           ([p[4], p[0], p[1], _ids(blue)[0]], BLUE[0])):
        refused = client.post(url, {"team": team.pk, "players": players}, format="json")
        assert refused.status_code == 400 and "players" in refused.data
        assert wrong in str(refused.data["players"]) or wrong == "twice"
    assert sorted(Party.objects.filter(team_match=tm).values_list("pair_a", "pair_b")) == before
    other = client.post(url, {"team": blue["id"], "players": _ids(blue)}, format="json")
    assert other.status_code == 403  # not his team

    done = client.post(url, {"team": team.pk, "players": [p[4], p[0], p[2], p[1]]},
                       format="json")
    assert done.status_code == 200, done.data
    assert _seated(tm, team) == [(RED[4], RED[0]), (RED[2], RED[1])]
    assert Pair.objects.filter(formed_in_round_id=rid, team=team).count() == 2
    halves = Party.objects.filter(team_match=tm).count()
    assert halves == 4  # both halves of both boards, blue's pairs kept
    seated = {pk for row in Party.objects.filter(team_match=tm).values_list("pair_a", "pair_b")
              for pk in row}
    teams_seated = set(Pair.objects.filter(pk__in=seated).values_list("team", flat=True))
    assert teams_seated == {team.pk, blue["id"]}  # blue's pairs kept

    assert api.post(f"/api/v1/rounds/{rid}/publish/").status_code == 200
    late = client.post(url, {"team": team.pk, "players": p[:4]}, format="json")
    assert late.status_code == 400 and "round" in late.data
    assert _seated(tm, team) == [(RED[4], RED[0]), (RED[2], RED[1])]

    # the match is played: red wins every party; the standings, the team page, the sheet
    for _half in range(2):
        assert api.post(f"/api/v1/rounds/{rid}/start/").status_code == 200
        for party in Party.objects.filter(round_id=rid, status=Party.Status.IN_PROGRESS):
            play(party.pk, "a" if party.pair_a.team_id == team.pk else "b")
    table = api.get(f"/api/v1/tournaments/{event.pk}/team-standings/").data["rows"]
    assert [(r["name"], r["score"], r["party_wins"]) for r in table] == [
        ("Красные", 2, 4), ("Синие", 0, 0)]
    page = api.get(f"/t/{event.slug}/team/{team.pk}/").content.decode()
    assert all(name in page for name in RED)
    sheet = build_sheet_content(tm)
    assert RED[4] in str(sheet) and BLUE[0] in str(sheet)
    for path in ("standings/", "draw/", "team-standings/", "hall/", "results/"):
        assert api.get(f"/t/{event.slug}/{path}").status_code == 200, path
    team_api = api.get(f"/api/v1/teams/{team.pk}/").data
    assert team_api["pairs"] == [] and len(team_api["players"]) == 5


def test_registration_by_form_and_by_import(client, organizer, event):
    client.force_login(organizer)
    url = f"/t/{event.slug}/teams/new/"
    few = client.post(url, {"name": "Трое", **{f"player{n}_name": f"Игрок {n}"
                                                for n in range(1, 4)}})
    assert few.status_code == 200 and not Team.objects.exists()
    assert "at least 4 players" in few.content.decode()
    made = client.post(url, {"name": "Красные", "captain": "new:1", **{
        f"player{n}_name": name for n, name in enumerate(RED, start=1)},
        "player1_rating": 1600})
    assert made.status_code == 302
    team = Team.objects.get(name="Красные")
    assert [p.name for p in team.players.order_by("id")] == RED
    assert team.captain.name == RED[0]
    listing = client.get(f"/t/{event.slug}/teams/").content.decode()
    assert RED[4] in listing

    csv = "name,team\n" + "".join(f"{n},Синие\n" for n in BLUE) + "Лишний,Одиночки\n"
    report = import_roster(event, "r.csv", csv.encode(), viewer=None)
    assert report.teams == 0 and not Team.objects.filter(name="Синие").exists()
    assert "Одиночки" in str([r.errors for r in report.rows])
    csv = "name,team\n" + "".join(f"{n},Синие\n" for n in BLUE)
    report = import_roster(event, "r.csv", csv.encode(), viewer=None)
    assert report.teams == 1
    assert [p.name for p in Team.objects.get(name="Синие").players.order_by("id")] == BLUE
    again = import_roster(event, "r.csv", f"name,team\nЧужой,Синие\n{RED[0]}x,Синие\n".encode(),
                          viewer=None)
    assert again.teams == 0  # 6 players: more than the squad of 5
    assert Team.objects.get(name="Синие").players.count() == 4


def test_the_captains_lineup_form(client, organizer, event, make_user):
    api = APIClient()
    api.force_authenticate(organizer)
    red, blue = _two_teams(api, event)
    rid = api.post("/api/v1/rounds/", {"tournament": event.pk}, format="json").data["id"]
    api.post(f"/api/v1/rounds/{rid}/generate/", {}, format="json")
    tm = TeamMatch.objects.get(round_id=rid)
    team = Team.objects.get(pk=red["id"])
    captain = make_user("captain")
    Player.objects.filter(name=RED[0]).update(user=captain)
    url = f"/t/{event.slug}/team-matches/{tm.pk}/lineup/"
    stranger = make_user("stranger")
    client.force_login(stranger)
    assert client.get(url).status_code == 404
    client.force_login(captain)
    page = client.get(url)
    assert page.status_code == 200 and RED[4] in page.content.decode()
    p = _ids(red)
    twice = client.post(url, {"board1_first": p[4], "board1_second": p[4],
                              "board2_first": p[0], "board2_second": p[1]})
    assert twice.status_code == 200 and "Named twice" in twice.content.decode()
    assert _seated(tm, team) == [(RED[0], RED[1]), (RED[2], RED[3])]
    saved = client.post(url, {"board1_first": p[3], "board1_second": p[4],
                              "board2_first": p[0], "board2_second": p[1]})
    assert saved.status_code == 302
    assert _seated(tm, team) == [(RED[3], RED[4]), (RED[0], RED[1])]
    PlayerFactory(tournament=event)  # a player of no team is not offered
    api.post(f"/api/v1/rounds/{rid}/publish/")
    late = client.post(url, {"board1_first": p[0], "board1_second": p[1],
                             "board2_first": p[2], "board2_second": p[3]})
    assert late.status_code == 200 and "already published" in late.content.decode()
    assert _seated(tm, team) == [(RED[3], RED[4]), (RED[0], RED[1])]
