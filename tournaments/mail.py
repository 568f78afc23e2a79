"""The tournament's mails to its players: one template per kind, rendered in the tournament's
language and sent through Django's mail by a task queued when the caller's transaction commits.

``send_mail_to(tournament, kind, recipients, context)`` is the one call: a kind switched off in
the tournament's entry settings (``EntrySettings.disabled_mails``) sends nothing. A kind is
``templates/entries/mail/<kind>.txt``, its first line the subject.

It sits below the wings that mail (entries, check-in, rounds) so each may call it; its task
keeps the name ``tournaments.entries.send_tournament_mail``. Another feature's mail is one more
kind: a line in ``scoring.models.entries.MAIL_KINDS`` (the organizer's switch comes with it),
its template, and a call of ``send_mail_to``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.utils import translation

from scoring.core.background import RecordTask
from scoring.core.site import site_url
from scoring.models import MAIL_KINDS, Entry, EntrySettings, Player, Tournament

logger = logging.getLogger(__name__)

KINDS = {kind for kind, _label in MAIL_KINDS}
"""The kinds of mail a tournament sends (a template each)."""


def mail_enabled(tournament: Tournament, kind: str) -> bool:
    """Whether the tournament sends mails of ``kind`` (every kind unless switched off)."""
    disabled = (EntrySettings.objects.filter(tournament=tournament)
                .values_list("disabled_mails", flat=True).first())
    return kind not in (disabled or [])


def player_addresses(tournament_id: int) -> dict[int, str]:
    """Each player's address: from his accepted entry (as player or partner), else his login."""
    found: dict[int, str] = {}
    for player_id, email in (Player.objects.filter(tournament_id=tournament_id)
                             .exclude(user__email="").filter(user__isnull=False)
                             .values_list("pk", "user__email")):
        found[player_id] = email
    accepted = Entry.objects.filter(tournament_id=tournament_id, status=Entry.Status.ACCEPTED)
    for entry in accepted.select_related("pair"):
        if entry.pair is not None:
            found[entry.pair.player1_id] = entry.email
            if entry.pair.player2_id is not None and entry.partner_email:
                found[entry.pair.player2_id] = entry.partner_email
        elif entry.player_id is not None:
            found[entry.player_id] = entry.email
    return found


def send_mail_to(tournament: Tournament, kind: str, recipients: Iterable[str],
                 context: dict[str, Any]) -> bool:
    """Send the tournament's mail of ``kind`` to ``recipients`` once the transaction commits
    (``context``: plain JSON values for the template); False when nothing is sent (the kind
    switched off, no address)."""
    if kind not in KINDS:
        raise ValueError(f"unknown mail kind {kind!r}")
    addresses = sorted({a.strip() for a in recipients if a and a.strip()})
    if not addresses or not mail_enabled(tournament, kind):
        return False
    send_tournament_mail.delay_on_commit(tournament.pk, kind, addresses,
                                         {"site": site_url(), **context})
    return True


def render_mail(tournament: Tournament, kind: str, context: dict[str, Any]) -> tuple[str, str]:
    """The mail's subject and body in the tournament's language."""
    with translation.override(tournament.language):
        text = render_to_string(f"entries/mail/{kind}.txt",
                                {"tournament": tournament, **context})
    subject, _sep, body = text.strip().partition("\n")
    return subject.strip(), body.strip() + "\n"


@shared_task(base=RecordTask, name="tournaments.entries.send_tournament_mail")
def send_tournament_mail(tournament_id: int, kind: str, recipients: list[str],
                         context: dict[str, Any]) -> int:
    """Render and send one mail to each recipient (each sees only his address); how many."""
    tournament = Tournament.objects.get(pk=tournament_id)
    subject, body = render_mail(tournament, kind, context)
    sent = 0
    for address in recipients:
        sent += send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [address])
    logger.info("mail sent: tournament=%s kind=%s recipients=%s", tournament_id, kind, sent)
    return sent
