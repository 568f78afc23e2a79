"""A team match for the sheet's tests: two teams of long Cyrillic names at tables 1 and 2."""

from __future__ import annotations

from typing import Any

from referee.services import give_fine, start_party
from scoring.models import Pair, Party, Player, Team, TeamMatch, Tournament
from tests.factories import PartyFactory, RoundFactory
from tests.tournaments.play import play

LONG_NAMES = [
    "Александра Константинопольская-Щербатова",
    "Елизавета Преображенская-Голенищева-Кутузова",
    "Владимир Иоаннович Святополк-Четвертинский",
    "Ксения Христорождественская-Новопокровская",
]
TEAM_A = "Сборная Санкт-Петербурга и Ленинградской области «Белые ночи»"
TEAM_B = "Клуб любителей спортивного домино «Казанские дуплеты»"


def make_team_match(tournament: Tournament, referee: Any) -> TeamMatch:
    """Team A (the fixture's pairs 1, 2; captain: Александра) against team B (pairs 3, 4; no
    captain) at tables 1 and 2, each pair's first player renamed with a long name; board 2
    seats team B's pair on side a. The parties are started, not played."""
    Tournament.objects.filter(pk=tournament.pk).update(format=Tournament.Format.TEAMS)
    tournament.refresh_from_db()
    pairs = list(tournament.pairs.order_by("id"))[:4]
    for pair, name in zip(pairs, LONG_NAMES, strict=True):
        Player.objects.filter(pk=pair.player1_id).update(name=name)
    team_a = Team.objects.create(tournament=tournament, name=TEAM_A, club="Нева",
                                 captain=pairs[0].player1)
    team_b = Team.objects.create(tournament=tournament, name=TEAM_B, country="Татарстан")
    Pair.objects.filter(pk__in=[pairs[0].pk, pairs[1].pk]).update(team=team_a)
    Pair.objects.filter(pk__in=[pairs[2].pk, pairs[3].pk]).update(team=team_b)
    rnd = RoundFactory(tournament=tournament, number=1)
    tm = TeamMatch.objects.create(round=rnd, team_a=team_a, team_b=team_b, first_table=1)
    for board, pair_a, pair_b in ((1, pairs[0], pairs[2]), (2, pairs[3], pairs[1])):
        party = PartyFactory(round=rnd, team_match=tm, board=board, half=1, pair_a=pair_a,
                             pair_b=pair_b, table=tournament.tables.get(number=board))
        start_party(party.pk, actor=referee)
    return tm


def decide(tm: TeamMatch, referee: Any) -> TeamMatch:
    """Board 1: team A wins 240 : 60 with a fine of 25 to team B; board 2: team B's pair
    (side a) wins 240 : 120. A level match: 1 : 1 in match points."""
    board1, board2 = Party.objects.filter(team_match=tm).order_by("board")
    give_fine(board1.pk, side="b", category="other", seat="b1", points=25, reason="Опоздание",
              actor=referee)
    play(board1, "a", 1)
    play(board2, "a", 2)
    return tm
