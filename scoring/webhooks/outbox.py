"""The webhook outbox: the pending deliveries, claimed one at a time and sent in order.

Every delivery is a row (``WebhookDelivery``: state, attempts, ``next_attempt_at``) written in
the transaction of the event. Whoever sends — a Celery worker's task, the beat's sweep, the web
process's sender thread, ``manage.py send_webhooks`` — goes through here:

- **The head only.** A subscription's head is its pending delivery with the lowest sequence
  number; only a head is ever attempted, so one subscription's deliveries go out one at a time,
  in order, and a later one waits while an earlier one waits for its retry.
- **A claim.** A sender takes a due head with one conditional ``UPDATE`` (pending, due, and no
  live claim: ``claimed_until`` empty or past) that sets its token and ``claimed_until``; of two
  senders at once only one changes the row (on PostgreSQL the head is first read ``FOR UPDATE
  SKIP LOCKED``, so the other does not even wait for it). The POST runs outside any transaction;
  its outcome is written only under the same token, and frees the claim.
- **The delay.** A failed attempt sets ``next_attempt_at`` (``retry_delay``); the head is not
  due before it, whoever asks. A sender that dies mid-attempt lets its claim lapse
  (``CLAIM_SECONDS``) and the delivery is attempted again: at least once, never twice at once.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import connections, router, transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from scoring.models import WebhookDelivery
from scoring.webhooks.delivery import Attempt, post, retry_delay, setting

logger = logging.getLogger(__name__)

PENDING = WebhookDelivery.Status.PENDING


def claim_seconds() -> float:
    """How long a claim holds: well past the longest attempt (each socket wait is capped)."""
    return max(120.0, 10 * float(setting("WEBHOOK_TIMEOUT_SECONDS", 5.0)))


def heads() -> QuerySet[WebhookDelivery]:
    """The head of every active subscription: its pending delivery of the lowest sequence."""
    earlier = WebhookDelivery.objects.filter(
        subscription=OuterRef("subscription"), status=PENDING, sequence__lt=OuterRef("sequence"))
    return WebhookDelivery.objects.filter(
        status=PENDING, subscription__active=True).exclude(Exists(earlier))


def _due(now: datetime) -> Q:
    """Due (its retry time reached) and free (no claim, or one that lapsed)."""
    return ((Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now))
            & (Q(claimed_until__isnull=True) | Q(claimed_until__lte=now)))


def due_heads(now: datetime | None = None) -> tuple[list[int], float | None]:
    """The subscriptions whose head is due now, and the seconds until the next head falls due
    (a retry's time, a claim's end; None when nothing is pending)."""
    now = now or timezone.now()
    due, later = [], []
    for subscription, next_at, held in heads().order_by("subscription_id").values_list(
            "subscription_id", "next_attempt_at", "claimed_until"):
        waits_until = max(t for t in (next_at, held, now) if t is not None)
        if waits_until <= now:
            due.append(subscription)
        else:
            later.append((waits_until - now).total_seconds())
    return due, (0.0 if due else min(later, default=None))


def pending_count() -> int:
    """Deliveries of active subscriptions not yet delivered nor failed."""
    return WebhookDelivery.objects.filter(status=PENDING, subscription__active=True).count()


def _take(candidates: QuerySet[WebhookDelivery], now: datetime,
          claim: dict[str, object]) -> int | None:
    """The first candidate's id if the conditional ``UPDATE`` claimed it (else None)."""
    pk = candidates.values_list("pk", flat=True).first()
    if pk is None:
        return None
    taken = WebhookDelivery.objects.filter(_due(now), pk=pk, status=PENDING).update(**claim)
    return pk if taken else None


