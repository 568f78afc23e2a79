"""Sending webhook deliveries: signed POSTs, one subscription's deliveries in sequence order.

A delivery is POSTed as JSON with ``X-Domino-Event``, ``X-Domino-Delivery``,
``X-Domino-Timestamp`` and ``X-Domino-Signature: sha256=<hex HMAC-SHA256 of
"<timestamp>.<body>" with the subscription's secret>``. A 2xx answer delivers it; anything else
is retried with exponential backoff (``WEBHOOK_RETRY_BASE_SECONDS`` doubled each time, capped
at ``WEBHOOK_RETRY_MAX_SECONDS``) until ``WEBHOOK_MAX_ATTEMPTS``; then it has failed. Every
attempt is logged on the delivery (code, truncated body, error, the delay before the next).

Ordering: a subscription's deliveries are sent one at a time, lowest sequence number first. The
task takes the oldest pending delivery under a row lock; a later delivery is not sent while an
earlier one is pending (or waiting for its retry), only after it was delivered or has failed.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import logging
import socket
import ssl
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from scoring.core.background import RecordTask
from scoring.core.errors import ServiceError
from scoring.models import WebhookDelivery
from scoring.webhooks.addresses import Target, check_webhook_url

logger = logging.getLogger(__name__)

BODY_KEPT = 1000  # characters of a receiver's answer kept on the delivery
USER_AGENT = "domino-webhooks/1"


def setting(name: str, default: Any) -> Any:
    """A webhook setting, with its default."""
    return getattr(settings, name, default)


def sign(secret: str, timestamp: str, body: bytes) -> str:
    """The ``X-Domino-Signature`` value: ``sha256=`` and the HMAC of ``<timestamp>.<body>``."""
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + digest.hexdigest()


def delivery_body(delivery: WebhookDelivery) -> bytes:
    """The JSON body of a delivery: its id, event, sequence number, time and payload."""
    envelope = {
        "delivery": delivery.pk,
        "event": delivery.event,
        "sequence": delivery.sequence,
        "created_at": delivery.created_at.isoformat(),
        "replay_of": delivery.replay_of_id,
        "data": delivery.payload,
    }
    return json.dumps(envelope, ensure_ascii=False, separators=(",", ":")).encode()


def retry_delay(attempts: int) -> float:
    """Seconds before the next attempt after ``attempts`` failed ones: 1, 2, 4 … capped."""
    base = float(setting("WEBHOOK_RETRY_BASE_SECONDS", 1.0))
    cap = float(setting("WEBHOOK_RETRY_MAX_SECONDS", 300.0))
    return min(cap, base * 2 ** max(0, attempts - 1))


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """An HTTP connection to the address the URL guard checked (the Host header keeps the name)."""

    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self.address = target.addresses[0]

    def connect(self) -> None:
        """Connect to the checked address, not to a fresh resolution of the name."""
        self.sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """An HTTPS connection to the checked address; the certificate is checked for the name."""

    def __init__(self, target: Target, timeout: float) -> None:
        self.ssl_context = ssl.create_default_context()
        super().__init__(target.host, target.port, timeout=timeout, context=self.ssl_context)
        self.address = target.addresses[0]

    def connect(self) -> None:
        """Connect to the checked address and wrap the socket for the URL's host name."""
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self.ssl_context.wrap_socket(sock, server_hostname=self.host)


@dataclass
class Attempt:
    """What one POST gave: the response code and body, or the error; refused by the guard."""

    code: int | None = None
    body: str = ""
    error: str = ""
    refused: bool = False
    ms: float = 0.0

    @property
    def ok(self) -> bool:
        """A 2xx answer delivers."""
        return self.code is not None and 200 <= self.code < 300


