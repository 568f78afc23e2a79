"""Who and when a protocol's header names: its referee and, on a blank sheet, its date.

A signed protocol names the referee who countersigned it (else who started the party); a blank
paper protocol, printed before the party, names the referee of its table where the tournament's
roles tell who that is, and the day the round is played where that is known.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import timezone

from scoring.models import Party, Signature, TournamentRole


def user_name(user: Any) -> str:
    """How a referee is named on a protocol: full name, else login."""
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def referee_name(party: Party, signatures: Iterable[Signature]) -> str:
    """The countersigning referee, else the referee who started the party."""
    for signature in signatures:
        if signature.role == Signature.Role.REFEREE:
            return user_name(signature.user)
    started = party.events.filter(kind="party_started").select_related("actor").first()
    return user_name(started.actor) if started else ""


def referee_roles(party: Party) -> list[TournamentRole]:
    """The referees and chief referees of the party's tournament, with their tables."""
    return list(
        TournamentRole.objects.filter(
            tournament_id=party.round.tournament_id,
            role__in=(TournamentRole.Role.REFEREE, TournamentRole.Role.CHIEF),
        ).select_related("user").prefetch_related("tables").order_by("pk")
    )


def table_referee(party: Party, roles: Sequence[TournamentRole]) -> str:
    """The one referee of the party's table, by the tournament's ``roles``; "" when several
    could be (the referee then writes his name by hand).

    A referee assigned to this table; else the one referee of every table; else the one chief
    referee (who referees every table himself).
    """
    referees = [role for role in roles if role.role == TournamentRole.Role.REFEREE]
    chiefs = [role for role in roles if role.role == TournamentRole.Role.CHIEF]
    assigned = [role for role in referees
                if any(table.pk == party.table_id for table in role.tables.all())]
    everywhere = [role for role in referees if not role.tables.all()]
    for candidates in (assigned, everywhere, chiefs):
        if candidates:
            names = {user_name(role.user) for role in candidates}
            return names.pop() if len(names) == 1 else ""
    return ""


def blank_date(party: Party, zone: ZoneInfo, today: date | None = None) -> str:
    """The day a blank protocol's party is played (ISO), "" when it is not known.

    The round's scheduled start, else the party's start; else today during the tournament's
    days (a blank sheet is printed on the day of play); else the day of a one-day tournament.
    """
    moment = party.round.scheduled_start or party.started_at
    if moment is not None:
        return moment.astimezone(zone).date().isoformat()
    tournament = party.round.tournament
    today = today or timezone.now().astimezone(zone).date()
    last = tournament.end_date or tournament.start_date
    if tournament.start_date <= today <= last:
        return today.isoformat()
    return tournament.start_date.isoformat() if last == tournament.start_date else ""
