"""Acceptance (#36): a team event's groups stage draws teams, not pairs. Through the API: 8
teams, 2 groups of 4 by snake seeding, 3 round-robin rounds of team matches within the groups,
the group tables as a hand-computed table says, then the cross-over semi-finals A1–B2, B1–A2
as team matches and a final."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import Party, Stage, Team, TeamMatch
from scoring.stages.team_groups import team_group_rows
from tests.teams.test_team_swiss import _team_event as swiss_event
from tests.tournaments.play import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(organizer):
    client = APIClient()
    client.force_authenticate(organizer)
    return client


def _team_event(organizer):
    """8 teams of two pairs (Команда 1 the strongest: ratings 1800, 1700 …), two halves, 8
    tables (the Swiss test's event)."""
    return swiss_event(organizer, slug="team-groups")


def number(team_id):
    """A team's number (1 is the strongest)."""
    return int(Team.objects.get(pk=team_id).name.split()[-1])


def winner(a, b):
    """Which team (by number) wins the team match of teams numbered ``a`` and ``b``: the
    stronger, except that 5 beats 4."""
    if {a, b} == {4, 5}:
        return 5
    return min(a, b)


def play_half(api, rnd_id):
    """Start the round's waiting parties and play them: the winning team (``winner``) takes
    every party 240:60 except board 2 of the second half, lost 120:240 — 3 parties to 1."""
    assert api.post(f"/api/v1/rounds/{rnd_id}/start/").status_code == 200
    for party in Party.objects.filter(round_id=rnd_id, status=Party.Status.IN_PROGRESS):
        a, b = number(party.pair_a.team_id), number(party.pair_b.team_id)
        side = "a" if winner(a, b) == a else "b"
        other = "b" if side == "a" else "a"
        if party.board == 2 and party.half == 2:
            play(party.pk, other, loser_deals=2)
        else:
            play(party.pk, side, loser_deals=1)


def play_round(api, rid):
    """Both halves of a published round, then close it."""
    play_half(api, rid)
    play_half(api, rid)
    assert api.post(f"/api/v1/rounds/{rid}/close/").status_code == 200


def test_groups_of_teams_then_a_team_knockout(api, organizer):
    t = _team_event(organizer)
    drawn = api.post("/api/v1/stages/groups/", {"tournament": t.pk, "group_count": 2},
                     format="json")
    assert drawn.status_code == 201, drawn.data
    groups = {g["name"]: sorted(number(pk) for pk in g["teams"]) for g in drawn.data["groups"]}
    assert groups == {"A": [1, 4, 5, 8], "B": [2, 3, 6, 7]}  # the snake by rating
    assert all(g["entrants"] == [] for g in drawn.data["groups"])
    group_of = {n: name for name, ns in groups.items() for n in ns}

    met: list[frozenset[int]] = []
    for _round in range(3):
        rid = api.post("/api/v1/rounds/", {"tournament": t.pk}, format="json").data["id"]
        made = api.post(f"/api/v1/rounds/{rid}/generate/", {}, format="json")
        assert made.status_code == 200, made.data
        matches = api.get(f"/api/v1/team-matches/?round={rid}").data["results"]
        assert len(matches) == 4
        for m in matches:
            a, b = number(m["team_a"]["id"]), number(m["team_b"]["id"])
            assert group_of[a] == group_of[b]  # never a team of the other group
            assert m["tables"][1] == m["tables"][0] + 1 and len(m["parties"]) == 4
            met.append(frozenset((a, b)))
        assert api.post(f"/api/v1/rounds/{rid}/publish/").status_code == 200
        play_round(api, rid)
    assert len(met) == len(set(met)) == 12  # each meets each of its group once
    assert not api.post("/api/v1/rounds/", {"tournament": t.pk}, format="json").status_code \
        == 201  # every group has played its round robin

    stage_id = drawn.data["id"]
    table = api.get(f"/api/v1/stages/{stage_id}/group-standings/").data
    assert {name: [number(pk) for pk in ids] for name, ids in table.items()} == {
        "A": [1, 5, 4, 8], "B": [2, 3, 6, 7]}
    page = api.get(f"/t/{t.slug}/groups/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Команда 5" in html and html.index("Команда 5") < html.index("Команда 4")
    rows = {group.name: [(number(r.team), r.score, r.party_wins, r.point_difference)
                         for r in rs] for group, rs in team_group_rows(Stage.objects.get(
                             pk=stage_id))}
    assert rows == GROUP_TABLES

    started = api.post("/api/v1/stages/finals/", {"tournament": t.pk, "bracket_size": 4},
                       format="json")
    assert started.status_code == 201, started.data
    semis = [(number(m["team_a"]), number(m["team_b"])) for m in started.data["rounds"][0]]
    assert semis == [(1, 3), (2, 5)]  # A1–B2, B1–A2
    semi_matches = TeamMatch.objects.filter(knockout_match__bracket_round=1)
    assert semi_matches.count() == 2
    assert all(tm.parties.count() == 4 for tm in semi_matches)
    for rid in set(semi_matches.values_list("round_id", flat=True)):
        play_half(api, rid)
        play_half(api, rid)
    final = TeamMatch.objects.get(knockout_match__bracket_round=2)
    assert {number(final.team_a_id), number(final.team_b_id)} == {1, 2}
    play_half(api, final.round_id)
    play_half(api, final.round_id)
    bracket = api.get(f"/api/v1/stages/{started.data['stage']['id']}/bracket/").data
    assert number(bracket["rounds"][-1][0]["winner_team"]) == 1
    assert bracket["stage"]["status"] == "finished"


def test_teams_split_by_hand(api, organizer):
    t = _team_event(organizer)
    ids = {number(pk): pk for pk in Team.objects.filter(tournament=t).values_list(
        "id", flat=True)}
    short = api.post("/api/v1/stages/groups/", {
        "tournament": t.pk, "groups": [[ids[n] for n in (1, 2, 3, 4)], [ids[n] for n in
                                                                        (5, 6, 7)]]},
        format="json")
    assert short.status_code == 400 and "groups" in short.data
    assert "Команда 8" in str(short.data["groups"])  # the team left out, by name
    assert not t.stages.filter(format="groups").exists()
    done = api.post("/api/v1/stages/groups/", {
        "tournament": t.pk, "groups": [[ids[n] for n in (1, 2, 3, 4)],
                                       [ids[n] for n in (5, 6, 7, 8)]]}, format="json")
    assert done.status_code == 201, done.data
    assert [sorted(number(pk) for pk in g["teams"]) for g in done.data["groups"]] == [
        [1, 2, 3, 4], [5, 6, 7, 8]]


# Each team match: the winner takes 3 parties to 1 (240:60 three times, 120:240 once): 2 match
# points, 3 parties won, 840 for and 420 against (PD +420); the loser 0, 1, −420.
# Group A (1, 4, 5, 8): 1 beats 4, 5, 8; 5 beats 4 and 8; 4 beats 8.
#   1: 6 MP, 9 PW, +1260   5: 4 MP, 3 + 3 + 1 = 7 PW, +420   4: 2 MP, 5 PW, −420   8: 0, 3, −1260
# Group B (2, 3, 6, 7): the stronger always wins: 2, 3, 6, 7 likewise.
GROUP_TABLES = {
    "A": [(1, 6, 9, 1260), (5, 4, 7, 420), (4, 2, 5, -420), (8, 0, 3, -1260)],
    "B": [(2, 6, 9, 1260), (3, 4, 7, 420), (6, 2, 5, -420), (7, 0, 3, -1260)],
}
