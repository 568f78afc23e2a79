"""What a signed version says: its snapshot, and where the records differ from it.

A signed version keeps the data its PDF was rendered from (``Protocol.data``), and the signed
file carries that data's fingerprint (``scoring.signoff.checks`` holds the two together). The
verification page and its API show this snapshot, never the live records, and name the parts
of the records that say something else: on this installation they were changed after signing;
in an imported tournament they make the version an unverified copy (``mark_imported``).

The records are compared with the snapshot by what they say (names, points, times, the
signatures), not by the software's wording of it (a deal's outcome text, a penalty's kind, the
captions): a tournament file exported by an older version, whose texts read differently, still
matches, while an edited name or score never does.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.models import PARTY_RELATED, Protocol, Tournament
from scoring.protocols import payload_fingerprint, protocol_payload
from scoring.signoff.content import build_protocol_data

#: The parts of a protocol the records are compared by, with the snapshot's fields of each.
PARTS: dict[str, tuple[str, ...]] = {
    "tournament": ("tournament",),
    "round": ("round_number",),
    "table": ("table",),
    "time": ("date", "start_time", "end_time"),
    "players": ("sides", "first_move"),
    "points": ("deals", "games", "seats"),
    "result": ("result", "match_points", "winner", "game_wins", "goat"),
    "penalties": ("penalties",),
    "signatures": ("signatures", "referee"),
    "version": ("version", "public_id"),
}
#: The parts' keys, as the API's enumeration of them.
PART_KEYS: tuple[str, ...] = tuple(PARTS)
#: How the page names each part, in the visitor's language.
PART_LABELS = {
    "tournament": gettext_lazy("tournament name"),
    "round": gettext_lazy("round"),
    "table": gettext_lazy("table"),
    "time": gettext_lazy("date and times"),
    "players": gettext_lazy("pairs and players"),
    "points": gettext_lazy("deals and points"),
    "result": gettext_lazy("result"),
    "penalties": gettext_lazy("warnings, fines and rulings"),
    "signatures": gettext_lazy("signatures and referee"),
    "version": gettext_lazy("version"),
}
#: The software's wording inside a list of the snapshot (left out of the comparison).
_WORDING: dict[str, tuple[str, ...]] = {
    "deals": ("outcome", "note", "plays"),
    "penalties": ("kind",),
    "signatures": ("role",),
}
_EMPTY: tuple[Any, ...] = (None, "", [], {}, ())


def _said(value: Any) -> Any:
    """``value`` as JSON keeps it (tuples as lists), with empty fields left out of objects."""
    if isinstance(value, dict):
        return {str(key): _said(item) for key, item in value.items() if item not in _EMPTY}
    if isinstance(value, list | tuple):
        return [_said(item) for item in value]
    return value


def _part(payload: dict[str, Any], fields: Sequence[str]) -> str:
    """What ``payload`` says in one part (its fields without their wording), as JSON text."""
    said = []
    for name in fields:
        value = payload.get(name)
        wording = _WORDING.get(name, ())
        if wording and isinstance(value, list):
            value = [{k: v for k, v in item.items() if k not in wording}
                     if isinstance(item, dict) else item for item in value]
        said.append(None if value in _EMPTY else _said(value))
    return json.dumps(said, sort_keys=True, ensure_ascii=False)


def differing_parts(signed: dict[str, Any], records: dict[str, Any]) -> list[str]:
    """The parts (``PARTS`` keys, in order) in which ``records`` say other than ``signed``."""
    return [key for key, fields in PARTS.items()
            if _part(signed, fields) != _part(records, fields)]


def records_payload(protocol: Protocol) -> dict[str, Any]:
    """The data this version would sign now: the party's records and its signatures as
    ``dataclasses.asdict`` gives it (the party loaded with ``PARTY_RELATED``)."""
    return protocol_payload(build_protocol_data(protocol.party, protocol))


def records_differ(protocol: Protocol) -> list[str]:
    """The parts in which the records differ from a signed version's snapshot ([]: none).

    The records' data fingerprint is computed first: when it is the signed one, nothing
    differs; otherwise the parts are compared one by one.
    """
    records = records_payload(protocol)
    if payload_fingerprint(records) == protocol.fingerprint:
        return []
    return differing_parts(protocol.data or {}, records)


def parts_text(parts: Iterable[str]) -> str:
    """The parts named in the visitor's language, e.g. "tournament name, pairs and players"."""
    return ", ".join(str(PART_LABELS.get(part, part)) for part in parts)


def mark_imported(tournament: Tournament) -> list[Protocol]:
    """Make each current signed version of an imported tournament whose records differ from
    what it signed an unverified copy (``Protocol.Problem.RECORDS``, with the parts).

    Versions already unverified (their file or data failed) stay as they are; superseded ones
    are not compared (the amendment that superseded them changed the records). Returns the
    versions marked.
    """
    marked = []
    versions = Protocol.objects.select_related(
        *(f"party__{name}" for name in PARTY_RELATED)
    ).filter(party__round__tournament=tournament, status=Protocol.Status.SIGNED, unverified="")
    for protocol in versions.exclude(sha256=""):
        parts = records_differ(protocol)
        if parts:
            protocol.unverified = Protocol.Problem.RECORDS
            protocol.unverified_parts = parts
            protocol.save(update_fields=["unverified", "unverified_parts"])
            marked.append(protocol)
    return marked


def signed_summary(signed: dict[str, Any] | None) -> dict[str, Any] | None:
    """What the API answers of a signed snapshot: tournament, round, table, date, pairs with
    their players, result, winner, referee and when he countersigned (None for none)."""
    if not signed:
        return None
    lines = signed.get("signatures") or []
    return {
        "tournament": signed.get("tournament", ""),
        "round": signed.get("round_number"),
        "table": signed.get("table", ""),
        "date": signed.get("date", ""),
        "version": signed.get("version"),
        "sides": [{"side": side.get("key", ""), "name": side.get("name", ""),
                   "players": [{"seat": player.get("seat", ""), "name": player.get("name", "")}
                               for player in side.get("players") or []]}
                  for side in signed.get("sides") or []],
        "seats": [{"seat": seat.get("seat", ""), "name": seat.get("name", ""),
                   "points": seat.get("points")} for seat in signed.get("seats") or []],
        "result": signed.get("result", ""),
        "match_points": signed.get("match_points", ""),
        "game_wins": signed.get("game_wins", ""),
        "winner_name": signed.get("winner", ""),
        "goat_name": signed.get("goat", ""),
        "referee": signed.get("referee", ""),
        "countersigned_at": (lines[-1].get("signed_at") or "") if lines else "",
    }


def changed_note(parts: Sequence[str]) -> str:
    """What the page says of an authentic version whose records were changed after signing."""
    if not parts:
        return ""
    return _("The records were changed after signing: %(parts)s. Shown here is what was "
             "signed.") % {"parts": parts_text(parts)}
