"""Issue #13 item 3 through the services: a forfeit credits the target, everywhere the same.

Party totals, the referee's match view, the protocol, the public party page and the
standings (points and efectiveness) agree on a forfeit at the regulations' target.
"""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from referee import services
from scoring.models import Party, Regulations, Tournament
from scoring.ranking.loaders import load_party_results
from scoring.ranking.results import standings_table
from scoring.signoff.content import build_protocol_data
from scoring.totals.compute import party_totals
from tests.referee.test_rule_sets_desk import make_desk

pytestmark = pytest.mark.django_db


def _party(desk) -> Party:
    return Party.objects.select_related("round__tournament__regulations").get(pk=desk.party_id)


def _standings(party: Party) -> dict[str, dict]:
    table = standings_table(party.round.tournament)
    return {entrant.display_name: row.metrics for row, entrant, _values in table.lines()}


def test_udl_forfeit_is_the_match_won_at_150_in_every_view(make_user, client):
    desk = make_desk(make_user, "udl")
    services.forfeit_party(desk.party_id, absent_side="a", actor=desk.referee)
    party = _party(desk)
    assert (party.status, party.winner, party.end_reason) == ("finished", "b", "forfeit")
    assert party_totals(party).points == {"a": 0, "b": 150}

    match = desk.state()["match"]  # the referee's match view: won three games to none
    assert match["game_wins"] == {"a": 0, "b": 3}
    assert all(game["closed"] for game in match["games"])
    assert match["games"][0]["points"] == {"a": 0, "b": 150}

    protocol = build_protocol_data(party)
    assert protocol.game_wins == "0 : 3"
    assert (protocol.games[0].points_a, protocol.games[0].points_b) == (0, 150)

    client.force_login(desk.referee)
    page = client.get(f"/party/{party.pk}/").content.decode()
    assert 'data-games="b">3<' in page and 'data-games="a">0<' in page

    (result,) = load_party_results(party.round.tournament, per_player=False)
    assert (result.points_a, result.points_b, result.games_a, result.games_b) == (0, 150, 0, 3)
    metrics = _standings(party)
    winner, absent = party.pair_b.display_name, party.pair_a.display_name
    assert (metrics[winner]["points_for"], metrics[absent]["points_against"]) == (150, 150)
    assert (metrics[winner]["efectiveness"], metrics[absent]["efectiveness"]) == (75, -150)


def test_sport_forfeit_with_target_300_is_300_to_0(make_user):
    desk = make_desk(make_user, "sport", target=300)
    services.forfeit_party(desk.party_id, absent_side="b", actor=desk.referee)
    party = _party(desk)
    assert party_totals(party).points == {"a": 300, "b": 0}
    assert desk.state()["totals"]["points"] == {"a": 300, "b": 0}
    assert build_protocol_data(party).result == "300 : 0"
    metrics = _standings(party)
    assert metrics[party.pair_a.display_name]["points_for"] == 300
    assert metrics[party.pair_a.display_name]["efectiveness"] == 150  # target / 2


def test_classic_disqualification_credits_the_winner_the_target(make_user):
    desk = make_desk(make_user, "classic")
    desk.deal(outcome="domino", went_out="b1", pips={"a1": 30})
    services.disqualify(desk.party_id, side="b", seat="b1", scope="party", reason="hid a tile")
    party = _party(desk)
    assert party.winner == "a1"
    assert party_totals(party).points == {"a1": 100, "b1": 0}


def test_an_explicit_forfeit_score_still_applies(make_user):
    desk = make_desk(make_user, "udl", forfeit_winner_points=120)
    services.forfeit_party(desk.party_id, absent_side="b", actor=desk.referee)
    assert party_totals(_party(desk)).points == {"a": 120, "b": 0}


def test_regulations_form_leaves_the_forfeit_empty_for_the_target(make_user):
    from tournaments.setup.forms import RegulationsForm

    desk = make_desk(make_user, "udl")
    regulations = _party(desk).round.tournament.regulations
    form = RegulationsForm(instance=regulations)
    assert not form.fields["forfeit_winner_points"].required
    assert regulations.forfeit_winner_points is None and regulations.forfeit_points == 150


def test_migration_moves_the_old_200_default_to_the_target_where_results_are_not_final(
    make_user,
):
    migration = importlib.import_module("scoring.migrations.0007_forfeit_points_default_the_target")
    running = make_desk(make_user, "udl")
    finished = make_desk(make_user, "udl")
    sport = make_desk(make_user, "sport")
    chosen = make_desk(make_user, "classic", forfeit_winner_points=90)
    for desk in (running, finished, sport):
        regs = _party(desk).round.tournament.regulations
        Regulations.objects.filter(pk=regs.pk).update(forfeit_winner_points=200)
    Tournament.objects.filter(pk=_party(finished).round.tournament_id).update(status="finished")
    Tournament.objects.filter(pk=_party(sport).round.tournament_id).update(status="finished")
    migration.to_the_target(apps, None)

    def stored(desk):
        return Regulations.objects.get(tournament_id=_party(desk).round.tournament_id)

    assert stored(running).forfeit_winner_points is None  # UDL to 150: now 150 : 0
    assert stored(finished).forfeit_winner_points == 200  # published results stay
    assert stored(sport).forfeit_winner_points is None  # target 200: the same figure
    assert stored(chosen).forfeit_winner_points == 90  # chosen by hand
