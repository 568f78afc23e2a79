"""A team match's parties at its two tables (the ORM side of ``scoring.teams.seats``), and
each team's default line-up: its first two pairs able to play (registration order)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from scoring.models import Pair, Party, TeamMatch, Tournament

from .seats import BOARDS, team_seats


def team_pairs(team_ids: Iterable[int]) -> dict[int, list[int]]:
    """Each team's pairs able to play (neither withdrawn nor disqualified), registration
    order."""
    pairs: dict[int, list[int]] = defaultdict(list)
    for pk, team in (Pair.objects.filter(team__in=list(team_ids), withdrawn=False,
                                         disqualified=False)
                     .order_by("id").values_list("id", "team_id")):
        pairs[team].append(pk)
    return pairs


def default_lineup(pairs: dict[int, list[int]], team: int) -> list[int]:
    """A team's line-up when none is set: its first two pairs able to play."""
    return pairs.get(team, [])[:BOARDS]


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
