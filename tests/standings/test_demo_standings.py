"""The demo's UDL and Kozel events: played through the services, ranked as their rules say.

Loading the demo takes seconds, so one test loads it and checks each event in turn.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from scoring.models import Party, Tournament
from scoring.ranking.results import standings_table
from scoring.rules.kozel_deal import ratings
from scoring.totals.compute import party_totals
from tournaments.management.commands.seed_demo import KOZEL_SLUG, UDL_SLUG

pytestmark = pytest.mark.django_db


def test_demo_loads_udl_and_kozel_events_ranked_by_their_rules(protocol_files):
    out = StringIO()
    call_command("seed_demo", stdout=out)
    loaded_once(out.getvalue())
    udl_round_of_matches_to_three_game_wins_and_one_running()
    kozel_round_played_to_the_goat_ranked_by_ratings()


def loaded_once(demos: str) -> None:
    """Each event is loaded once; a second run changes nothing; the banner names them."""
    assert "UDL singles demo loaded." in demos and "Kozel demo loaded." in demos
    counts = Tournament.objects.count(), Party.objects.count()
    again = StringIO()
    call_command("seed_demo", stdout=again)
    assert "Kozel demo is already loaded." in again.getvalue()
    assert (Tournament.objects.count(), Party.objects.count()) == counts
    banner = StringIO()
    call_command("demo_banner", stdout=banner)
    assert f"t/{UDL_SLUG}/" in banner.getvalue() and "kozel01" in banner.getvalue()


def udl_round_of_matches_to_three_game_wins_and_one_running() -> None:
    """UDL: round 1's matches went to three game wins; a match of round 2 is in play."""
    t = Tournament.objects.get(slug=UDL_SLUG)
    assert t.singles and t.players.count() == 6
    first = Party.objects.filter(round__tournament=t, round__number=1)
    assert first.count() == 3
    for party in first:
        wins = party_totals(party).game_wins
        assert party.status == "finished" and max(wins.values()) == 3
        assert wins[party.winner] == 3
    running = Party.objects.filter(round__tournament=t, round__number=2, status="in_progress")
    assert running.count() == 1
    table = standings_table(t)
    assert [m.key for m in table.columns] == ["match_points", "game_wins", "points_for"]
    winners = [row for row in table.rows if row.metrics["match_points"] == 2]
    assert len(winners) == 3 and table.rows[:3] == winners
    assert all(row.metrics["game_wins"] > 0 for row in winners)


def kozel_round_played_to_the_goat_ranked_by_ratings() -> None:
    """Kozel: both tables played to the Goat; players ranked by their ratings."""
    t = Tournament.objects.get(slug=KOZEL_SLUG)
    parties = list(Party.objects.filter(round__tournament=t).select_related(
        "pair_a__player1", "pair_a__player2", "pair_b__player1", "pair_b__player2"))
    assert len(parties) == 2 and all(p.status == "finished" and p.loser for p in parties)
    expected = {}
    for party in parties:
        points = party_totals(party).points
        assert points[party.loser] >= 101
        seats = party.seat_players()
        assert len(seats) == 4
        for seat, rating in ratings(points).items():
            expected[seats[seat].name] = rating
    table = standings_table(t)
    assert table.per_player
    shown = {entrant.name: row.metrics["rating_points"] for row, entrant, _v in table.lines()}
    assert shown == expected
    assert [row.metrics["rating_points"] for row in table.rows] == sorted(
        expected.values(), reverse=True
    )
    assert [row.metrics["goats"] for row in table.rows][-2:] == [1, 1]
