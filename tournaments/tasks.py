"""Background work of tournaments: standings computed ahead of the pages and the next draw."""

from __future__ import annotations

import logging

from celery import shared_task

from scoring.core.background import RecordTask
from scoring.models import Tournament
from scoring.ranking.results import warm_standings as compute_into_cache

logger = logging.getLogger(__name__)


@shared_task(base=RecordTask, name="tournaments.tasks.warm_standings")
def warm_standings(tournament_id: int) -> int:
    """Compute and cache a tournament's standings (idempotent); return the number of lines.

    Run when a round is closed: the public standings page and the next round's draw then
    read the standings after that round from the cache.
    """
    tournament = Tournament.objects.select_related("regulations").get(pk=tournament_id)
    lines = compute_into_cache(tournament)
    logger.info("standings warmed: tournament=%s lines=%s", tournament_id, lines)
    return lines
