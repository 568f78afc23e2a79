"""Acceptance (#36): through the API, 8 teams of two pairs play 4 Swiss rounds of team matches
with two halves; the team standings (team match points, party wins, point difference) are the
hand-computed table; no two teams meet twice."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import Pair, Party, Team, TeamMatch, Tournament
from tests.factories import PairFactory, PlayerFactory, TableFactory, TournamentFactory
from tests.tournaments.play import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(organizer):
    client = APIClient()
    client.force_authenticate(organizer)
    return client


def _team_event(organizer, slug: str = "teams-8") -> Tournament:
    """8 teams (Команда 1 the strongest: seeding ratings 1800, 1700 …) of two pairs, two
    halves, 8 tables, 4 Swiss rounds planned."""
    t = TournamentFactory(slug=slug, organizer=organizer, format=Tournament.Format.TEAMS)
    Tournament.objects.filter(pk=t.pk).update(team_halves=True)
    t.refresh_from_db()
    t.regulations.rounds_planned = 4
    t.regulations.save()
    for k in range(8):
        team = Team.objects.create(tournament=t, name=f"Команда {k + 1}", rating=1800 - 100 * k)
        for board in range(2):
            PairFactory(tournament=t, team=team, rating=1800 - 100 * k - board,
                        player1=PlayerFactory(tournament=t), player2=PlayerFactory(tournament=t))
    TableFactory.create_batch(8, tournament=t)
    return t


def _strength(pair_id: int) -> int:
    """A pair's team number (1 is the strongest)."""
    return int(Pair.objects.get(pk=pair_id).team.name.split()[-1])


def _play_half(api, rnd_id: int, level: bool) -> None:
    """Start the waiting parties of the round through the API and play them.

    The stronger team (the lower number) wins every party 240:60 except on board 2 of the
    second half, which the weaker wins 240:120: 3 parties to 1. In a ``level`` round board 2
    goes to the weaker team in both halves: 2 parties to 2.
    """
    assert api.post(f"/api/v1/rounds/{rnd_id}/start/").status_code == 200
    for party in Party.objects.filter(round_id=rnd_id, status=Party.Status.IN_PROGRESS):
        stronger = "a" if _strength(party.pair_a_id) < _strength(party.pair_b_id) else "b"
        weaker = "b" if stronger == "a" else "a"
        if party.board == 2 and (level or party.half == 2):
            play(party.pk, weaker, loser_deals=2)  # 240:120 to the weaker team
        else:
            play(party.pk, stronger, loser_deals=1)  # 240:60 to the stronger team


def _round(api, t: Tournament, *, level: bool) -> list[tuple[str, str]]:
    """One team round through the API: create, draw, publish, play both halves, close; the
    team matches (team A, team B) by table."""
    rid = api.post("/api/v1/rounds/", {"tournament": t.pk}, format="json").data["id"]
    assert api.post(f"/api/v1/rounds/{rid}/generate/", {}, format="json").status_code == 200
    assert api.post(f"/api/v1/rounds/{rid}/publish/").status_code == 200
    _play_half(api, rid, level)  # the first half at every table
    _play_half(api, rid, level)  # then the second
    assert api.post(f"/api/v1/rounds/{rid}/close/").status_code == 200
    matches = api.get(f"/api/v1/team-matches/?round={rid}").data["results"]
    assert all(m["result"]["decided"] for m in matches)
    return [(m["team_a"]["name"], m["team_b"]["name"]) for m in matches]


