"""An entry's mails and webhook events: who gets which, with the entry's links."""

from __future__ import annotations

from typing import Any

from scoring.models import Entry
from scoring.webhooks.services import emit, tournament_ref
from tournaments.entries.tokens import link
from tournaments.mail import KINDS, send_mail_to

__all__ = ["KINDS", "ask_partner", "entry_event", "mail_entry", "send_mail_to"]


def entry_context(entry: Entry) -> dict[str, Any]:
    """What every entry mail shows: the entry, its status and its own page."""
    return {"entry": entry.label, "name": entry.name, "partner": entry.partner_name,
            "status": entry.status, "entry_link": link("entry", entry.pk)}


def mail_entry(entry: Entry, kind: str, *, partner: bool = True, **extra: Any) -> bool:
    """Send ``kind`` about the entry to its player (and its partner, when ``partner``)."""
    to = [entry.email] + ([entry.partner_email] if partner else [])
    return send_mail_to(entry.tournament, kind, to, {**entry_context(entry), **extra})


def ask_partner(entry: Entry) -> bool:
    """Mail the partner his confirmation link (nothing when he confirmed or has no address)."""
    if entry.partner_confirmed_at is not None or not entry.partner_email:
        return False
    return send_mail_to(entry.tournament, "partner_confirm", [entry.partner_email],
                        {**entry_context(entry), "confirm_link": link("partner", entry.pk)})


def entry_ref(entry: Entry) -> dict[str, Any]:
    """The entry as a webhook payload names it."""
    return {"id": entry.pk, "status": entry.status, "name": entry.name,
            "partner_name": entry.partner_name, "pair": entry.pair_id,
            "player": entry.player_id}


def entry_event(entry: Entry, event: str) -> None:
    """Emit ``entry.created`` or ``entry.decided`` for the entry."""
    tournament = entry.tournament
    emit(tournament.pk, event, lambda: {"tournament": tournament_ref(tournament),
                                        "entry": entry_ref(entry)})