def claim_head(subscription_id: int) -> WebhookDelivery | None:
    """Claim the subscription's head if it is due and free; None when there is none to take."""
    now = timezone.now()
    candidates = heads().filter(_due(now), subscription_id=subscription_id)
    claim = {"claim": uuid.uuid4().hex,
             "claimed_until": now + timedelta(seconds=claim_seconds())}
    connection = connections[router.db_for_write(WebhookDelivery)]
    if connection.features.has_select_for_update_skip_locked:
        with transaction.atomic(using=connection.alias):
            pk = _take(candidates.select_for_update(skip_locked=True, of=("self",)), now, claim)
    else:  # SQLite: the conditional UPDATE alone is the claim (no transaction held open)
        pk = _take(candidates, now, claim)
    if pk is None:
        return None
    return WebhookDelivery.objects.select_related("subscription").get(pk=pk)


@dataclass
class Outcome:
    """What one attempt did: delivered, failed for good, or the seconds until its retry."""

    delivery: int
    sequence: int
    delivered: bool = False
    failed: bool = False
    retry_in: float | None = None


def finish(delivery: WebhookDelivery, attempt: Attempt) -> Outcome:
    """Write an attempt's outcome on the claimed delivery and free it (only under its claim)."""
    now = timezone.now()
    attempts = delivery.attempts + 1
    outcome = Outcome(delivery.pk, delivery.sequence)
    changes: dict[str, object] = {
        "attempts": attempts, "response_code": attempt.code, "response_body": attempt.body,
        "error": attempt.error, "claim": "", "claimed_until": None, "next_attempt_at": None,
    }
    if attempt.ok:
        outcome.delivered = True
        changes.update(status=WebhookDelivery.Status.DELIVERED, delivered_at=now)
    elif attempt.refused or attempts >= int(setting("WEBHOOK_MAX_ATTEMPTS", 10)):
        outcome.failed = True
        changes.update(status=WebhookDelivery.Status.FAILED)
    else:
        outcome.retry_in = retry_delay(attempts)
        changes.update(next_attempt_at=now + timedelta(seconds=outcome.retry_in))
    changes["log"] = [*delivery.log, {
        "attempt": attempts, "at": now.isoformat(), "code": attempt.code, "body": attempt.body,
        "error": attempt.error, "ms": round(attempt.ms, 1), "retry_in": outcome.retry_in,
    }]
    kept = WebhookDelivery.objects.filter(
        pk=delivery.pk, claim=delivery.claim, status=PENDING).update(**changes)
    if not kept:  # its claim lapsed and another sender took it: that one's outcome stands
        logger.warning("webhook delivery %s: attempt %s came after its claim lapsed",
                       delivery.pk, attempts)
    logger.info("webhook delivery %s attempt %s: %s %s", delivery.pk, attempts, attempt.code,
                attempt.error or changes.get("status", "retry"))
    return outcome


def send_head(subscription_id: int) -> Outcome | None:
    """Claim the subscription's due head, POST it, write the outcome; None if none was due."""
    delivery = claim_head(subscription_id)
    if delivery is None:
        return None
    return finish(delivery, post(delivery))


def send_queue(subscription_id: int) -> list[Outcome]:
    """Send the subscription's due deliveries in order, until one waits for its retry."""
    done: list[Outcome] = []
    while (outcome := send_head(subscription_id)) is not None:
        done.append(outcome)
        if outcome.retry_in is not None:
            break
    return done


@dataclass
class Sweep:
    """What a sweep did, and the seconds until the next head falls due (None: none pending)."""

    outcomes: list[Outcome] = field(default_factory=list)
    next_in: float | None = None

    @property
    def attempted(self) -> int:
        """Attempts made."""
        return len(self.outcomes)

    @property
    def delivered(self) -> int:
        """Deliveries delivered."""
        return sum(o.delivered for o in self.outcomes)


def sweep() -> Sweep:
    """Send every due head, a subscription's next as soon as its head is done, in rounds (one
    attempt per subscription each) so a slow receiver does not hold up the others."""
    result = Sweep()
    while True:
        due, result.next_in = due_heads()
        sent = [o for o in (send_head(pk) for pk in due) if o is not None]
        if not sent:  # nothing due, or every due head was taken by another sender
            return result
        result.outcomes.extend(sent)
