"""One attempt of a webhook delivery: the signed POST to the subscription's URL.

A delivery is POSTed as JSON with ``X-Domino-Event``, ``X-Domino-Delivery``,
``X-Domino-Timestamp`` and ``X-Domino-Signature: sha256=<hex HMAC-SHA256 of
"<timestamp>.<body>" with the subscription's secret>``. A 2xx answer delivers it; anything else
is retried with exponential backoff (``retry_delay``). Which delivery is attempted, by whom and
when is the outbox's business (``scoring.webhooks.outbox``).
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import socket
import ssl
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from scoring.core.errors import ServiceError
from scoring.models import WebhookDelivery
from scoring.webhooks.addresses import Target, check_webhook_url

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
