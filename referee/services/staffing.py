"""Referees of a tournament: their roles and tables, and penalty settings beyond the rules."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from referee.rulings import PenaltyPreset
from scoring.core.errors import ServiceError
from scoring.models import RefereeSettings, Tournament, TournamentRole
from scoring.party.row_lock import REFEREE_SETTINGS_CACHE

logger = logging.getLogger(__name__)


def referee_settings(tournament: Tournament) -> RefereeSettings:
    """The tournament's referee settings (the defaults when none were saved); read with a
    locked party's row (``scoring.party.row_lock.lock_party``) they are not read again."""
    found: RefereeSettings | None
    if REFEREE_SETTINGS_CACHE.is_cached(tournament):
        cached = REFEREE_SETTINGS_CACHE.get_cached_value(tournament)  # None when none was saved
        found = cached if isinstance(cached, RefereeSettings) else None
    else:
        found = RefereeSettings.objects.filter(tournament=tournament).first()
    return found or RefereeSettings(tournament=tournament)


def penalty_preset(tournament: Tournament) -> PenaltyPreset:
    """The plain penalty preset the escalation rules take."""
    found = referee_settings(tournament)
    return PenaltyPreset(code=found.penalty_preset)




@transaction.atomic
def assign_referee(
    tournament: Tournament, *, user: Any, role: str, tables: list[Any] | None = None
) -> Any:
    """Make a user a referee (optionally of some tables) or the chief referee of a tournament."""
    if role not in (TournamentRole.Role.REFEREE, TournamentRole.Role.CHIEF):
        raise ServiceError("role", _("Choose referee or chief referee."))
    tables = list(tables or [])
    if any(table.tournament_id != tournament.pk for table in tables):
        raise ServiceError("tables", _("A table of another tournament."))
    assignment, _created = TournamentRole.objects.get_or_create(
        tournament=tournament, user=user, role=role
    )
    assignment.tables.set(tables if role == TournamentRole.Role.REFEREE else [])
    logger.info(
        "tournament %s: user %s is %s of %s tables", tournament.pk, getattr(user, "pk", None),
        role, len(tables),
    )
    return assignment


@transaction.atomic
def save_referee_settings(tournament: Tournament, **values: Any) -> RefereeSettings:
    """Change the tournament's penalty rules beyond its regulations (values validated)."""
    found, _created = RefereeSettings.objects.get_or_create(tournament=tournament)
    for name, value in values.items():
        setattr(found, name, value)
    found.save()
    tournament.referee_settings = found  # an instance that read them with a lock shows these
    logger.info("tournament %s referee settings saved: %s", tournament.pk, sorted(values))
    return found