def test_eight_teams_four_swiss_rounds_with_two_halves(api, organizer):
    t = _team_event(organizer)
    draws = [_round(api, t, level=number == 1) for number in range(1, 5)]
    short = [[(a.split()[-1], b.split()[-1]) for a, b in rnd] for rnd in draws]
    # the draws, by tables 1–2, 3–4, 5–6, 7–8 (Swiss on the team standings)
    assert short == DRAWS
    met = [frozenset(pair) for rnd in short for pair in rnd]
    assert len(met) == len(set(met)) == 16  # no two teams meet twice

    table = api.get(f"/api/v1/tournaments/{t.pk}/team-standings/").data
    assert table["order"] == ["team_score", "party_wins", "point_difference", "head_to_head",
                              "buchholz"]
    got = [(r["name"].split()[-1], r["score"], r["party_wins"], r["point_difference"])
           for r in table["rows"]]
    assert got == TABLE
    assert not any(r["shared"] for r in table["rows"])
    buchholz = {r["name"].split()[-1]: r["buchholz"] for r in table["rows"]}
    assert (buchholz["3"], buchholz["4"], buchholz["6"], buchholz["7"]) == (14, 12, 18, 14)
    # every team match's figures in the API: round 1's level 2:2 (1 match point each)
    first = api.get(f"/api/v1/team-matches/?tournament={t.pk}&round="
                    f"{t.rounds.get(number=1).pk}").data["results"][0]
    assert first["tables"] == [1, 2] and len(first["parties"]) == 4
    assert (first["result"]["a"]["score"], first["result"]["b"]["score"]) == (1, 1)
    assert first["result"]["level"] and first["result"]["winner_team"] is None
    assert TeamMatch.objects.filter(decided_at__isnull=False).count() == 16

    # A team knockout of the best four after the Swiss rounds: seeds 1 v 4, 2 v 3, each
    # knockout match one team match of two boards and two halves.
    started = api.post("/api/v1/stages/finals/", {"tournament": t.pk, "bracket_size": 4},
                       format="json")
    assert started.status_code == 201, started.data
    semis = started.data["rounds"][0]
    names = dict(Team.objects.filter(tournament=t).values_list("id", "name"))
    assert [(names[m["team_a"]], names[m["team_b"]]) for m in semis] == [
        ("Команда 1", "Команда 4"), ("Команда 2", "Команда 3")]
    _play_knockout(api, level=False)  # the semi-finals: 1 and 2 win 3:1
    # the final, level 2:2: team 1 scores 720, team 2 600 — team 1 wins on points over
    # the boards
    final_tm = TeamMatch.objects.get(knockout_match__bracket_round=2)
    assert {final_tm.team_a.name, final_tm.team_b.name} == {"Команда 1", "Команда 2"}
    assert final_tm.first_table + 1 == Party.objects.get(
        team_match=final_tm, half=1, board=2).table.number
    _play_knockout(api, level=True)
    bracket = api.get(f"/api/v1/stages/{started.data['stage']['id']}/bracket/").data
    final = bracket["rounds"][-1][0]
    assert final["status"] == "decided" and names[final["winner_team"]] == "Команда 1"
    result = api.get(f"/api/v1/team-matches/{final_tm.pk}/").data["result"]
    assert result["level"] and result["winner_team"] is None
    assert sorted((result["a"]["points"], result["b"]["points"])) == [600, 720]
    assert bracket["stage"]["status"] == "finished"
    # the knockout's team matches leave the Swiss team standings as they were
    again = api.get(f"/api/v1/tournaments/{t.pk}/team-standings/").data
    assert [(r["name"].split()[-1], r["score"], r["party_wins"], r["point_difference"])
            for r in again["rows"]] == TABLE


def _play_knockout(api, *, level: bool) -> None:
    """Play the knockout's open team matches (both halves) through the API."""
    rounds = {p.round_id for p in Party.objects.filter(team_match__knockout_match__isnull=False)
              .exclude(status=Party.Status.FINISHED)}
    for rid in rounds:
        _play_half(api, rid, level)
        _play_half(api, rid, level)


# Team k against team m: the lower number is the stronger team. Tables 1–2, 3–4, 5–6, 7–8.
DRAWS = [
    [("1", "5"), ("2", "6"), ("3", "7"), ("4", "8")],  # seeded: the top half v the bottom half
    [("1", "6"), ("2", "5"), ("3", "8"), ("4", "7")],  # all on 1 MP: 1–4 ahead on PD
    [("1", "3"), ("2", "4"), ("5", "7"), ("6", "8")],  # 3 MP: 1–4; 1 MP: 5–8
    [("1", "2"), ("3", "5"), ("4", "6"), ("7", "8")],  # 7: 1; 5: 2; 3: 3, 4, 5, 6; 1: 7, 8
]

# Per team match of rounds 2–4 the stronger team wins 3 parties to 1: 2 match points, 3 party
# wins, points 3 × 240 + 120 = 840 for, 3 × 60 + 240 = 420 against: PD +420 (the weaker: 0 MP,
# 1 win, PD −420). Round 1 is level 2:2: 1 MP and 2 wins each; the stronger scores
# 2 × 240 + 2 × 120 = 720, concedes 2 × 60 + 2 × 240 = 600: PD +120 (the weaker −120).
#   1: 1 + 2 + 2 + 2 = 7 MP; 2 + 3 + 3 + 3 = 11 wins; 120 + 3 × 420 = 1380
#   2: beat 5 and 4, lost to 1: 1 + 4 = 5; 2 + 3 + 3 + 1 = 9; 120 + 420 = 540
#   3: beat 8 and 5, lost to 1: 5; 9; 540          4: beat 7 and 6, lost to 2: 5; 9; 540
#   5: beat 7: 1 + 2 = 3; 2 + 1 + 3 + 1 = 7; −120 − 420 = −540
#   6: beat 8: 3; 7; −540                          7: beat 8: 3; 7; −540
#   8: lost all three: 1; 2 + 1 + 1 + 1 = 5; −120 − 3 × 420 = −1380
# Ties after party wins and PD: {2, 3, 4} — head-to-head: 2 beat 4 (2 MP), 3 and 4 did not
# meet: 2 first; Buchholz (the opponents' MP): 3 met 7, 8, 1, 5 = 3 + 1 + 7 + 3 = 14, 4 met 8,
# 7, 2, 6 = 1 + 3 + 5 + 3 = 12. {5, 6, 7}: 5 beat 7: 5 first; 6 met 2, 1, 8, 4 = 5 + 7 + 1 + 5 =
# 18, 7 met 3, 4, 5, 8 = 5 + 5 + 3 + 1 = 14.
TABLE = [
    ("1", 7, 11, 1380),
    ("2", 5, 9, 540),
    ("3", 5, 9, 540),
    ("4", 5, 9, 540),
    ("5", 3, 7, -540),
    ("6", 3, 7, -540),
    ("7", 3, 7, -540),
    ("8", 1, 5, -1380),
]
