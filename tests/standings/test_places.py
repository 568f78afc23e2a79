"""Places of many tournaments at once are the places each tournament's standings page shows
(the bracket's places first once its finals are played);
a record's party points are the player's own where each plays for himself (Kozel)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import Party, Player, Profile, Tournament
from scoring.people.careers import load_career
from scoring.ranking.places import final_standings, standings_of
from scoring.ranking.results import standings_table
from scoring.totals.compute import party_totals

pytestmark = pytest.mark.django_db


def test_demo_events_rank_alike_in_one_batch_and_kozel_points_are_his_own(protocol_files):
    call_command("seed_demo", stdout=StringIO())
    tournaments = list(Tournament.objects.select_related("regulations"))
    assert {"sport", "udl", "kozel"} <= {t.rule_set for t in tournaments}
    expected = {  # the standings page's order; the finals demo's bracket places first
        t.pk: [(row.entrant, row.rank, row.shared)
               for row in final_standings(t, standings_table(t).rows)]
        for t in tournaments
    }
    with CaptureQueriesContext(connection) as queries:
        batch = standings_of(tournaments)
    # entrants (players, pairs), every party, the knockout stages and their matches
    assert len(queries) <= 5, len(queries)
    for tournament in tournaments:
        got = [(row.entrant, row.rank, row.shared) for row in batch[tournament.pk].values()]
        assert got == expected[tournament.pk], tournament.slug

    kozel = next(t for t in tournaments if t.rule_set == "kozel")
    player = Player.objects.filter(tournament=kozel).order_by("id").first()
    profile = Profile.objects.create(name=player.name)
    Player.objects.filter(pk=player.pk).update(profile=profile)
    record = load_career(profile)
    assert record.parties, "the Kozel demo has finished parties"
    for line in record.parties:
        party = Party.objects.get(pk=line.party_id)
        assert line.points_for == party_totals(party).points[line.seat], line
