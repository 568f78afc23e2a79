"""Season services: an organizer creates or changes a season and chooses its tournaments."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from scoring.access import permissions
from scoring.core.errors import ServiceError
from scoring.models import Season, Tournament
from scoring.ranking.seasons import schedule_refresh
from scoring.standings.season import TIE_BREAKS

logger = logging.getLogger(__name__)

FIELDS = ("name", "slug", "scoring", "best_n", "place_points", "tie_breaks", "public")


def _check(season: Season) -> None:
    """Refuse a rule that cannot rank: naming the field."""
    if not season.name.strip():
        raise ServiceError("name", _("Give the season a name."))
    if season.scoring not in Season.Scoring.values:
        raise ServiceError("scoring", _("Choose a scoring rule."))
    if season.best_n is not None and season.best_n < 1:
        raise ServiceError("best_n", _("Count at least one result, or leave it empty."))
    points = season.place_points or []
    if not isinstance(points, list) or any(
        not isinstance(p, int | float) or isinstance(p, bool) or p < 0 for p in points
    ):
        raise ServiceError("place_points", _("Points by place are numbers of 0 or more."))
    if season.scoring == Season.Scoring.PLACE_POINTS and not points:
        raise ServiceError("place_points", _("Give the points of at least the 1st place."))
    breaks = season.tie_breaks or []
    if any(key not in TIE_BREAKS for key in breaks) or len(set(breaks)) != len(breaks):
        raise ServiceError("tie_breaks", _("Each tie-break once, from the list."))


def _tournaments(actor: Any, tournaments: Iterable[Tournament | int]) -> list[int]:
    """The ids of the chosen tournaments, each one the actor organizes."""
    ids = sorted({t if isinstance(t, int) else t.pk for t in tournaments})
    mine = set(permissions.managed_tournaments(actor).filter(pk__in=ids).values_list(
        "pk", flat=True))
    if set(ids) - mine:
        raise ServiceError("tournaments", _("Choose only tournaments you organize."))
    return ids


def _save(season: Season, tournament_ids: Sequence[int]) -> Season:
    """Save the season and its tournaments; placings of the newly counted ones are refreshed."""
    if not season.slug:
        season.slug = slugify(season.name, allow_unicode=True)[:80] or "season"
    _check(season)
    try:
        with transaction.atomic():
            season.save()
    except IntegrityError:
        raise ServiceError("slug", _("This short name is taken.")) from None
    before = set(season.tournaments.values_list("pk", flat=True))
    season.tournaments.set(tournament_ids)
    for pk in sorted(set(tournament_ids) - before):
        schedule_refresh(tournament_id=pk)
    return season


@transaction.atomic
def create_season(*, actor: Any, tournaments: Iterable[Tournament | int] = (),
                  **fields: Any) -> Season:
    """A new season of the actor's tournaments under its scoring rule."""
    if not permissions.can_create_season(actor):
        raise ServiceError("season", _("Only organizers create seasons."))
    unknown = set(fields) - set(FIELDS)
    if unknown:
        raise ServiceError(sorted(unknown)[0], _("Unknown field."))
    season = Season(created_by=actor, **fields)
    season = _save(season, _tournaments(actor, tournaments))
    logger.info("season created: season=%s actor=%s", season.pk, actor.pk)
    return season


@transaction.atomic
def update_season(season_id: int, *, actor: Any,
                  tournaments: Iterable[Tournament | int] | None = None,
                  **fields: Any) -> Season:
    """Change a season's rule, name or tournaments (its organizer only)."""
    season = Season.objects.select_for_update().get(pk=season_id)
    if not permissions.can_edit_season(actor, season):
        raise ServiceError("season", _("Only the season's organizer changes it."))
    for name, value in fields.items():
        if name not in FIELDS:
            raise ServiceError(name, _("Unknown field."))
        setattr(season, name, value)
    ids = (
        _tournaments(actor, tournaments) if tournaments is not None
        else list(season.tournaments.values_list("pk", flat=True))
    )
    season = _save(season, ids)
    logger.info("season changed: season=%s actor=%s", season.pk, actor.pk)
    return season


@transaction.atomic
def delete_season(season_id: int, *, actor: Any) -> None:
    """Delete a season and its table (its organizer only); the tournaments stay as they are."""
    season = Season.objects.select_for_update().get(pk=season_id)
    if not permissions.can_edit_season(actor, season):
        raise ServiceError("season", _("Only the season's organizer changes it."))
    slug = season.slug
    season.delete()
    logger.info("season deleted: season=%s slug=%s actor=%s", season_id, slug, actor.pk)
