"""Reading a tournament file into a new tournament, in one transaction, with new ids.

Whatever the file says of its protocols' authenticity is set aside: each signed version's file
is checked against this installation's trusted certificates and its kept data against the
fingerprint the file carries (``scoring.signoff.checks``), and each current signed version's
data fingerprint is computed again from the imported records (``scoring.signoff.snapshot``).
A version that fails is kept as an unverified copy, with why.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from typing import Any, Literal, TypeVar, overload

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import DatabaseError, connection, models, transaction
from django.db.models.sql import InsertQuery
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.core.errors import translate_engine_error
from scoring.models import Protocol, Tournament, TournamentRole
from scoring.rules import RuleError
from scoring.signoff.checks import file_problem
from scoring.signoff.snapshot import mark_imported
from tournaments.transfer.archive_checks import (
    free_slug,
    refuse_known_protocols,
    refuse_known_team_sheets,
)
from tournaments.transfer.archive_format import (
    ID_LISTS,
    ORDER,
    RETIRED,
    SECTION_OF,
    SECTIONS,
    ArchiveError,
    Section,
    carried_fields,
    field_kind,
    set_spread,
    spread_keys,
)
from tournaments.transfer.archive_profiles import give_missing_profiles, link_profiles
from tournaments.transfer.archive_read import load

M = TypeVar("M", bound=models.Model)

# -- import -------------------------------------------------------------------------------


class _Importer:
    """Inserts the records of one file, keeping the map from the file's ids to the new ones."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.ids: dict[str, dict[int, int]] = {s.name: {} for s in SECTIONS}
        self.users: dict[str, Any] = {}
        self.stored: list[tuple[Any, str]] = []
        self.tournament: Tournament | None = None
        self.lists: dict[str, Any] = {}
        self.profiles: dict[int, int] = {}
        self.forward: list[tuple[models.Model, str, str, Any, str]] = []
        """References to a later section (a team of players' ``Player.team``): the object,
        its field, the section, the file's id and where; set once every section is in."""

    # errors and values

    @property
    def imported(self) -> Tournament:
        """The tournament being imported (its record goes in before the rest of the file)."""
        if self.tournament is None:
            raise RuntimeError("The tournament's record is inserted before the other records")
        return self.tournament

    def fail(self, where: str, message: str) -> ArchiveError:
        """An error about one record of the file."""
        return ArchiveError(_("%(where)s: %(message)s") % {"where": where, "message": message})

    def value(self, field: models.Field, raw: Any, where: str) -> Any:
        """A plain value of the file as the field's Python value, checked against its limits."""
        try:
            value = field.to_python(raw)
        except ValidationError as exc:
            raise self.fail(where, "; ".join(exc.messages)) from exc
        if value is None and not field.null:
            raise self.fail(where, _("a value is required."))
        if field.choices and value not in field.empty_values:
            valid = {str(key) for key, _label in field.flatchoices}
            if str(value) not in valid:
                raise self.fail(where, _("unknown value %(value)s.") % {"value": value})
        max_length = getattr(field, "max_length", None)
        if max_length and isinstance(value, str) and len(value) > max_length:
            raise self.fail(where, _("longer than %(max)s characters.") % {"max": max_length})
        return value

    @overload
    def ref(self, section: str, raw: object, where: str, nullable: Literal[False]) -> int: ...

    @overload
    def ref(self, section: str, raw: object, where: str, nullable: bool) -> int | None: ...

    def ref(self, section: str, raw: Any, where: str, nullable: bool) -> int | None:
        """The new id of a record the file refers to by its id in the file."""
        if raw is None:
            if not nullable:
                raise self.fail(where, _("a value is required."))
            return None
        try:
            return self.ids[section][int(raw)]
        except (KeyError, TypeError, ValueError) as exc:
            raise self.fail(where, _("refers to %(section)s %(id)s, which the file does not hold.")
                            % {"section": section, "id": raw}) from exc

    def profile(self, raw: Any, where: str) -> int | None:
        """The profile here of a profile id of the file (``archive_profiles``)."""
        if raw is None:
            return None
        if not isinstance(raw, int) or raw not in self.profiles:
            raise self.fail(where, _("refers to profiles %(id)s, which the file does not hold.")
                            % {"id": raw})
        return self.profiles[raw]

    def user(self, raw: Any, where: str) -> Any:
        """The user of a username (created inactive, without a password, when missing)."""
        if raw is None:
            return None
        if not isinstance(raw, str) or not raw:
            raise self.fail(where, _("a username is expected."))
        if raw not in self.users:
            self.users[raw] = self._find_or_create_user(raw, {})
        return self.users[raw]

    def _find_or_create_user(self, username: str, details: dict[str, Any]) -> Any:
        """An existing user of that name, or a new inactive one."""
        user_model = get_user_model()
        found = user_model._default_manager.filter(
            **{user_model.USERNAME_FIELD: username}).first()
        if found is not None:
            return found
        fields = {k: str(details.get(k) or "")[:150] for k in ("first_name", "last_name", "email")
                  if hasattr(user_model, k)}
        user = user_model(**{user_model.USERNAME_FIELD: username}, is_active=False, **fields)
        user.set_unusable_password()
        user.save()
        return user

    # records

    def build(self, model: type[M], record: dict[str, Any], where: str,
              deferred: list[tuple[str, Any]]) -> tuple[M, dict[str, list[int]]]:
        """An unsaved object of ``model`` from a record, and its many-to-many ids."""
        fields = carried_fields(model)
        spread = {key: name for name in fields for key in spread_keys(model, name)}
        unknown = sorted(set(record) - set(fields) - set(spread) - {"id"}
                         - RETIRED.get(model, frozenset()))
        if unknown:
            raise self.fail(where, _("fields this installation does not know: %(names)s "
                                     "(update it before importing).")
                            % {"names": ", ".join(unknown)})
        obj = model()
        try:
            set_spread(obj, {key: record[key] for key in spread if key in record})
        except RuleError as exc:
            error = translate_engine_error(exc)
            raise self.fail(f"{where}.{error.field}", error.message) from exc
        many: dict[str, list[int]] = {}
        for name, field in fields.items():
            if name not in record:
                continue
            raw = record[name]
            at = f"{where}.{name}"
            if field.many_to_many:
                target = _section_of(field)
                many[name] = [self.ref(target, r, at, False) for r in (raw or [])]
                continue
            kind = field_kind(field)
            if kind == "user":
                user = self.user(raw, at)
                setattr(obj, field.attname, user.pk if user else None)
            elif kind == "profile":
                setattr(obj, field.attname, self.profile(raw, at))
            elif kind == "ref":
                target = _section_of(field)
                if target == SECTION_OF.get(model) and raw is not None:
                    deferred.append((field.attname, raw))  # set once the section is in
                    continue
                later = ORDER[target] > ORDER.get(SECTION_OF.get(model, ""), -1)
                if raw is not None and field.null and later:
                    self.forward.append((obj, field.attname, target, raw, at))
                    continue
                setattr(obj, field.attname, self.ref(target, raw, at, field.null))
            elif kind == "file":
                self.attach_file(obj, field, raw, at)
            else:
                setattr(obj, field.attname, self.value(field, raw, at))
        for field in model._meta.concrete_fields:
            if (getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)) and (
                    getattr(obj, field.attname) is None):
                setattr(obj, field.attname, timezone.now())
            if _kind_or_none(field) == "tournament":
                setattr(obj, field.attname, self.imported.pk)
        return obj, many

    def attach_file(self, obj: models.Model, field: models.Field, raw: Any, where: str) -> None:
        """Store a file of the record and point the object's field at it."""
        if not isinstance(field, models.FileField):
            raise TypeError(f"{field} holds no file")
        if raw is None:
            return
        try:
            content = base64.b64decode(raw["base64"], validate=True)
            name = str(raw.get("name") or "file")
        except (KeyError, TypeError, AttributeError, binascii.Error) as exc:
            raise self.fail(where, _("the file's content is damaged.")) from exc
        expected = raw.get("sha256") or getattr(obj, "sha256", "")
        if expected and hashlib.sha256(content).hexdigest() != expected:
            raise self.fail(where, _("the file's content does not match its SHA-256."))
        storage = field.storage
        saved = storage.save(field.generate_filename(obj, name), ContentFile(content))
        self.stored.append((storage, saved))
        setattr(obj, field.attname, saved)

    def insert(self, model: type[models.Model], objs: list[models.Model]) -> None:
        """Insert new records as they are, in order, and learn their ids.

        ``raw`` as ``loaddata`` inserts: no automatic times, so a deal's ``recorded_at`` and an
        event's ``at`` stay as recorded; the append-only event log only gets new rows. In
        batches where the database returns the ids of a multi-row insert, else one by one.
        """
        if not connection.features.can_return_rows_from_bulk_insert:
            for obj in objs:
                obj.save_base(raw=True, force_insert=True)
            return
        meta = model._meta
        fields = [f for f in meta.concrete_fields if not (f.primary_key and not f.is_relation)]
        returning = None if meta.pk.is_relation else [meta.pk]
        size = connection.ops.bulk_batch_size(fields, objs) or len(objs) or 1
        for start in range(0, len(objs), size):
            chunk = objs[start:start + size]
            # the insert query ``bulk_create`` makes, raw: its times and ids as the file has them
            query = InsertQuery(model)
            query.insert_values(fields, chunk, raw=True)
            rows = query.get_compiler(using=connection.alias).execute_sql(returning)
            for obj, row in zip(chunk, rows if returning else [()] * len(chunk), strict=True):
                if returning:
                    obj.pk = row[0]
                obj._state.adding = False
                obj._state.db = connection.alias

    def section(self, section: Section) -> None:
        """Insert every record of a section in the file's order."""
        objs: list[models.Model] = []
        built: list[tuple[int | None, dict[str, list[int]], list[tuple[str, Any]], str]] = []
        for index, record in enumerate(self.doc.get(section.name, [])):
            where = f"{section.name}[{index}]"
            deferred: list[tuple[str, Any]] = []
            obj, many = self.build(section.model, record, where, deferred)
            if isinstance(obj, Protocol):
                if obj.sha256 and not obj.file:
                    raise self.fail(where, _("the signed PDF is missing."))
                obj.unverified = file_problem(obj)
                obj.unverified_parts = []  # ``mark_imported`` compares the records once in
            try:
                source_id = int(record["id"]) if "id" in record else None
            except (TypeError, ValueError) as exc:
                raise self.fail(where, _("the record's id is not a number.")) from exc
            objs.append(obj)
            built.append((source_id, many, deferred, where))
        self.insert(section.model, objs)
        for obj, (source_id, _many, _deferred, _where) in zip(objs, built, strict=True):
            if source_id is not None:
                self.ids[section.name][source_id] = obj.pk
        for obj, (_source_id, many, deferred, where) in zip(objs, built, strict=True):
            for name, ids in many.items():
                getattr(obj, name).set(ids)
            if deferred:  # references within the section, known now
                values = {attname: self.ref(section.name, raw, f"{where}.{attname}", True)
                          for attname, raw in deferred}
                section.model._default_manager.filter(pk=obj.pk).update(**values)

    def tournament_record(self, slug: str | None) -> Tournament:
        """Insert the tournament under a free slug (or the one asked for)."""
        record = dict(self.doc["tournament"])
        lists = {name: record.pop(name, []) for name in ID_LISTS}
        original = str(record.get("slug") or "")
        record["slug"] = free_slug(slug or original, strict=bool(slug))
        tournament, _many = self.build(Tournament, record, "tournament", [])
        for name in ID_LISTS:
            setattr(tournament, name, [])
        self.insert(Tournament, [tournament])
        self.tournament = tournament
        self.lists = lists
        return tournament

    def remap_lists(self) -> None:
        """Point the tournament's id lists (the start list) at the new ids."""
        values = {}
        for name, section in ID_LISTS.items():
            raw = self.lists.get(name) or []
            if not isinstance(raw, list):
                raise self.fail(f"tournament.{name}", _("a list is expected."))
            values[name] = [self.ref(section, pk, f"tournament.{name}", False) for pk in raw]
        Tournament.objects.filter(pk=self.imported.pk).update(**values)
        for name, value in values.items():
            setattr(self.imported, name, value)

    def run(self, slug: str | None, actor: Any) -> Tournament:
        """Import the whole file (the caller holds the transaction)."""
        for index, details in enumerate(self.doc.get("users", [])):
            username = details.get("username")
            if not isinstance(username, str) or not username:
                raise self.fail(f"users[{index}]", _("a username is expected."))
            self.users[username] = self._find_or_create_user(username, details)
        refuse_known_protocols(self.doc.get("protocols", []))
        refuse_known_team_sheets(self.doc.get("team_sheets", []))
        self.profiles = link_profiles(
            self.doc, actor if getattr(actor, "is_authenticated", False) else None)
        tournament = self.tournament_record(slug)
        for section in SECTIONS:
            self.section(section)
        for obj, attname, target, raw, at in self.forward:
            type(obj)._default_manager.filter(pk=obj.pk).update(
                **{attname: self.ref(target, raw, at, True)})
        self.remap_lists()
        mark_imported(tournament)
        give_missing_profiles(tournament.pk)
        if getattr(actor, "is_authenticated", False):
            TournamentRole.objects.get_or_create(
                tournament=tournament, user=actor, role=TournamentRole.Role.ORGANIZER)
        return tournament

    def discard_files(self) -> None:
        """Remove the files stored by a failed import."""
        for storage, name in self.stored:
            try:
                storage.delete(name)
            except OSError:  # pragma: no cover - best effort
                pass


def _section_of(field: models.Field) -> str:
    """The section of the file holding the records a relation field points at."""
    if field.related_model is None:
        raise TypeError(f"{field} relates to no model")
    return SECTION_OF[field.related_model]


def _kind_or_none(field: models.Field) -> str | None:
    """``field_kind`` for carried fields, None for the primary key."""
    if field.primary_key and not field.is_relation:
        return None
    return field_kind(field)


def import_tournament(data: bytes | str | dict[str, Any], *, slug: str | None = None,
                      actor: Any = None) -> Tournament:
    """Import a tournament file as a new tournament (see the module's docstring).

    ``actor``, when given, becomes an organizer of the imported tournament, and its players
    are linked only to the profiles he may see (``archive_profiles``); without one (a command
    on the server) to any.
    """
    doc = load(data)
    importer = _Importer(doc)
    try:
        with transaction.atomic():
            return importer.run(slug, actor)
    except (DatabaseError, ValueError, TypeError, AttributeError) as exc:
        importer.discard_files()
        raise ArchiveError(
            _("The tournament file is inconsistent and was not imported: %(error)s")
            % {"error": exc}
        ) from exc
    except BaseException:
        importer.discard_files()
        raise
