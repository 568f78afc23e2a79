"""Idempotency-Key for unsafe API requests: a retried request gets the response stored for it.

Same key and same user within ``IDEMPOTENCY_KEY_HOURS`` → the same stored response, with the
header ``Idempotent-Replayed: true``. The claim, the action and the stored response share one
transaction: a duplicate sent meanwhile waits for the first and gets its response (a claim
left running by another route answers 409). The same key sent with a different request → 422.
Responses 409, 429 and 5xx are not stored, so the client may retry them. Services also take a
client id, so even a lost stored response cannot make a second record.
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import status
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from scoring.core.compiled import save_fields
from scoring.models import IdempotencyKey

HEADER = "Idempotency-Key"
HEADERS = (HEADER, "X-Idempotency-Key")
MAX_KEY_LENGTH = 100
ABANDONED_AFTER = timedelta(seconds=60)
"""A request still marked running after this long died with its worker; its key is free."""


class RequestInProgress(APIException):
    """The first request with this key has not finished yet."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = _("A request with this Idempotency-Key is still being processed.")
    default_code = "idempotency_in_progress"


class KeyReused(APIException):
    """The key was already used for a different request."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_detail = _("This Idempotency-Key was already used for a different request.")
    default_code = "idempotency_key_reused"


class _Replay(Exception):  # noqa: N818 - a control-flow signal, not an error
    """Carries the stored response out of ``initial`` to ``handle_exception``."""

    def __init__(self, response: Response) -> None:
        super().__init__("replay")
        self.response = response


def request_key(request: Request) -> str:
    """The request's Idempotency-Key ("" when none was sent)."""
    for header in HEADERS:
        key = (request.headers.get(header) or "").strip()
        if key:
            if len(key) > MAX_KEY_LENGTH:
                raise ValidationError(
                    {HEADER: [_("The key is at most %(n)s characters.") % {"n": MAX_KEY_LENGTH}]}
                )
            return key
    return ""


def fingerprint(request: Request) -> str:
    """A hash of what the request asks: method, path and body."""
    digest = hashlib.sha256()
    for part in (request.method or "", request.get_full_path()):
        digest.update(part.encode())
        digest.update(b"\0")
    digest.update(request.body)  # read before DRF parses it (the HttpRequest's copy)
    return digest.hexdigest()


def _lifetime() -> timedelta:
    """How long a stored response answers retries."""
    return timedelta(hours=getattr(settings, "IDEMPOTENCY_KEY_HOURS", 24))


def _insert_unless_taken(user: Any, key: str, print_: str) -> IdempotencyKey | None:
    """Insert the key's row; None when another request holds it (it never aborts a transaction).

    ``INSERT … ON CONFLICT DO NOTHING`` waits for a concurrent holder to finish, so a duplicate
    sent meanwhile then finds the first one's stored response.
    """
    now = timezone.now()
    q = connection.ops.quote_name
    table, user_id, key_col = q(IdempotencyKey._meta.db_table), q("user_id"), q("key")
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({user_id}, {key_col}, {q('fingerprint')}, {q('created_at')}) "
            f"VALUES (%s, %s, %s, %s) ON CONFLICT ({user_id}, {key_col}) DO NOTHING "
            f"RETURNING {q('id')}",
            [user.pk, key, print_, now],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    return IdempotencyKey(pk=row[0], user=user, key=key, fingerprint=print_, created_at=now)


def claim(user: Any, key: str, print_: str) -> tuple[IdempotencyKey | None, Response | None]:
    """Reserve the key for this request, or return the response stored for it.

    Raises RequestInProgress while the first request runs and KeyReused for another request.
    """
    for _attempt in range(2):
        record = _insert_unless_taken(user, key, print_)
        if record is not None:
            return record, None
        found = IdempotencyKey.objects.filter(user=user, key=key).first()
        if found is None:
            continue
        now = timezone.now()
        running = found.status_code is None
        if found.created_at < now - _lifetime() or (
            running and found.created_at < now - ABANDONED_AFTER
        ):
            IdempotencyKey.objects.filter(pk=found.pk, created_at=found.created_at).delete()
            continue
        if found.fingerprint != print_:
            raise KeyReused()
        if running:
            raise RequestInProgress()
        return None, Response(
            found.response, status=found.status_code, headers={"Idempotent-Replayed": "true"}
        )
    raise RequestInProgress()


def store(record: IdempotencyKey, response: Response) -> None:
    """Keep the response for retries; forget the key when the client should retry anew."""
    code = response.status_code
    if code >= 500 or code in (status.HTTP_409_CONFLICT, status.HTTP_429_TOO_MANY_REQUESTS):
        IdempotencyKey.objects.filter(pk=record.pk).delete()
        return
    record.status_code = code
    record.response = storable(getattr(response, "data", None))
    save_fields(record, ["status_code", "response"])


NUL_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\u0000")
"""A NUL in JSON text: ``\\u0000`` not itself escaped (preceded by an even run of backslashes)."""


def storable(data: Any) -> Any:
    """An answer's data as JSON PostgreSQL keeps: a NUL, which ``jsonb`` refuses (a refusal
    that echoes a field name or value sent with one was a 500), becomes U+FFFD."""
    text = json.dumps(data, cls=JSONEncoder)
    return json.loads(NUL_ESCAPE.sub(r"\1\\ufffd", text))


def purge_expired() -> int:
    """Delete keys older than their lifetime; return how many."""
    deleted, _by_model = IdempotencyKey.objects.filter(
        created_at__lt=timezone.now() - _lifetime()
    ).delete()
    return deleted


class IdempotentMixin:
    """For DRF views: unsafe requests with an Idempotency-Key are answered at most once."""

    idempotency_record: IdempotencyKey | None = None

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        """With a key, claim it, act and store the answer in one transaction.

        A duplicate sent meanwhile waits on the key's row and then gets the stored answer;
        a crash rolls everything back, the claim included, so the key stays usable.
        """
        keyed = request.method not in SAFE_METHODS and any(request.headers.get(h) for h in HEADERS)
        if not keyed:
            return super().dispatch(request, *args, **kwargs)  # type: ignore[misc]
        with transaction.atomic():
            return super().dispatch(request, *args, **kwargs)  # type: ignore[misc]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """After authentication, claim the key or replay the stored response."""
        self.idempotency_record = None
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        if request.method in SAFE_METHODS or not request.user.is_authenticated:
            return
        key = request_key(request)
        if not key:
            return
        record, replay = claim(request.user, key, fingerprint(request))
        if replay is not None:
            raise _Replay(replay)
        self.idempotency_record = record

    def handle_exception(self, exc: Exception) -> Response:
        """Answer a replay with the stored response."""
        if isinstance(exc, _Replay):
            return exc.response
        return super().handle_exception(exc)  # type: ignore[misc]

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        """Store the response of a claimed key."""
        response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]
        record, self.idempotency_record = self.idempotency_record, None
        if record is not None:
            store(record, response)
        return response
