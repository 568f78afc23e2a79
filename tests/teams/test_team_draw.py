"""The draw of a team event's round: teams drawn, each team match at two adjacent tables."""

from __future__ import annotations

import pytest

from scoring.core.errors import ServiceError
from scoring.models import Pair, Party, Regulations, TeamMatch, Tournament
from tests.factories import TableFactory
from tests.teams.test_results import _teams
from tests.tournaments.play import play
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds
from tournaments.rounds.team_lineups import set_lineup

pytestmark = pytest.mark.django_db


def _halves(tournament, **fields) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(team_halves=True, **fields)
    tournament.refresh_from_db()


def _draw(tournament):
    rnd = rounds.create_round(tournament.pk)
    return draw_services.generate_draw(rnd.pk, seed=1)


def test_a_team_round_seats_each_match_at_two_adjacent_tables(tournament):
    teams = _teams(tournament, 4)
    _halves(tournament)
    rnd = _draw(tournament)
    matches = list(TeamMatch.objects.filter(round=rnd).order_by("first_table"))
    assert [tm.first_table for tm in matches] == [1, 3]
    for tm in matches:
        a1, a2 = tm.team_a.pairs.order_by("id").values_list("id", flat=True)
        b1, b2 = tm.team_b.pairs.order_by("id").values_list("id", flat=True)
        seats = set(Party.objects.filter(team_match=tm).values_list(
            "half", "board", "table__number", "pair_a", "pair_b"))
        n = tm.first_table
        assert seats == {(1, 1, n, a1, b1), (1, 2, n + 1, a2, b2),
                         (2, 1, n, a1, b2), (2, 2, n + 1, a2, b1)}
    assert {tm.team_a_id for tm in matches} | {tm.team_b_id for tm in matches} == {
        t.pk for t in teams}


def test_second_half_starts_after_the_first_at_its_table(tournament, referee_user):
    _teams(tournament, 2)
    _halves(tournament)
    rnd = _draw(tournament)
    rounds.publish_round(rnd.pk)
    assert rounds.start_round(rnd.pk) == 2
    first = Party.objects.get(round=rnd, half=1, board=1)
    second = Party.objects.get(round=rnd, half=2, board=1)
    from referee.services import start_party
    with pytest.raises(ServiceError, match="first half"):
        start_party(second.pk, actor=referee_user)
    play(first, "a")
    assert rounds.start_round(rnd.pk) == 1  # board 1's second half only
    second.refresh_from_db()
    assert second.status == Party.Status.IN_PROGRESS


def test_odd_teams_give_a_bye_and_refusals_write_nothing(tournament):
    teams = _teams(tournament, 3)
    rnd = _draw(tournament)
    byes = TeamMatch.objects.filter(round=rnd, team_b__isnull=True)
    assert byes.count() == 1 and not Party.objects.filter(team_match__in=byes).exists()
    before = set(Party.objects.filter(round=rnd).values_list("id", flat=True))
    # a team left with one pair cannot play: the draw is refused naming it, nothing changes
    Pair.objects.filter(pk=teams[2].pairs.order_by("id").first().pk).update(withdrawn=True)
    with pytest.raises(ServiceError, match="Команда 3"):
        draw_services.generate_draw(rnd.pk, seed=1)
    assert set(Party.objects.filter(round=rnd).values_list("id", flat=True)) == before


def test_too_few_tables(tournament):
    _teams(tournament, 4)  # two team matches need tables 1–2 and 3–4
    tournament.tables.filter(number=4).delete()
    TableFactory(tournament=tournament, number=6)  # not next to another table: no use
    rnd = rounds.create_round(tournament.pk)
    with pytest.raises(ServiceError, match="need 4 tables"):
        draw_services.generate_draw(rnd.pk, seed=1)
    assert not Party.objects.filter(round=rnd).exists()


def test_lineup_can_be_set_before_publishing(tournament):
    teams = _teams(tournament, 2)
    extra = Pair.objects.filter(team__isnull=True).order_by("id").first()
    extra.team = teams[0]
    extra.save()
    rnd = _draw(tournament)
    tm = TeamMatch.objects.get(round=rnd)
    team_a = tm.team_a
    pairs = list(team_a.pairs.order_by("id").values_list("id", flat=True))
    with pytest.raises(ServiceError, match="line-up"):
        set_lineup(tm.pk, team_a.pk, [pairs[2], pairs[0]])
    Tournament.objects.filter(pk=tournament.pk).update(team_lineup_changes=True)
    set_lineup(tm.pk, team_a.pk, [pairs[2], pairs[0]])
    assert list(Party.objects.filter(team_match=tm).order_by("board")
                .values_list("pair_a", flat=True)) == [pairs[2], pairs[0]]
    rounds.publish_round(rnd.pk)
    with pytest.raises(ServiceError):
        set_lineup(tm.pk, team_a.pk, [pairs[0], pairs[1]])


def test_manual_is_refused(tournament):
    _teams(tournament, 2)
    Regulations.objects.filter(tournament=tournament).update(pairing_system="manual")
    rnd = rounds.create_round(tournament.pk)
    with pytest.raises(ServiceError, match="Swiss or by round robin"):
        draw_services.generate_draw(rnd.pk)
