"""Writing a tournament to its file: every section's records, users by name, PDFs in base64."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import posixpath
from collections.abc import Iterator
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.core.site import site_url
from scoring.models import Profile, Tournament
from tournaments.transfer.archive_format import (
    FORMAT,
    SECTIONS,
    VERSION,
    ArchiveError,
    carried_fields,
    field_kind,
    plain_value,
    spread_keys,
)

# -- export -------------------------------------------------------------------------------


def _file_data(fieldfile: Any) -> dict[str, str] | None:
    """A stored file as ``{"name", "sha256", "base64"}`` (None when there is none)."""
    if not fieldfile:
        return None
    try:
        with fieldfile.open("rb") as handle:
            content = handle.read()
    except OSError as exc:
        raise ArchiveError(_("The stored file %(name)s is missing; the tournament cannot be "
                             "exported whole.") % {"name": fieldfile.name}) from exc
    return {
        "name": posixpath.basename(fieldfile.name),
        "sha256": hashlib.sha256(content).hexdigest(),
        "base64": base64.b64encode(content).decode("ascii"),
    }


def _record(obj: models.Model, wanted: set[int],
            profiles: set[int] | None = None) -> dict[str, Any]:
    """One record of the file (user ids are collected in ``wanted``, profile ids in
    ``profiles``; both resolved later)."""
    record: dict[str, Any] = {}
    if not obj._meta.pk.is_relation:
        record["id"] = obj.pk
    for name, field in carried_fields(type(obj)).items():
        if field.many_to_many:
            record[name] = sorted(getattr(obj, name).values_list("pk", flat=True))
            continue
        spread = spread_keys(type(obj), name)
        if spread:
            record.update({key: plain_value(getattr(obj, key)) for key in spread})
            continue
        kind = field_kind(field)
        value = getattr(obj, field.attname)
        if kind == "user":
            if value is not None:
                wanted.add(value)
            record[name] = value
        elif kind == "profile":
            if value is not None and profiles is not None:
                profiles.add(value)
            record[name] = value
        elif kind == "ref":
            record[name] = value
        elif kind == "file":
            record[name] = _file_data(getattr(obj, name))
        else:
            record[name] = plain_value(value)
    return record


def _user_fields(model: type[models.Model]) -> list[str]:
    """The names of a model's fields that refer to users."""
    return [name for name, f in carried_fields(model).items()
            if not f.many_to_many and field_kind(f) == "user"]


@contextlib.contextmanager
def _snapshot() -> Iterator[None]:
    """One consistent view of the database while a tournament is read (it may be in play).

    A transaction of its own; on PostgreSQL a repeatable-read one, so that every query sees
    the same moment (SQLite holds its read lock to the end of the transaction anyway).
    """
    if connection.in_atomic_block:  # the caller's transaction decides
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as the file's JSON document (as stored, whatever the instance)."""
    with _snapshot():
        return _export(Tournament.objects.get(pk=tournament.pk))


def _export(tournament: Tournament) -> dict[str, Any]:
    """The document of a tournament, read inside one snapshot."""
    wanted: set[int] = set()
    profiles: set[int] = set()
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "site_url": site_url(),
        "users": [],
        "tournament": _record(tournament, wanted),
    }
    for section in SECTIONS:
        doc[section.name] = [_record(obj, wanted, profiles)
                             for obj in section.queryset(tournament)]
    doc["profiles"] = profile_records(profiles)
    user_model = get_user_model()
    found = {u.pk: u for u in user_model._default_manager.filter(pk__in=wanted)}
    usernames = {pk: user.get_username() for pk, user in found.items()}
    for model, records in [(Tournament, [doc["tournament"]])] + [
            (s.model, doc[s.name]) for s in SECTIONS]:
        for name in _user_fields(model):
            for record in records:
                if record[name] is not None:
                    record[name] = usernames.get(record[name])
    doc["users"] = [
        {"username": usernames[pk], "first_name": getattr(user, "first_name", ""),
         "last_name": getattr(user, "last_name", ""), "email": getattr(user, "email", "")}
        for pk, user in sorted(found.items(), key=lambda item: usernames[item[0]])
    ]
    return doc


def profile_records(pks: set[int]) -> list[dict[str, Any]]:
    """The players' profiles: the link key (the id here) and what re-links them elsewhere."""
    return [{"id": p.pk, "federation_id": p.federation_id, "name": p.name, "club": p.club,
             "city": p.city, "birth_year": p.birth_year}
            for p in Profile.objects.filter(pk__in=pks).order_by("pk")]


def dumps(doc: dict[str, Any]) -> bytes:
    """The document as the file's bytes (UTF-8, one record a line at the most)."""
    return json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8")


def export_bytes(tournament: Tournament) -> bytes:
    """The tournament file's bytes."""
    return dumps(export_tournament(tournament))


def export_filename(tournament: Tournament) -> str:
    """The file's name, e.g. ``spring-cup.domino.json``."""
    return f"{tournament.slug}.domino.json"


def section_counts(tournament: Tournament) -> dict[str, int]:
    """How many records of each kind the tournament has (what an import must reproduce)."""
    return {section.name: section.queryset(tournament).count() for section in SECTIONS}


def summary(tournament: Tournament) -> str:
    """What the tournament holds, in one line: "8 tables, 32 players, …"."""
    return ", ".join(f"{n} {name}" for name, n in section_counts(tournament).items() if n)
