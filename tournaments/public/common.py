"""What the public pages share: finding the tournament and round, caching for the field."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from scoring.models import Round, Tournament
from scoring.ranking.results import StandingsTable
from scoring.rules import Totals
from tournaments.public.load import public_tournament
from tournaments.rounds.draws import is_individual

__all__ = ["public_tournament"]  # where the public pages have always found it

FIELD_CACHE_SECONDS = 600

RESULT_LABELS = {
    "won": _("won"),
    "lost": _("lost"),
    "goat": _("the Goat"),
    "played": _("played"),
    "bye": _("bye"),
    "forfeit_won": _("won by forfeit"),
    "forfeit_lost": _("lost by forfeit"),
    "playing": _("playing"),
    "scheduled": _("not started"),
}


# -- loading -----------------------------------------------------------------------------


def current_round(tournament: Tournament, rounds: list[Round] | None = None) -> Round | None:
    """The latest published round (a draft is not the public's business).

    ``rounds``: the tournament's rounds already loaded (``PublicLoad.rounds``), else a query.
    """
    if rounds is not None:
        published = [rnd for rnd in rounds if rnd.status != Round.Status.DRAFT]
        return published[-1] if published else None
    rnd = tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()
    if rnd is not None:
        rnd.tournament = tournament
    return rnd


def per_player_ranking(request: HttpRequest, tournament: Tournament) -> bool:
    """Rank players (individual events, or ``?by=player``) rather than pairs."""
    return is_individual(tournament) or request.GET.get("by") == "player"


def cached_for_field(
    tournament: Tournament, table: StandingsTable, what: str, compute: Callable[[], Any]
) -> Any:
    """``compute()``, cached for the whole field under the tournament's results version.

    The key also holds what the results are read with: the regulations, the ranked entrants
    and whether players or pairs are ranked (the results version the table was ranked under).
    """
    regulations = tournament.regulations
    depends_on = (
        tournament.created_at, regulations.rules_config(), regulations.standings_config(),
        table.per_player, list(table.entrants),
    )
    digest = hashlib.sha256(repr(depends_on).encode()).hexdigest()
    key = f"{what}:{tournament.pk}:{table.version}:{digest}"
    found = cache.get(key)
    if found is None:
        found = compute()
        cache.set(key, found, FIELD_CACHE_SECONDS)
    return found



def seats_of(totals: Totals, side: str) -> list[str]:
    """The seats of a side ("a": a1, a2) among the totals' players, in seat number order."""
    return sorted(key for key in totals.points if key != side and key.startswith(side))
