"""Team match results and team standings from ordinary parties (scoring.teams)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from referee.services import start_party
from scoring.models import Pair, Party, Team, TeamMatch, Tournament
from scoring.teams.results import team_match_result, team_match_results
from scoring.teams.standings import team_standings
from tests.factories import PartyFactory, RoundFactory, TableFactory
from tests.tournaments.play import play

pytestmark = pytest.mark.django_db


def _teams(tournament: Tournament, n: int) -> list[Team]:
    """``n`` teams of two of the fixture's pairs each (in id order)."""
    Tournament.objects.filter(pk=tournament.pk).update(format=Tournament.Format.TEAMS)
    tournament.refresh_from_db()
    pairs = list(tournament.pairs.order_by("id"))
    teams = []
    for k in range(n):
        team = Team.objects.create(tournament=tournament, name=f"Команда {k + 1}")
        Pair.objects.filter(pk__in=[pairs[2 * k].pk, pairs[2 * k + 1].pk]).update(team=team)
        teams.append(team)
    return teams


def _match(tournament, rnd, team_a, team_b, first_table, halves=1) -> TeamMatch:
    """A team match with its parties (A1–B1, A2–B2; the second half A1–B2, A2–B1)."""
    tm = TeamMatch.objects.create(round=rnd, team_a=team_a, team_b=team_b, first_table=first_table)
    a1, a2 = team_a.pairs.order_by("id")
    b1, b2 = team_b.pairs.order_by("id")
    seats = [(1, 1, a1, b1), (1, 2, a2, b2), (2, 1, a1, b2), (2, 2, a2, b1)][: 2 * halves]
    for half, board, pa, pb in seats:
        PartyFactory(round=rnd, team_match=tm, board=board, half=half, pair_a=pa, pair_b=pb,
                     table=TableFactory(tournament=tournament, number=first_table + board - 1))
    return tm


def _play(tm: TeamMatch, referee_user, outcomes) -> None:
    """Play the team match's parties in (half, board) order: (winner, loser_deals) each."""
    parties = Party.objects.filter(team_match=tm).order_by("half", "board")
    for party, (winner, deals) in zip(parties, outcomes, strict=True):
        start_party(party.pk, actor=referee_user)
        play(party, winner, deals)


def test_a_team_match_result_is_the_standings_figures(tournament, referee_user):
    t1, t2, _t3, _t4 = _teams(tournament, 4)
    rnd = RoundFactory(tournament=tournament, number=1)
    tm = _match(tournament, rnd, t1, t2, 1, halves=2)
    assert not team_match_result(tm).decided
    # play() lets the loser win loser_deals deals (60 each) first, then the winner reaches 240:
    # half 1: board 1 A 240:60, board 2 B 240:120; half 2: board 1 A 240:60, board 2 A 240:180
    _play(tm, referee_user, [("a", 1), ("b", 2), ("a", 1), ("a", 3)])
    r = team_match_result(tm)
    assert r.decided and r.parties == 4 and r.finished == 4
    # team 1: 240 + 120 + 240 + 240 = 840 for, 60 + 240 + 60 + 180 = 540 against; 3 parties
    assert (r.a.parties_won, r.a.points, r.a.points_against) == (3, 840, 540)
    assert (r.b.parties_won, r.b.points, r.b.points_against) == (1, 540, 840)
    # efectiveness caps the winner at 200: 140 − 80 + 140 + 20 = 220
    assert (r.a.efectiveness, r.b.efectiveness) == (220, -220)
    assert (r.a.score, r.b.score, r.winner) == (2, 0, t1.pk)


def test_level_match_bye_and_standings(tournament, referee_user):
    t1, t2, t3, t4 = _teams(tournament, 4)
    Tournament.objects.filter(pk=tournament.pk).update(team_tie_breaks=["point_difference"])
    tournament.refresh_from_db()
    rnd = RoundFactory(tournament=tournament, number=1)
    level = _match(tournament, rnd, t1, t2, 1)
    won = _match(tournament, rnd, t3, t4, 3)
    _play(level, referee_user, [("a", 1), ("b", 2)])  # 240:60, 120:240 → 1 : 1
    _play(won, referee_user, [("b", 1), ("b", 1)])     # team 4 wins both
    bye_round = RoundFactory(tournament=tournament, number=2)
    bye = TeamMatch.objects.create(round=bye_round, team_a=t3, team_b=None)
    with CaptureQueriesContext(connection) as queries:
        results = team_match_results(tournament)
    assert len(queries) <= 4
    assert results[level.pk].level and results[level.pk].a.score == 1
    assert results[bye.pk].decided and results[bye.pk].winner == t3.pk
    # a bye: both parties won by forfeit: forfeit points (the target, 200) each
    assert (results[bye.pk].a.parties_won, results[bye.pk].a.points) == (2, 400)
    rows = {row.name: row for row in team_standings(tournament)}
    # team 4: 2; team 3: 0 + bye 2; teams 1, 2: 1 each. PD: team 1 +60, team 2 −60,
    # team 3 −360 + 400 = +40, team 4 +360
    assert [(r.name, r.score, r.point_difference) for r in team_standings(tournament)] == [
        ("Команда 4", 2, 360), ("Команда 3", 2, 40), ("Команда 1", 1, 60),
        ("Команда 2", 1, -60),
    ]
    assert rows["Команда 3"].byes == 1 and rows["Команда 3"].played == 2


def test_the_last_party_decides_the_team_match_and_a_correction_decides_it_again(
        tournament, referee_user, organizer):
    from scoring.models import Deal, WebhookDelivery, WebhookSubscription
    from scoring.party.deals import annul_deal

    t1, t2 = _teams(tournament, 2)
    hook = WebhookSubscription.objects.create(
        tournament=tournament, url="https://example.com/hook", created_by=organizer,
        events=["team_match.decided"])
    rnd = RoundFactory(tournament=tournament, number=1)
    tm = _match(tournament, rnd, t1, t2, 1)
    board1, board2 = Party.objects.filter(team_match=tm).order_by("board")
    start_party(board1.pk, actor=referee_user)
    play(board1, "a", 1)  # 240:60
    tm.refresh_from_db()
    assert tm.decided_at is None
    start_party(board2.pk, actor=referee_user)
    play(board2, "b", 1)  # 60:240: one party each, level
    tm.refresh_from_db()
    assert tm.decided_at is not None
    sent = WebhookDelivery.objects.filter(subscription=hook, event="team_match.decided")
    assert sent.count() == 1
    payload = sent.get().payload["team_match"]
    assert payload["level"] and payload["winner_team"] is None
    assert (payload["a"]["score"], payload["a"]["points"], payload["b"]["points"]) == (1, 300, 300)
    # team A's deal of board 2 annulled: 0:240, the same winner, the points decided again
    first = Deal.objects.filter(party=board2).order_by("number").first()
    annul_deal(first.pk, actor=organizer, reason="ошибка записи")
    assert sent.count() == 2
    latest = sent.order_by("-pk").first().payload["team_match"]
    assert (latest["a"]["points"], latest["b"]["points"]) == (240, 300)
