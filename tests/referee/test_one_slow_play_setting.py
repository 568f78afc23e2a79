"""Issue #13 item 4: UDL slow play is paid by one setting, the regulations' points.

The move-time warnings, the UDL slow-play button and the move-time helper's button all pay
``udl_slow_play_points`` to the opponent at the second slow play, whatever the desk's penalty
rules; the referee settings keep no points of their own (the API shows the regulations').
"""

from __future__ import annotations

import json

import pytest

from referee import services
from referee.rulings import PenaltyPreset, decide_violation
from scoring.models import Penalty, RefereeSettings, Regulations
from scoring.rules import get_rule_set
from tests.referee.test_rule_sets_desk import make_desk
from tournaments.transfer.archive import import_tournament
from tournaments.transfer.archive_export import export_tournament

UDL = get_rule_set("udl")


def test_a_udl_tournament_pays_its_slow_play_points_under_either_desk_preset():
    cfg = UDL.config(udl_slow_play_points=30, fine_points=25)
    for preset in (PenaltyPreset("sport"), PenaltyPreset("udl")):
        first, second = (
            decide_violation(UDL, cfg, preset, side="a", category="move_time", warnings_before=n)
            for n in (0, 1)
        )
        assert first.kind == "warning"
        assert (second.kind, second.points, second.mode) == ("fine", 30, "award")


@pytest.mark.django_db
@pytest.mark.parametrize("preset", ["sport", "udl"])
def test_every_slow_play_button_costs_the_same(make_user, preset):
    """(rules.md U2) Every slow play button costs the same."""
    desk = make_desk(make_user, "udl", udl_slow_play_points=30)
    tournament = desk.party.round.tournament
    services.save_referee_settings(tournament, penalty_preset=preset)
    for _ in range(2):  # the warnings grid: the second slow play of a1
        services.give_warning(desk.party_id, side="a", category="move_time", seat="a1",
                              actor=desk.referee)
    for _ in range(2):  # the UDL block: the second slow play of b1
        answer = desk.post("udl-violation", {"violation": "slow_play", "seat": "b1"})
        assert answer.status_code == 201, answer.json()
    fines = Penalty.objects.filter(party_id=desk.party_id, kind="fine").order_by("side")
    assert [(p.side, p.points, p.mode) for p in fines] == [
        ("a", 30, "award"), ("b", 30, "award")]


@pytest.mark.django_db
def test_the_referee_settings_show_the_regulations_points_and_keep_none(api_as, make_user):
    desk = make_desk(make_user, "udl", udl_slow_play_points=35)
    tournament = desk.party.round.tournament
    endpoint = f"/api/v1/referee/tournaments/{tournament.pk}/referee-settings/"
    client = api_as(tournament.created_by)
    answer = client.put(endpoint, {"penalty_preset": "udl", "slow_play_points": 5}, format="json")
    assert answer.json() == {"penalty_preset": "udl", "slow_play_points": 35}
    assert Regulations.objects.get(tournament=tournament).udl_slow_play_points == 35
    assert not hasattr(RefereeSettings, "slow_play_points")


@pytest.mark.django_db
def test_an_older_tournament_file_with_the_desks_points_still_imports(make_user):
    desk = make_desk(make_user, "udl")
    tournament = desk.party.round.tournament
    services.save_referee_settings(tournament, penalty_preset="udl")
    doc = export_tournament(tournament)
    doc["referee_settings"][0]["slow_play_points"] = 30  # as files written before carry it
    copy_ = import_tournament(json.dumps(doc).encode(), slug="older-file")
    assert RefereeSettings.objects.get(tournament=copy_).penalty_preset == "udl"
    assert copy_.regulations.udl_slow_play_points == 20