def post(delivery: WebhookDelivery) -> Attempt:
    """POST one delivery to its subscription's URL, checked again by the URL guard."""
    subscription = delivery.subscription
    try:
        target = check_webhook_url(subscription.url)
    except ServiceError as err:
        return Attempt(error=str(err.message), refused=True)
    body = delivery_body(delivery)
    timestamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json; charset=utf-8",
        "User-Agent": USER_AGENT,
        "X-Domino-Event": delivery.event,
        "X-Domino-Delivery": str(delivery.pk),
        "X-Domino-Timestamp": timestamp,
        "X-Domino-Signature": sign(subscription.secret, timestamp, body),
    }
    timeout = float(setting("WEBHOOK_TIMEOUT_SECONDS", 5.0))
    connection_class = _PinnedHTTPSConnection if target.scheme == "https" else \
        _PinnedHTTPConnection
    connection = connection_class(target, timeout)
    started = time.perf_counter()
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        answer = response.read(4 * BODY_KEPT).decode("utf-8", "replace")[:BODY_KEPT]
        return Attempt(code=response.status, body=answer,
                       ms=(time.perf_counter() - started) * 1000)
    except (OSError, http.client.HTTPException) as err:
        return Attempt(error=f"{type(err).__name__}: {err}"[:BODY_KEPT],
                       ms=(time.perf_counter() - started) * 1000)
    finally:
        connection.close()


def _record(delivery: WebhookDelivery, attempt: Attempt) -> float | None:
    """Store an attempt on the delivery; the delay before the next attempt, or None."""
    now = timezone.now()
    delivery.attempts += 1
    delivery.response_code = attempt.code
    delivery.response_body = attempt.body
    delivery.error = attempt.error
    delay = None
    if attempt.ok:
        delivery.status = WebhookDelivery.Status.DELIVERED
        delivery.delivered_at = now
        delivery.next_attempt_at = None
    elif attempt.refused or delivery.attempts >= int(setting("WEBHOOK_MAX_ATTEMPTS", 10)):
        delivery.status = WebhookDelivery.Status.FAILED
        delivery.next_attempt_at = None
    else:
        delay = retry_delay(delivery.attempts)
        delivery.next_attempt_at = now + timedelta(seconds=delay)
    delivery.log = [*delivery.log, {
        "attempt": delivery.attempts, "at": now.isoformat(), "code": attempt.code,
        "body": attempt.body, "error": attempt.error, "ms": round(attempt.ms, 1),
        "retry_in": delay,
    }]
    delivery.save()
    logger.info("webhook delivery %s attempt %s: %s %s", delivery.pk, delivery.attempts,
                attempt.code, attempt.error or delivery.status)
    return delay


STOP, NEXT = "stop", "next"


def _attempt_head(subscription_id: int, retry_of: int | None) -> str:
    """Send the subscription's oldest pending delivery if it is due: NEXT to go on, or STOP."""
    with transaction.atomic():
        pending = WebhookDelivery.objects.filter(
            subscription_id=subscription_id, status=WebhookDelivery.Status.PENDING)
        head = pending.order_by("sequence").values_list("pk", flat=True).first()
        if head is None:
            return STOP
        # Another worker holding the head is sending it and goes on down the queue itself.
        delivery = (WebhookDelivery.objects.select_for_update(skip_locked=True, of=("self",))
                    .select_related("subscription").filter(pk=head).first())
        if delivery is None:
            return STOP
        if delivery.status != WebhookDelivery.Status.PENDING:
            return NEXT
        if not delivery.subscription.active:
            return STOP
        due = delivery.next_attempt_at is None or delivery.next_attempt_at <= timezone.now()
        if not due and retry_of != delivery.pk:
            return STOP  # its retry is scheduled; the later deliveries wait for it
        delay = _record(delivery, post(delivery))
        if delay is not None:
            deliver_webhooks.queue_after(delay, subscription_id, delivery.pk)
            return STOP
    return NEXT


@shared_task(base=RecordTask, name="scoring.webhook_delivery.deliver_webhooks")
def deliver_webhooks(subscription_id: int, retry_of: int | None = None) -> int:
    """Send a subscription's pending deliveries in sequence order; how many were attempted."""
    attempted = 0
    while _attempt_head(subscription_id, retry_of) == NEXT:
        retry_of = None
        attempted += 1
    return attempted
