"""A whole tournament as one JSON file, and back into another installation with nothing lost.

The file (``"format": "domino-tournament", "version": 2``) holds the tournament and one list
per kind of record, in the order they are imported (``SECTIONS``): regulations, referee
settings, tables, roles, players, rounds, the timetable's items, pairs, parties, party desks
(check-ins), deals, penalties, rulings, the party event log, protocols (each signed PDF in
base64) and signatures.

* Every field of a model is carried, so a field added later travels without changes here; a
  file naming a field this installation does not know is refused (it would be lost).
* Records are referred to by their id *in the file*; on import each gets a new id, and
  relative order is kept (records are inserted in the file's order), so ties that fall back
  on registration order still fall the same way. The round-robin start list is remapped.
* Each player's profile (the person across tournaments) is in ``profiles``, referred to by its
  id in the file; the import re-links it to a profile here or makes one
  (``archive_profiles``). Version 1 files (before profiles) are still read.
* Users are referred to by username: an existing user of that name is used, a missing one is
  created inactive, without a usable password.
* Records are inserted raw (as ``loaddata`` does): times such as a deal's ``recorded_at`` or
  an event's ``at`` keep their original values, and the append-only event log is inserted
  with its original ``seq``, ``at``, ``kind`` and ``data`` (ids inside ``data`` are those of
  the source installation, as written at the time).
* A protocol keeps its public id and short code (the QR code and the paper name them) and its
  signed PDF byte for byte, so it verifies wherever the installation trusts the certificate
  that signed it. An installation that already holds one of these protocols refuses the file:
  the tournament was imported before.
* The slug is kept when free; when taken, ``-2``, ``-3``… is appended, unless a new slug is
  given (a given slug that is taken is refused).
* Left out on purpose: signing PINs and players' personal link keys (credentials: a 4-digit
  PIN's hash is guessed offline in no time; players set new PINs and get new links), round
  print jobs (an expiring cache, printed again on demand), API idempotency keys and login
  tokens (not tournament data).

The import runs in one transaction; stored PDF files are removed again if it fails. A file
larger than ``TOURNAMENT_IMPORT_MAX_BYTES`` or nesting deeper than
``TOURNAMENT_IMPORT_MAX_DEPTH`` is refused before anything is read into the database.
"""

from __future__ import annotations

from tournaments.transfer.archive_checks import free_slug
from tournaments.transfer.archive_export import (
    dumps,
    export_bytes,
    export_filename,
    export_tournament,
    section_counts,
    summary,
)
from tournaments.transfer.archive_format import (
    FORMAT,
    ID_LISTS,
    LEFT_OUT,
    LEFT_OUT_FIELDS,
    SECTION_OF,
    SECTIONS,
    VERSION,
    ArchiveError,
    Section,
    carried_fields,
)
from tournaments.transfer.archive_import import import_tournament
from tournaments.transfer.archive_read import load, size_error

__all__ = [
    "FORMAT", "ID_LISTS", "LEFT_OUT", "LEFT_OUT_FIELDS", "SECTIONS", "SECTION_OF", "VERSION",
    "ArchiveError", "Section", "carried_fields", "dumps", "export_bytes", "export_filename",
    "export_tournament", "free_slug", "import_tournament", "load",
    "section_counts", "size_error", "summary",
]
