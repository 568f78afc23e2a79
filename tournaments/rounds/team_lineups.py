"""A team's line-up for one team match, named before its round is published: two registered
pairs (a team of fixed pairs, with ``Tournament.team_lineup_changes``), or four of its
players paired for the match (a team of players: board 1's two, then board 2's; the pairs are
formed for the round, ``scoring.teams.seating.form_pairs``). The organizer or the team's
captain names it; the team match's parties are made again.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.access.permissions import can_manage
from scoring.core.errors import ServiceError
from scoring.models import BOARDS, Pair, Party, Player, Round, Team, TeamMatch
from scoring.teams.seating import PLAYERS_PER_MATCH, by_players, form_pairs, seat_team_match
from tournaments.rounds.draws import table_numbers
from tournaments.rounds.services import lock_round, require_status
from tournaments.setup.services import actor_id

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class LineupSet:
    """What :func:`set_lineup` did: the team match, the team, its two pairs by board and, for
    a team of players, the four players (board 1's two, then board 2's)."""

    team_match: int
    team: int
    pairs: tuple[int, ...]
    players: tuple[int, ...] = ()


def may_name_lineup(user: Any, tm: TeamMatch, team: Team) -> bool:
    """Whether ``user`` may name ``team``'s line-up: the tournament's organizers, or the
    team's captain (his player's account)."""
    if can_manage(user, tm.round.tournament):
        return True
    return bool(getattr(user, "is_authenticated", False) and team.captain_id is not None
                and Player.objects.filter(pk=team.captain_id, user=user).exists())


def _checked_pairs(team: Team, pairs: Sequence[int]) -> list[int]:
    """Two different registered pairs of the team able to play (``pairs`` at fault)."""
    chosen = [int(pk) for pk in pairs]
    if len(chosen) != BOARDS or len(set(chosen)) != BOARDS:
        raise ServiceError("pairs", _("Name two different pairs: board 1's and board 2's."))
    able = set(Pair.objects.filter(team=team, withdrawn=False, disqualified=False,
                                   formed_in_round__isnull=True).values_list("id", flat=True))
    if not set(chosen) <= able:
        raise ServiceError("pairs", _("Team %(team)s has no such pair able to play.")
                           % {"team": team.name})
    return chosen


def _checked_players(team: Team, players: Sequence[int]) -> list[int]:
    """Four different players of the team able to play (``players`` at fault)."""
    chosen = [int(pk) for pk in players]
    if len(chosen) != PLAYERS_PER_MATCH:
        raise ServiceError("players", _(
            "Name four players: board 1's pair, then board 2's."))
    twice = next((pk for i, pk in enumerate(chosen) if pk in chosen[:i]), None)
    if twice is not None:
        name = Player.objects.filter(pk=twice).values_list("name", flat=True).first()
        raise ServiceError("players", _("%(player)s is named twice in the line-up.")
                           % {"player": name or twice})
    able = set(Player.objects.filter(team=team, withdrawn=False, disqualified=False)
               .values_list("id", flat=True))
    stranger = next((pk for pk in chosen if pk not in able), None)
    if stranger is not None:
        name = Player.objects.filter(pk=stranger).values_list("name", flat=True).first()
        raise ServiceError("players", _(
            "%(player)s is not a player of the team %(team)s able to play.")
            % {"player": name or stranger, "team": team.name})
    return chosen


@transaction.atomic
def set_lineup(team_match_id: int, team_id: int, pairs: Sequence[int] = (),
               players: Sequence[int] = (), *, actor: Any = None) -> LineupSet:
    """Name a team's line-up for one team match of a draft round: two pairs (``pairs``,
    with ``team_lineup_changes``) or, for a team of players, four players (``players``:
    board 1's pair, then board 2's). Refused (``ServiceError`` naming the field, nothing
    written): no such team match (``team_match``), the round published (``round``), a team
    not of the match (``team``), pairs that are not two of the team's (``pairs``), players
    not four different ones of the team (``players``)."""
    tm = TeamMatch.objects.select_related("round").filter(pk=team_match_id).first()
    if tm is None:
        raise ServiceError("team_match", _("No such team match."))
    rnd = lock_round(tm.round_id)
    tournament = rnd.tournament
    require_status(rnd, Round.Status.DRAFT)
    if tm.is_bye or team_id not in (tm.team_a_id, tm.team_b_id):
        raise ServiceError("team", _("The team does not play this team match."))
    team = Team.objects.get(pk=team_id)
    named: list[int] = []
    if by_players(tournament):
        named = _checked_players(team, players)
    elif not tournament.team_lineup_changes:
        raise ServiceError("pairs", _(
            "The regulations keep each team's line-up: its first two pairs play every match."))
    current = {
        (half, board): (a, b) for half, board, a, b in
        Party.objects.filter(team_match=tm).values_list("half", "board", "pair_a_id",
                                                        "pair_b_id")
    }
    if named:
        Party.objects.filter(team_match=tm).delete()  # before the pairs they seat
        chosen = form_pairs(rnd, team.pk, named)
    else:
        chosen = _checked_pairs(team, pairs)
    lineup_a = [current[(1, 1)][0], current[(1, 2)][0]]
    lineup_b = [current[(1, 1)][1], current[(1, 2)][1]]
    if team_id == tm.team_a_id:
        lineup_a = chosen
    else:
        lineup_b = chosen
    seat_team_match(tournament, tm, lineup_a, lineup_b, table_numbers(tournament))
    logger.info("team line-up set: tournament=%s team_match=%s team=%s pairs=%s players=%s "
                "actor=%s", tournament.pk, tm.pk, team_id, chosen, named, actor_id(actor))
    return LineupSet(tm.pk, team_id, tuple(chosen), tuple(named))
