"""The referee desk offline: the action queue's JSON answers and the service worker.

A table device keeps every action the referee takes in a queue on the device
(``static/js/desk-offline.js``, IndexedDB) and sends it in order, one at a time. Each action
posts the panel's own form to the desk's action URL with ``Accept: application/json`` and an
``Idempotency-Key``: ``answer`` runs it the pages' way (the view's ``run_page_form``), claims
the key and stores the answer as the API does (``scoring.access.idempotency``), and answers JSON —
saved or not, the record, the panel's message, and ``rebase``: the party's version and deal
in play right after the action, read under the party's lock. The queue sends its next action
with them, so its own earlier actions never make it stale, while a change made meanwhile by
another device still does: a stale version (409) or a deal number taken is a ``conflict``,
answered with the party's changes since the event the device last knew (``X-Desk-Since``,
``changes_since``), which the device shows beside its held actions, each to apply or drop.
A refusal (nothing done: the action is wrong) says each message by the form's field, in words
(``referee.worded``), for the device to show by the field with the referee's values kept.

The service worker (``service_worker``, served under /referee/ so that its scope covers the
party screens and My tables) keeps the shell, My tables and the last state of each party screen
visited or named by My tables (the referee's live round), for opening them offline.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from referee.serializers.records import RECORD_SERIALIZERS
from referee.sides import who_names
from referee.worded import worded
from scoring.access import idempotency
from scoring.models import Deal, Party, PartyEvent
from scoring.models.event_text import describe_event

JSON_TYPE = "application/json"
PANEL_HEADER = "X-Desk-Panel"
"""Sent by the queue when it wants the panel's HTML (with the action's message) in the answer."""
SHELL = (
    "css/app.css", "css/desk-offline.css", "css/desk-confirm.css", "css/desk-board.css",
    "img/favicon.svg", "js/htmx.min.js", "js/app.js", "js/desk-offline.js", "js/desk-decide.js",
    "js/desk-confirm.js", "js/desk-board.js", "js/offline-pages.js", "js/live.js",
)
"""The static files My tables and the party screen need, kept by the service worker when it
installs (a party screen kept from My tables but never opened online finds them there)."""
CONFIRM_HEADER = "X-Confirmation-Required"
"""Set on an answer that asks the referee to confirm the action (``referee.desk_steps``)."""
SINCE_HEADER = "X-Desk-Since"
"""Sent by the queue: the number of the party's latest event the device knew."""
MAX_SINCE = 50
"""The most changes a conflict's answer lists (the newest)."""
CONFLICT_FIELDS = ("version", "number")
"""A refusal naming one of these means the party changed meanwhile (a deal number taken)."""

Run = Callable[[], tuple[Any, dict[str, Any], int]]
Panel = Callable[..., str]


def wants_json(request: HttpRequest) -> bool:
    """Whether the desk's queue sent the action (it asks for ``application/json``)."""
    return JSON_TYPE in request.headers.get("Accept", "")


def server_ms() -> int:
    """The server's time in milliseconds since the epoch (devices measure their offset)."""
    return int(time.time() * 1000)


def party_point(party_id: int) -> dict[str, int]:
    """The party's version and the number of its deal in play: what the next action sends.

    One query, run after every queued action.
    """
    version, number, _seq = _point(party_id)
    return {"version": version, "number": number}


def _point(party_id: int) -> tuple[int, int, int]:
    """The party's version, the number of its deal in play and its latest event's number."""
    last = Deal.objects.filter(party=OuterRef("pk")).order_by("-number").values("number")[:1]
    seq = PartyEvent.objects.filter(party=OuterRef("pk")).order_by("-seq").values("seq")[:1]
    version, number, latest = Party.objects.filter(pk=party_id).values_list(
        "version", Subquery(last), Subquery(seq)).get()
    return version, (number or 0) + 1, latest or 0


def record_ref(record: object) -> dict[str, Any] | None:
    """The record an action made or changed, named: its type, id and number (a deal's)."""
    for model, (name, _shape) in RECORD_SERIALIZERS.items():
        if isinstance(record, model):
            ref = {"type": name, "id": record.pk}
            number = getattr(record, "number", None)
            if isinstance(number, int):
                ref["number"] = number
            return ref
    return None


