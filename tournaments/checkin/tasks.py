"""Check-in's background work: the beat's sweep closing the windows past their end and
mailing "check-in is open" for the windows whose opening has passed."""

from __future__ import annotations

import logging

from celery import shared_task

from scoring.core.background import RecordTask
from tournaments.checkin.services import announce_due_windows, close_due_windows

logger = logging.getLogger(__name__)


@shared_task(base=RecordTask, name="tournaments.checkin.close_windows")
def close_windows() -> int:
    """Mail the windows just opened, close those past their end (each sends
    ``checkin.closed``); the number closed."""
    announced = announce_due_windows()
    if announced:
        logger.info("check-in open mailed by the sweep: %s windows", announced)
    closed = close_due_windows()
    if closed:
        logger.info("check-in windows closed by the sweep: %s", closed)
    return closed
