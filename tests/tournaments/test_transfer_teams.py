"""The tournament file carries a team tournament: its team settings, teams (captain, rating,
withdrawn), the pairs' teams, team matches and their parties' boards and halves; export, then
import into an empty installation, gives the same tournament."""

from __future__ import annotations

import json

import pytest

from scoring.models import Deal, Pair, Party, Player, Table, Team, TeamMatch
from tests.factories import DealFactory, RoundFactory
from tests.tournaments.test_transfer_archive import normalized, wipe
from tournaments.registration.services import register_pair
from tournaments.registration.teams import NewPair, register_team, withdraw_team
from tournaments.setup.services import create_tournament
from tournaments.transfer import archive
from tournaments.transfer.archive import import_tournament

pytestmark = pytest.mark.django_db


def _team_cup(organizer):
    """Three teams of two pairs (one withdrawn), a round of one team match in two halves,
    its four parties finished with a deal each, and a bye."""
    cup = create_tournament(name="Кубок клубов", slug="team-trip", organizer=organizer,
                            format="teams", team_squad_pairs=3, team_halves=True,
                            team_scoring="points", team_tie_breaks=["buchholz", "party_wins"])
    teams = []
    for club in ("Дубль-шесть", "Рыба", "Азов"):
        done = register_team(cup, name=f"Команда {club}", club=club, country="Россия",
                             pairs=[NewPair(({"name": f"{club} {n}А", "rating": 1500 - 10 * n},
                                             {"name": f"{club} {n}Б", "rating": 1400}))
                                    for n in range(2)], captain=(2, 1))
        teams.append(done.team)
    withdraw_team(teams[2].pk)
    spare = register_pair(cup, Player.objects.create(tournament=cup, name="Запасной А"),
                          Player.objects.create(tournament=cup, name="Запасной Б"))
    tables = [Table.objects.create(tournament=cup, number=n) for n in (1, 2)]
    rnd = RoundFactory(tournament=cup, number=1, status="finished")
    match = TeamMatch.objects.create(round=rnd, team_a=teams[0], team_b=teams[1], first_table=1)
    TeamMatch.objects.create(round=rnd, team_a=teams[2], team_b=None)
    a1, a2 = teams[0].pairs.order_by("id")
    b1, b2 = teams[1].pairs.order_by("id")
    seating = {(1, 1): (a1, b1), (1, 2): (a2, b2), (2, 1): (a1, b2), (2, 2): (a2, b1)}
    for (half, board), (pair_a, pair_b) in seating.items():
        party = Party.objects.create(round=rnd, table=tables[board - 1], pair_a=pair_a,
                                     pair_b=pair_b, team_match=match, board=board, half=half,
                                     status="finished", winner="a" if board == 1 else "b",
                                     end_reason="target")
        DealFactory(party=party, points_a=30 * half, points_b=10 * board)
    return cup, spare


def _shape(cup) -> dict:
    """What a team tournament is, by names (ids change on import)."""
    return {
        "settings": (cup.format, cup.team_squad_pairs, cup.team_halves,
                     cup.team_lineup_changes, cup.team_scoring, cup.team_tie_breaks),
        "teams": sorted(
            (t.name, t.club, t.country, t.captain.name if t.captain else None, t.rating,
             t.withdrawn, sorted(p.players_label for p in t.pairs.all()))
            for t in Team.objects.filter(tournament=cup)),
        "pairs in no team": sorted(p.players_label for p in Pair.objects.filter(
            tournament=cup, team__isnull=True)),
        "team matches": sorted(
            (m.round.number, m.team_a.name, m.team_b.name if m.team_b else None, m.first_table)
            for m in TeamMatch.objects.filter(round__tournament=cup)),
        "parties": sorted(
            (p.team_match.team_a.name, p.half, p.board, p.table.number,
             p.pair_a.players_label, p.pair_b.players_label, p.winner)
            for p in Party.objects.filter(round__tournament=cup)),
        "deals": sorted((d.party.half, d.party.board, d.points_a, d.points_b)
                        for d in Deal.objects.filter(party__round__tournament=cup)),
    }


def test_a_team_tournament_survives_the_round_trip(organizer):
    cup, _spare = _team_cup(organizer)
    before = _shape(cup)
    counts = archive.section_counts(cup)
    assert (counts["teams"], counts["team_matches"]) == (3, 2)
    data = archive.export_bytes(cup)
    doc = json.loads(data)
    assert {t["name"] for t in doc["teams"]} == {
        "Команда Дубль-шесть", "Команда Рыба", "Команда Азов"}
    wipe(cup)
    assert not Team.objects.exists() and not TeamMatch.objects.exists()

    imported = import_tournament(data)

    assert imported.slug == "team-trip"
    assert archive.section_counts(imported) == counts
    assert _shape(imported) == before
    assert normalized(archive.export_tournament(imported)) == normalized(doc)
    captain = Team.objects.get(tournament=imported, name="Команда Рыба").captain
    assert captain.tournament == imported and captain.name == "Рыба 1А"
    assert all(p.team.tournament == imported for p in Pair.objects.filter(
        tournament=imported, team__isnull=False))


def test_a_file_whose_party_points_at_another_team_match_is_refused(organizer):
    cup, _spare = _team_cup(organizer)
    doc = json.loads(archive.export_bytes(cup))
    doc["parties"][0]["team_match"] = 999999
    wipe(cup)
    with pytest.raises(archive.ArchiveError, match=r"parties\[0\]\.team_match"):
        import_tournament(doc)
    assert not Team.objects.exists() and not Player.objects.exists()


def test_teams_of_players_and_groups_of_teams_survive_the_round_trip(organizer):
    from scoring.models import Group
    from tournaments.registration.team_players import register_squad
    from tournaments.rounds import draw_services
    from tournaments.rounds import services as rounds
    from tournaments.rounds.finals import start_groups

    cup = create_tournament(name="Кубок четвёрок", slug="squad-trip", organizer=organizer,
                            format="teams", team_members="players", team_squad_players=5)
    for k in range(4):
        register_squad(cup, name=f"Четвёрка {k + 1}", captain=1,
                       players=[{"name": f"Игрок {k + 1}.{n}", "rating": 1600 - 100 * k}
                                for n in range(4 + k % 2)])
    for number in range(1, 5):
        Table.objects.create(tournament=cup, number=number)
    start_groups(cup.pk, group_count=2)
    draw_services.generate_draw(rounds.create_round(cup.pk).pk)

    def shape(t):
        return {
            "players": sorted((p.team.name, p.name) for p in Player.objects.filter(
                tournament=t, team__isnull=False)),
            "groups": sorted((g.name, sorted(x.name for x in g.teams.all()))
                             for g in Group.objects.filter(stage__tournament=t)),
            "formed": sorted((p.team.name, p.players_label) for p in Pair.objects.filter(
                tournament=t, formed_in_round__isnull=False)),
            "captains": sorted((x.name, x.captain.name) for x in Team.objects.filter(
                tournament=t)),
        }

    before = shape(cup)
    assert len(before["players"]) == 18 and len(before["formed"]) == 8
    assert before["groups"] == [("A", ["Четвёрка 1", "Четвёрка 4"]),
                                ("B", ["Четвёрка 2", "Четвёрка 3"])]
    data = archive.export_bytes(cup)
    wipe(cup)
    imported = import_tournament(data)
    assert imported.team_members == "players" and imported.team_squad_players == 5
    assert shape(imported) == before
