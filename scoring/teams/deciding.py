"""A team match decided by its parties: ``TeamMatch.decided_at`` and the webhook
``team_match.decided``.

``scoring.party.ending`` calls :func:`team_match_changed` in the party's transaction whenever a
party of a team match finishes, is reopened or has its finished result corrected: the team
match is decided when its last party finishes (``decided_at`` set, ``team_match.decided``
sent), undecided when a party is reopened, and decided again (the webhook sent again with the
new result) when a correction changes a finished party. Like a knockout match's
``match.decided`` it is logged and sent; the event log is per party (each party's own
events stay there).
"""

from __future__ import annotations

import logging
from typing import Any

from django.utils import timezone

from scoring.models import Party, Team, TeamMatch
from scoring.webhooks.services import emit, tournament_ref

from .results import TeamMatchResult, TeamSide, team_match_result

logger = logging.getLogger(__name__)


def team_match_changed(party: Party, *, stored: bool = True) -> TeamMatchResult | None:
    """Decide (or undecide) the team match of a party that changed; its result (None when
    the party is not a team match's). ``stored``: the party's totals were just stored for
    the version its caller is about to give it (``party.version + 1``)."""
    if party.team_match_id is None:
        return None
    tm = TeamMatch.objects.select_for_update().select_related("round__tournament").get(
        pk=party.team_match_id)
    result = team_match_result(tm, (party.pk, party.version + 1) if stored else None)
    if result.decided:
        tm.decided_at = timezone.now()
        tm.save(update_fields=["decided_at"])
        logger.info("team match decided: tournament=%s team_match=%s winner=%s",
                    tm.round.tournament_id, tm.pk, result.winner)
        emit_team_match_decided(tm, result)
    elif tm.decided_at is not None:
        tm.decided_at = None
        tm.save(update_fields=["decided_at"])
        logger.info("team match undecided: tournament=%s team_match=%s",
                    tm.round.tournament_id, tm.pk)
    return result


def _side(side: TeamSide | None, names: dict[int, str]) -> dict[str, Any] | None:
    """A team match's side as a payload names it."""
    if side is None:
        return None
    return {
        "team": side.team, "name": names.get(side.team, ""), "parties_won": side.parties_won,
        "points": side.points, "points_against": side.points_against,
        "efectiveness": side.efectiveness, "score": side.score,
    }


def team_match_ref(tm: TeamMatch, result: TeamMatchResult) -> dict[str, Any]:
    """A team match as a payload names it: round, tables, sides with their figures, winner,
    parties."""
    ids = [pk for pk in (tm.team_a_id, tm.team_b_id) if pk]
    names = dict(Team.objects.filter(pk__in=ids).values_list("id", "name"))
    return {
        "id": tm.pk,
        "round": tm.round.number,
        "first_table": tm.first_table,
        "a": _side(result.a, names),
        "b": _side(result.b, names),
        "winner_team": result.winner,
        "level": result.level,
        "parties": list(tm.parties.order_by("half", "board").values_list("pk", flat=True)),
    }


def emit_team_match_decided(tm: TeamMatch, result: TeamMatchResult) -> None:
    """Emit ``team_match.decided`` for a decided team match."""
    tournament = tm.round.tournament
    emit(tournament.pk, "team_match.decided", lambda: {
        "tournament": tournament_ref(tournament), "team_match": team_match_ref(tm, result)})
