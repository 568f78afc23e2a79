"""Check-in's background work: the beat's sweep closing the windows past their end."""

from __future__ import annotations

import logging

from celery import shared_task

from scoring.core.background import RecordTask
from tournaments.checkin.services import close_due_windows

logger = logging.getLogger(__name__)


@shared_task(base=RecordTask, name="tournaments.checkin.close_windows")
def close_windows() -> int:
    """Close the check-in windows past their end (each sends ``checkin.closed``); the number
    closed."""
    closed = close_due_windows()
    if closed:
        logger.info("check-in windows closed by the sweep: %s", closed)
    return closed