def plain_errors(errors: Any) -> Any:
    """Serializer or service errors as plain JSON data (lists of strings, nested by field)."""
    if isinstance(errors, dict):
        return {str(key): plain_errors(value) for key, value in errors.items()}
    if isinstance(errors, list | tuple):
        return [plain_errors(value) for value in errors]
    return str(errors)


def one_line(errors: Any) -> str:
    """The messages of plain errors as one line."""
    if isinstance(errors, dict):
        return " ".join(one_line(value) for value in errors.values())
    if isinstance(errors, list):
        return " ".join(one_line(value) for value in errors)
    return str(errors)


def is_conflict(code: int, errors: dict[str, Any]) -> bool:
    """Whether a refusal says the party changed meanwhile (not that the action is wrong)."""
    return code == 409 or any(name in errors for name in CONFLICT_FIELDS)


def latest_change(party_id: int, by: bool = False) -> str:
    """The party's latest event as the panel says it, naming its pairs and players (and by
    whom, when ``by``): two queries."""
    name = get_user_model().USERNAME_FIELD
    row = (PartyEvent.objects.filter(party_id=party_id).order_by("-seq")
           .values_list("kind", "data", f"actor__{name}").first())
    if row is None:
        return ""
    kind, data, actor = row
    text = describe_event(kind, data or {}, party_names(party_id))
    return f"{text} · {actor}" if by and actor else text


def party_names(party_id: int) -> dict[str, str]:
    """The names of the party's sides and seats (``who_names``), read in one query."""
    return who_names(
        Party.objects.select_related(*(f"pair_{s}__player{n}" for s in "ab" for n in (1, 2)))
        .get(pk=party_id)
    )


def since_seq(request: HttpRequest) -> int | None:
    """The number of the party's latest event the device knew (``X-Desk-Since``), if sent."""
    value = (request.headers.get(SINCE_HEADER) or "").strip()
    return int(value) if value.isascii() and value.isdigit() else None


def changes_since(party_id: int, since: int | None, names: dict[str, str]) -> list[dict[str, Any]]:
    """The party's events after event ``since`` (the latest one alone when unknown), oldest
    first, each as the panel describes it, with its time and its author: what another device
    did since this one last synced (at most ``MAX_SINCE``, the newest)."""
    name = get_user_model().USERNAME_FIELD
    events = PartyEvent.objects.filter(party_id=party_id)
    if since is not None:
        events = events.filter(seq__gt=since)
    rows = events.order_by("-seq").values_list("seq", "kind", "data", "at", f"actor__{name}")
    return [
        {
            "seq": seq, "kind": kind, "text": describe_event(kind, data or {}, names),
            "at": at.isoformat(), "by": actor or "", "deal": kind.startswith("deal"),
        }
        for seq, kind, data, at, actor in reversed(rows[: MAX_SINCE if since is not None else 1])
    ]


def _payload(
    party_id: int, result: Any, errors: dict[str, Any], code: int, since: int | None = None
) -> dict[str, Any]:
    """The answer to one queued action (stored for its Idempotency-Key).

    A refusal says each message by the form's field, in words (``referee.worded``); a
    conflict lists the party's changes since the event ``since`` the device last knew.
    """
    errors = plain_errors(errors)
    ok = not errors
    conflict = not ok and is_conflict(code, errors)
    names = party_names(party_id) if errors else {}
    version, number, seq = _point(party_id)
    by_field = worded(errors, names)
    return {
        "ok": ok,
        "status": code,
        "record": record_ref(result) if ok else None,
        "done": (latest_change(party_id) or _("Done.")) if ok else "",
        "error": " ".join(row["text"] for row in by_field),
        "errors": errors,
        "by_field": by_field,
        "conflict": conflict,
        "latest": latest_change(party_id, by=True) if conflict else "",
        "since": changes_since(party_id, since, names) if conflict else [],
        "rebase": {"version": version, "number": number},
        "seq": seq,
    }


