"""Background work on party clocks and no-shows: idempotent, acknowledged late, retried."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone

from referee import services
from scoring.core.background import RecordTask
from scoring.core.errors import BusyError
from scoring.models import Party, Round

logger = logging.getLogger(__name__)


@shared_task(base=RecordTask, name="referee.tasks.expire_party_clock")
def expire_party_clock(party_id: int) -> bool:
    """Mark one party's time as run out if it has (safe to run any number of times)."""
    party = services.mark_time_expired(party_id).party
    return party.time_expired_at is not None


@shared_task(base=RecordTask, name="referee.tasks.sweep_party_clocks")
def sweep_party_clocks() -> list[int]:
    """Find running parties whose time ran out and mark them (the beat runs this often).

    Parties without a clock (``party_minutes`` empty, the Kozel preset) are never swept.
    """
    marked = []
    running = Party.objects.filter(
        status=Party.Status.IN_PROGRESS,
        time_expired_at__isnull=True,
        paused_at__isnull=True,
        round__tournament__regulations__party_minutes__isnull=False,
    ).select_related("round__tournament__regulations")
    for party in running:
        if party.time_is_out() and _unless_busy(expire_party_clock, party.pk):
            marked.append(party.pk)
    return marked


def _unless_busy(task: RecordTask, party_id: int) -> bool:
    """Run a party's task here; a party held by a stuck change waits for the next sweep."""
    try:
        return bool(task(party_id))
    except BusyError:
        logger.warning("party %s is locked by another change; the next sweep tries again",
                       party_id)
        return False


@shared_task(base=RecordTask, name="referee.tasks.flag_no_show")
def flag_no_show(party_id: int) -> bool:
    """Raise a no-show candidate for one party if a pair is still absent (idempotent)."""
    return services.raise_no_show(party_id)


@shared_task(base=RecordTask, name="referee.tasks.sweep_no_shows")
def sweep_no_shows() -> list[int]:
    """Raise no-show candidates of every party whose wait is over (the beat runs this often):
    the wait counts from the round's actual start, not its planned one (``no_show_due_at``)."""
    first_started = (
        Party.objects.filter(round_id=OuterRef("round_id"), started_at__isnull=False)
        .order_by("started_at").values("started_at")[:1]
    )
    waiting = (
        Party.objects.filter(
            status__in=[Party.Status.SCHEDULED, Party.Status.IN_PROGRESS],
            pair_b__isnull=False,
            round__status__in=[Round.Status.PUBLISHED, Round.Status.IN_PROGRESS],
        )
        .filter(Q(desk__isnull=True) | Q(desk__no_show_raised_at__isnull=True))
        .select_related("round__tournament__regulations")
        .annotate(**{services.ROUND_STARTED_AT: Subquery(first_started)})
    )
    now = timezone.now()
    raised = []
    for party in waiting:
        due = services.no_show_due_at(party)
        if due is not None and due <= now and _unless_busy(flag_no_show, party.pk):
            raised.append(party.pk)
    return raised


@shared_task(base=RecordTask, name="referee.tasks.purge_idempotency_keys")
def purge_idempotency_keys() -> int:
    """Forget stored responses of Idempotency-Keys older than their lifetime."""
    from scoring.access.idempotency import purge_expired

    return purge_expired()
