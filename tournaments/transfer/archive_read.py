"""Reading a tournament file before anything goes into the database: its size, how deep it
nests, its format, version and parts."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

from scoring.core.json_input import text_depth
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


def _parse(data: bytes | str) -> Any:
    """The JSON of a tournament file within the size and nesting limits (ArchiveError if not);
    the nesting is measured on the text, before it is parsed (``scoring.core.json_input``)."""
    error = size_error(len(data))
    if error:
        raise ArchiveError(error)
    limit = settings.TOURNAMENT_IMPORT_MAX_DEPTH
    if text_depth(data, limit) > limit:
        raise ArchiveError(_("The tournament file nests deeper than %(depth)s levels.")
                           % {"depth": limit})
    try:
        return json.loads(data)
    except (UnicodeDecodeError, ValueError) as exc:
        raise ArchiveError(_("The file is not a tournament file (not JSON).")) from exc


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
