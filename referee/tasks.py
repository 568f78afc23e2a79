"""Background work on party clocks: idempotent, acknowledged late, retried."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from referee import services
from tournaments.models import Party


@shared_task(
    acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5
)
def expire_party_clock(party_id: int) -> bool:
    """Mark one party's time as run out if it has (safe to run any number of times)."""
    party = services.mark_time_expired(party_id)
    return party.time_expired_at is not None


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def sweep_party_clocks() -> list[int]:
    """Find running parties whose time ran out and mark them (the beat runs this often)."""
    marked = []
    running = Party.objects.filter(
        status=Party.Status.IN_PROGRESS, time_expired_at__isnull=True, paused_at__isnull=True
    ).select_related("round__tournament__regulations")
    for party in running:
        if party.seconds_left() <= 0 and expire_party_clock(party.pk):
            marked.append(party.pk)
    return marked
