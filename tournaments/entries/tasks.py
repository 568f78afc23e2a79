"""The entries' tasks: the periodic sweep (the beat) expiring entries whose partner never
confirmed, and the mails' (``tournaments.mail``), registered here for the workers."""

from __future__ import annotations

import logging

from celery import shared_task

from scoring.core.background import RecordTask
from tournaments.entries.decisions import expire_entries
from tournaments.mail import send_tournament_mail

__all__ = ["send_tournament_mail", "sweep_expired_entries"]

logger = logging.getLogger(__name__)


@shared_task(base=RecordTask, name="tournaments.entries.sweep_expired_entries")
def sweep_expired_entries() -> int:
    """Expire the entries past their partner's hours (their places move the waiting list up)
    and the sign-ups never confirmed; how many expired."""
    expired = expire_entries()
    if expired:
        logger.info("entries expired: %s", len(expired))
    return len(expired)
