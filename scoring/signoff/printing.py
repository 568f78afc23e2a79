"""Printing a whole round as one PDF: blank paper protocols before it, signed ones after it.

A print job is requested in a transaction and queued after it commits (ids only); the Celery
task renders the PDF with its progress kept on the job, stores it under a random path until
it expires, and the page polls the job. A job with the same input (the SHA-256 of everything
printed) that is queued, running or ready is reused instead of printing again.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.access import permissions
from scoring.core.background import RecordTask
from scoring.core.errors import ServiceError
from scoring.core.site import serving, site_url
from scoring.models import PARTY_RELATED, Party, PrintJob, Protocol, Round
from scoring.protocols import (
    ProtocolData,
    canonical_json,
    protocol_data_from_dict,
    render_batch,
    sha256_hex,
)
from scoring.signoff.content import build_blank_data
from scoring.signoff.identity import installation_signer
from scoring.signoff.referees import referee_roles

logger = logging.getLogger(__name__)

#: Bump when the layout of printed PDFs changes, so that older prints are not reused.
PRINT_LAYOUT = "1"
ROUND_PRINT_REASON = "Signed protocols of a round, printed together"
PROGRESS_STEPS = 50
#: A job queued or running for longer than this was lost with its worker: print anew.
STALE_AFTER = timedelta(minutes=10)


def round_parties(rnd: Round) -> list[Party]:
    """The parties of a round that have a protocol (byes excluded), in table order."""
    return list(
        Party.objects.filter(round=rnd, pair_b__isnull=False)
        .select_related(*PARTY_RELATED)
        .order_by("table__number", "id")
    )


def signed_protocols(parties: list[Party]) -> dict[int, Protocol]:
    """The signed protocol of each of ``parties`` that has one, by party id (one query)."""
    return {
        p.party_id: p
        for p in Protocol.objects.filter(party__in=parties, status=Protocol.Status.SIGNED)
    }


def unsigned_parties(rnd: Round) -> list[Party]:
    """The round's parties (byes excluded) whose protocol is not signed yet, by table."""
    parties = round_parties(rnd)
    signed = signed_protocols(parties)
    return [party for party in parties if party.pk not in signed]


def round_items(rnd: Round, kind: str) -> tuple[list[ProtocolData], int]:
    """What a round's print holds, and how many tables it leaves out (not signed yet).

    Blank: a paper protocol per table. Signed: each table's signed protocol exactly as it was
    signed (from the data stored with it), drawn afresh in the round's PDF.
    """
    parties = round_parties(rnd)
    if kind == PrintJob.Kind.BLANK:
        roles = referee_roles(parties[0]) if parties else []  # the tournament's, asked once
        return [build_blank_data(party, roles) for party in parties], 0
    signed = signed_protocols(parties)
    stored = (signed[p.pk].data for p in parties if p.pk in signed)
    items = [protocol_data_from_dict(data) for data in stored if data is not None]
    return items, len(parties) - len(items)


def cache_key(kind: str, items: list[ProtocolData]) -> str:
    """The SHA-256 of everything a print shows: same key, same PDF."""
    head = json.dumps([PRINT_LAYOUT, kind, items[0].language if items else ""]).encode()
    return sha256_hex(b"\n".join([head, *(canonical_json(item) for item in items)]))


def render_round(rnd: Round, kind: str, items: list[ProtocolData] | None = None,
                 progress: Callable[[int, int], None] | None = None) -> bytes:
    """Render a round's print as one fresh PDF; the signed print is signed once as a whole."""
    if items is None:
        items, _skipped = round_items(rnd, kind)
    pdf = render_batch(items, blank=kind == PrintJob.Kind.BLANK, progress=progress)
    if kind == PrintJob.Kind.SIGNED:
        pdf = installation_signer().sign(pdf, reason=ROUND_PRINT_REASON)
    return pdf


def _check_kind(kind: str) -> str:
    if kind not in PrintJob.Kind.values:
        raise ServiceError("kind", _("Choose blank or signed protocols."))
    return kind


@transaction.atomic
def request_print_job(round_id: int, kind: str, *, actor: Any) -> PrintJob:
    """Reuse a print of the same input, or queue a new one after this transaction commits."""
    _check_kind(kind)
    rnd = Round.objects.select_for_update(of=("self",)).filter(pk=round_id).order_by().first()
    if rnd is None:
        raise ServiceError("round", _("No such round."))
    if not permissions.can_print_round(actor, rnd.tournament):
        raise PermissionDenied
    items, skipped = round_items(rnd, kind)
    if not items:
        raise ServiceError("kind", _("Nothing to print: no signed protocol in this round yet.")
                           if kind == PrintJob.Kind.SIGNED
                           else _("Nothing to print: the round has no parties."))
    key = cache_key(kind, items)
    now = timezone.now()
    found = (
        PrintJob.objects.filter(round=rnd, kind=kind, cache_key=key, expires_at__gt=now)
        .filter(Q(status=PrintJob.Status.DONE) | Q(created_at__gt=now - STALE_AFTER))
        .exclude(status=PrintJob.Status.FAILED)
        .first()
    )
    if found is not None:
        return found
    job = PrintJob.objects.create(
        round=rnd, kind=kind, cache_key=key, total=len(items), skipped=skipped,
        site_url=site_url(),
        requested_by=actor if getattr(actor, "is_authenticated", False) else None,
        expires_at=now + timedelta(hours=settings.PRINT_JOB_HOURS))
    render_print_job.delay_on_commit(job.pk)
    logger.info("print job %s queued: round %s, %s protocols, %s", job.pk, rnd.pk, len(items), kind)
    return job


def run_print_job(job_id: int) -> PrintJob | None:
    """Render a queued job (the Celery task's body); safe to run twice."""
    job = PrintJob.objects.select_related("round__tournament").filter(pk=job_id).first()
    if job is None or job.status == PrintJob.Status.DONE:
        return job
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.RUNNING, done=0, error="")
    step = max(1, job.total // PROGRESS_STEPS)

    def progress(done: int, total: int) -> None:
        if done % step == 0 or done == total:
            PrintJob.objects.filter(pk=job.pk).update(done=done, total=total)

    try:
        with serving(job.site_url):  # the address it was requested at: no request here
            items, skipped = round_items(job.round, job.kind)
            pdf = render_round(job.round, job.kind, items, progress)
    except Exception as exc:
        PrintJob.objects.filter(pk=job.pk).update(
            status=PrintJob.Status.FAILED, error=str(exc)[:2000], finished_at=timezone.now())
        raise
    job.refresh_from_db()
    job.file.save("round.pdf", ContentFile(pdf), save=False)
    job.sha256 = sha256_hex(pdf)
    job.cache_key = cache_key(job.kind, items)  # what was printed, should it have changed
    job.total = job.done = len(items)
    job.skipped = skipped
    job.status = PrintJob.Status.DONE
    job.finished_at = timezone.now()
    job.save()
    return job


def purge_expired_jobs(now: Any = None) -> int:
    """Delete expired print jobs and their files; return how many."""
    now = now or timezone.now()
    count = 0
    for job in PrintJob.objects.filter(expires_at__lte=now):
        if job.file:
            job.file.delete(save=False)
        job.delete()
        count += 1
    return count


@shared_task(base=RecordTask, name="scoring.tasks.render_print_job")
def render_print_job(job_id: int) -> str:
    """Render one round print job (idempotent: a finished job is left as it is)."""
    job = run_print_job(job_id)
    return job.status if job is not None else "missing"