def confirmation(request: HttpRequest, party_id: int, step: dict[str, Any]) -> JsonResponse:
    """The queue's answer to an irreversible action sent without the referee's confirmation.

    An action queued offline may mean more on the server than on the screen it was tapped on
    (a warning queued after another of its kind becomes a fine): nothing is done, the key is
    not claimed, and the device asks the referee with the consequence's text, then sends the
    action again with ``confirmed=1`` (or drops it).
    """
    payload = {
        "ok": False, "status": 409, "busy": False, "conflict": False,
        "confirm": step["text"], "error": step["text"], "errors": {},
        "rebase": party_point(party_id),
    }
    response = _respond(request, payload, 409, None)
    response[CONFIRM_HEADER] = "1"
    return response


def fingerprint(request: HttpRequest) -> str:
    """A hash of what the form asks: the path and its fields (the CSRF token left out)."""
    fields = sorted(
        (name, value)
        for name in request.POST
        if name != "csrfmiddlewaretoken"
        for value in request.POST.getlist(name)
    )
    text = json.dumps([request.method, request.get_full_path(), fields], ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _key(request: HttpRequest) -> str:
    """The request's Idempotency-Key ("" when none; a too long one is refused)."""
    for header in idempotency.HEADERS:
        key = (request.headers.get(header) or "").strip()
        if key:
            if len(key) > idempotency.MAX_KEY_LENGTH:
                raise ValidationError(
                    _("The key is at most %(n)s characters.") % {"n": idempotency.MAX_KEY_LENGTH}
                )
            return key
    return ""


def _respond(
    request: HttpRequest, payload: dict[str, Any], code: int, panel: Panel | None,
    replayed: bool = False,
) -> JsonResponse:
    """The JSON answer: the payload, the server's time and, when asked, the panel.

    The panel carries the message of a saved action; a refusal is shown by the device's sync
    bar with the queued action, so the panel shows only the server's state then.
    """
    body = {**payload, "server_time": server_ms()}
    if panel is not None and request.headers.get(PANEL_HEADER):
        body["panel"] = panel(done=payload.get("done", ""))
    response = JsonResponse(body, status=code, encoder=JSONEncoder)
    if replayed:
        response["Idempotent-Replayed"] = "true"
    return response


def answer(
    request: HttpRequest, party_id: int, run: Run, panel: Panel | None = None
) -> HttpResponse:
    """Run a desk action sent by the queue and answer JSON, once per Idempotency-Key.

    The key's claim, the action, the party's version after it and the stored answer share one
    transaction (as ``scoring.access.idempotency.IdempotentMixin`` does for the API): a retry gets
    the stored answer, a duplicate still running 409 with ``busy``, a conflict is not stored.
    """
    replay = None
    try:
        with transaction.atomic():
            key = _key(request) if request.user.is_authenticated else ""
            claimed = None
            if key:
                claimed, replay = idempotency.claim(request.user, key, fingerprint(request))
            if replay is None:
                result, errors, code = run()
                payload = _payload(party_id, result, errors, code, since_seq(request))
                if claimed is not None:
                    idempotency.store(claimed, Response(payload, status=code))
    except APIException as exc:  # a key still running (409) or used for another request
        busy = isinstance(exc, idempotency.RequestInProgress)
        text = one_line(plain_errors(exc.detail))
        payload = {"ok": False, "status": exc.status_code, "busy": busy, "conflict": False,
                   "error": text, "errors": {"idempotency": [text]}}
        return _respond(request, payload, exc.status_code, None)
    if replay is not None:
        return _respond(request, dict(replay.data), replay.status_code, panel, replayed=True)
    return _respond(request, payload, code, panel)


def _shell_version(names: tuple[str, ...]) -> str:
    """A digest of the shell's URLs and files: a new service worker when one changes."""
    digest = hashlib.sha256()
    for name in names:
        digest.update(static(name).encode())
        found = finders.find(name)
        if found:
            stat = os.stat(found)
            digest.update(f"{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:16]


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The desk's service worker script (scope /referee/): My tables and the party screens open
    offline."""
    response = render(
        request,
        "referee/sw.js",
        {
            "version": _shell_version(SHELL),
            "shell": json.dumps([static(name) for name in SHELL]),
            "static_prefix": json.dumps(static("")),
        },
        content_type="text/javascript; charset=utf-8",
    )
    response["Service-Worker-Allowed"] = request.path.rsplit("/", 1)[0] + "/"
    response["Cache-Control"] = "no-cache"
    return response
