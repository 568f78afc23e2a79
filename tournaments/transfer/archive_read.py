"""Reading a tournament file before anything goes into the database: its size, how deep it
nests, its format, version and parts."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

from tournaments.transfer.archive_format import (
    FORMAT,
    READABLE_VERSIONS,
    SECTION_OF,
    VERSION,
    ArchiveError,
)


def size_error(size: int) -> str:
    """Why a tournament file of ``size`` bytes is refused ("" when it is not too large)."""
    limit = settings.TOURNAMENT_IMPORT_MAX_BYTES
    if size <= limit:
        return ""
    return _("The tournament file is too large (at most %(size)s).") % {
        "size": filesizeformat(limit)}


def nesting_depth(doc: Any, limit: int) -> int:
    """How deep lists and objects nest in ``doc`` (counted without recursion; it stops
    looking once past ``limit``)."""
    deepest, stack = 0, [(doc, 1)]
    while stack and deepest <= limit:
        value, depth = stack.pop()
        children = value.values() if isinstance(value, dict) else value
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children
                     if isinstance(child, dict | list))
    return deepest


def _parse(data: bytes | str) -> Any:
    """The JSON of a tournament file within the size and nesting limits (ArchiveError if not)."""
    error = size_error(len(data))
    if error:
        raise ArchiveError(error)
    limit = settings.TOURNAMENT_IMPORT_MAX_DEPTH
    too_deep = ArchiveError(_("The tournament file nests deeper than %(depth)s levels.")
                            % {"depth": limit})
    try:
        doc = json.loads(data)
    except RecursionError as exc:  # deeper than the interpreter's stack: far past the limit
        raise too_deep from exc
    except (UnicodeDecodeError, ValueError) as exc:
        raise ArchiveError(_("The file is not a tournament file (not JSON).")) from exc
    if isinstance(doc, dict | list) and nesting_depth(doc, limit) > limit:
        raise too_deep
    return doc


def load(data: bytes | str | dict[str, Any]) -> dict[str, Any]:
    """Parse a tournament file and check its size, nesting, format and version."""
    doc = data if isinstance(data, dict) else _parse(data)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ArchiveError(_("The file is not a tournament file (its format is not “%(format)s”).")
                           % {"format": FORMAT})
    version = doc.get("version")
    if version not in READABLE_VERSIONS:
        raise ArchiveError(
            _("The tournament file has version %(version)s; this installation reads versions "
              "up to %(known)s only. Update the installation that is to read it.")
            % {"version": version, "known": VERSION}
        )
    known = {"format", "version", "exported_at", "site_url", "users", "tournament",
             *SECTION_OF.values(), *(["profiles"] if version >= 2 else [])}
    unknown = sorted(set(doc) - known)
    if unknown:
        raise ArchiveError(_("The file holds data this installation does not know: %(names)s.")
                           % {"names": ", ".join(unknown)})
    if not isinstance(doc.get("tournament"), dict):
        raise ArchiveError(_("The file holds no tournament."))
    for name in ("users", "profiles", *SECTION_OF.values()):
        if not isinstance(doc.get(name, []), list) or not all(
                isinstance(r, dict) for r in doc.get(name, [])):
            raise ArchiveError(_("The part “%(name)s” of the file is damaged.") % {"name": name})
    return doc
