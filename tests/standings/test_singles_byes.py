"""A bye in a singles event of every rule set: the standings count it, whatever the seats are
called (a side of one player sits at "a1", not "a")."""

from __future__ import annotations

import pytest

from scoring.models import Party, Regulations, Table
from scoring.ranking.results import standings_table
from tournaments.registration.services import register_player
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds
from tournaments.setup.services import create_tournament

pytestmark = pytest.mark.django_db

NAMES = ["Анна Каренина", "Лев Толстой", "Фёдор Достоевский"]


SINGLES = [
    ("udl", {}), ("allfives", {}), ("draw", {}), ("block", {}), ("classic", {}),
    ("draw", {"players": 2}), ("block", {"players": 2}), ("classic", {"players": 2}),
    ("latin", {"players": 2}),
]
"""Rule sets and settings whose sides are one player in a pairs-format event (a Kozel event
of sides of one is drawn individually, its byes have no totals)."""


@pytest.mark.parametrize(("rule_set", "changes"), SINGLES)
def test_a_bye_counts_in_the_standings_of_a_singles_event(organizer, rule_set, changes):
    tournament = create_tournament(name="Кубок", slug=f"c-{rule_set}-{len(changes)}",
                                   organizer=organizer, rule_set=rule_set)
    if changes:
        regulations = Regulations.objects.get(tournament=tournament)
        for name, value in changes.items():
            setattr(regulations, name, value)
        regulations.save()
        tournament.refresh_from_db()
    assert tournament.singles
    for name in NAMES:
        register_player(tournament, name=name, side=True)
    Table.objects.create(tournament=tournament, number=1)
    rnd = rounds.create_round(tournament.pk)
    draw_services.generate_draw(rnd.pk, seed=3)
    rounds.publish_round(rnd.pk)
    bye = Party.objects.get(round=rnd, pair_b__isnull=True)
    assert bye.status == Party.Status.FINISHED
    rows = standings_table(tournament).rows
    byed = next(row for row in rows if row.entrant == bye.pair_a_id)
    assert byed.metrics["match_points"] == tournament.regulations.bye_points
