"""A team match's parties at its two tables (the ORM side of ``scoring.teams.seats``), and
each team's default line-up.

A team of fixed pairs (``Tournament.team_members`` "pairs") plays by default its first two
pairs able to play (registration order). A team of players ("players") is paired for each
team match: its captain names who sits with whom at board 1 and at board 2; the pairs are
then formed for the round, as an individual event's draw forms its pairs
(``Pair.formed_in_round``, here with ``Pair.team``). When nobody has named them the default
pairing is the registration order: the team's first four players able to play, the first
and second at board 1, the third and fourth at board 2.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from scoring.models import Pair, Party, Player, Round, TeamMatch, Tournament
from scoring.roster import entrants_changed

from .seats import BOARDS, team_seats

PLAYERS_PER_MATCH = 2 * BOARDS
"""How many players a team of players puts into a team match: a pair at each board."""


def by_players(tournament: Tournament) -> bool:
    """Whether the tournament's teams are players paired for each team match."""
    return tournament.team_members == Tournament.TeamMembers.PLAYERS


def team_pairs(team_ids: Iterable[int]) -> dict[int, list[int]]:
    """Each team's registered pairs able to play (neither withdrawn nor disqualified),
    registration order (pairs formed for a round are not the team's members)."""
    pairs: dict[int, list[int]] = defaultdict(list)
    for pk, team in (Pair.objects.filter(team__in=list(team_ids), withdrawn=False,
                                         disqualified=False, formed_in_round__isnull=True)
                     .order_by("id").values_list("id", "team_id")):
        pairs[team].append(pk)
    return pairs


def team_players(team_ids: Iterable[int]) -> dict[int, list[int]]:
    """Each team's players able to play (neither withdrawn nor disqualified), registration
    order."""
    players: dict[int, list[int]] = defaultdict(list)
    for pk, team in (Player.objects.filter(team__in=list(team_ids), withdrawn=False,
                                           disqualified=False)
                     .order_by("id").values_list("id", "team_id")):
        players[team].append(pk)
    return players


def short_teams(tournament: Tournament, team_ids: Sequence[int]) -> list[int]:
    """The teams of ``team_ids`` that cannot fill a team match's boards: fewer than two pairs
    (or four players) able to play."""
    if by_players(tournament):
        players = team_players(team_ids)
        return [pk for pk in team_ids if len(players.get(pk, [])) < PLAYERS_PER_MATCH]
    pairs = team_pairs(team_ids)
    return [pk for pk in team_ids if len(pairs.get(pk, [])) < BOARDS]


def default_lineup(pairs: dict[int, list[int]], team: int) -> list[int]:
    """A team's line-up when none is set: its first two pairs able to play."""
    return pairs.get(team, [])[:BOARDS]


def form_pairs(rnd: Round, team: int, players: Sequence[int]) -> list[int]:
    """Form a team's two pairs of the round from four players (board 1's two, then board
    2's), replacing those formed for it before; the pairs' ids, board 1's first."""
    Pair.objects.filter(formed_in_round=rnd, team_id=team).delete()
    ratings = dict(Player.objects.filter(pk__in=list(players)).values_list("id", "rating"))
    made = Pair.objects.bulk_create([
        Pair(tournament_id=rnd.tournament_id, player1_id=first, player2_id=second,
             team_id=team, formed_in_round=rnd,
             rating=(ratings.get(first, 0) + ratings.get(second, 0)) // 2)
        for first, second in zip(players[0::2], players[1::2], strict=True)
    ])
    entrants_changed([rnd.tournament_id])
    return [pair.pk for pair in made]


def round_lineups(tournament: Tournament, rnd: Round, team_ids: Sequence[int]
                  ) -> dict[int, list[int]]:
    """Each team's default line-up for the round (its two pairs, board 1's first): its first
    two pairs, or, for a team of players, the pairs formed of its first four players."""
    if not by_players(tournament):
        pairs = team_pairs(team_ids)
        return {team: default_lineup(pairs, team) for team in team_ids}
    players = team_players(team_ids)
    return {team: form_pairs(rnd, team, players.get(team, [])[:PLAYERS_PER_MATCH])
            for team in team_ids}


def seat_team_match(tournament: Tournament, tm: TeamMatch, lineup_a: Sequence[int],
                    lineup_b: Sequence[int], tables: dict[int, int]) -> list[Party]:
    """Make the team match's parties (replacing any) at its two tables (``tables``: number →
    id): board 1 at ``first_table``, board 2 at the next; a second half with
    ``team_halves``."""
    Party.objects.filter(team_match=tm).delete()
    if tm.first_table is None:
        raise ValueError("a team match is seated at its first table")
    parties = [
        Party(round_id=tm.round_id, team_match=tm, board=board, half=half, pair_a_id=a,
              pair_b_id=b, table_id=tables[tm.first_table + board - 1])
        for half, board, a, b in team_seats(lineup_a, lineup_b, halves=tournament.team_halves)
    ]
    return Party.objects.bulk_create(parties)
