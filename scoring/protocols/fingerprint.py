"""The protocol's content fingerprint: canonical JSON of its data and the SHA-256 of it."""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Sequence
from typing import Any

from .data import EXTENSION_FIELDS, ProtocolData, protocol_payload

#: Version of the canonical JSON behind the fingerprint; bump it if the form ever changes.
FINGERPRINT_SCHEMA = "domino-protocol/1"
#: Fields that only lead to the verification page or choose captions.
_NOT_FINGERPRINTED = ("verify_url", "short_code", "labels", "language")
#: The canonical form's encoder: sorted keys, UTF-8 text as it is, no spaces.
_ENCODER = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _normalise(value: object) -> object:
    """NFC-normalise every string and make every key a string, recursively."""
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, dict):
        return {str(k): _normalise(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_normalise(v) for v in value]
    return value


def _drop_empty(values: dict[str, Any], names: Sequence[str]) -> None:
    """Leave out the named fields while they are empty (a sport protocol has none of them)."""
    for name in names:
        if values.get(name) in (None, "", [], {}):
            values.pop(name, None)


def canonical_json(data: ProtocolData) -> bytes:
    """Return the canonical UTF-8 JSON of the protocol's data that the fingerprint hashes.

    Keys are sorted, strings NFC-normalised, and the verification link, short code and
    captions are left out: they do not change what the protocol says. The fields of the other
    games' score cards are left out while empty, so a sport protocol hashes as it always did.
    """
    return canonical_payload_json(protocol_payload(data))


def canonical_payload_json(payload: dict[str, Any]) -> bytes:
    """``canonical_json`` of the data already as ``dataclasses.asdict`` gives it (unchanged)."""
    return CanonicalForm(payload).json()


def _dumps(value: object) -> str:
    """A value's canonical JSON text (NFC strings, sorted keys, no spaces)."""
    return _ENCODER.encode(_normalise(value))


def _members(payload: dict[str, Any]) -> dict[str, str]:
    """The canonical JSON of each fingerprinted field of ``payload`` (``"key":value``), by key.

    ``payload`` is not changed (its deals are copied before their empty fields are left out).
    """
    payload = dict(payload)
    for name in _NOT_FINGERPRINTED:
        payload.pop(name, None)
    _drop_empty(payload, EXTENSION_FIELDS["protocol"])
    if "deals" in payload:
        deals = [dict(deal) for deal in payload["deals"]]
        for deal in deals:
            _drop_empty(deal, EXTENSION_FIELDS["deal"])
        payload["deals"] = deals
    return {str(key): f"{_ENCODER.encode(str(key))}:{_dumps(value)}"
            for key, value in payload.items()}


class CanonicalForm:
    """The canonical JSON of one protocol's data, encoded once field by field.

    A JSON object with sorted keys is its members in key order, so a variant of the data (the
    content the players confirm, with no signatures; the signed data, with them) is the same
    members with the changed fields encoded again: the deals are encoded once for both.
    """

    def __init__(self, payload: dict[str, Any]) -> None:
        """Encode ``payload`` (``dataclasses.asdict`` of the data) member by member."""
        self._members = _members(payload)
        self._members.update(_members({"schema": FINGERPRINT_SCHEMA}))

    def json(self, **changed: object) -> bytes:
        """The canonical UTF-8 JSON of the data with the ``changed`` fields' values."""
        members = self._members
        if changed:
            members = {key: text for key, text in members.items() if key not in changed}
            members.update(_members(changed))
        return ("{" + ",".join(members[key] for key in sorted(members)) + "}").encode("utf-8")

    def fingerprint(self, **changed: object) -> str:
        """The SHA-256 (hex) of ``json(**changed)``: the fingerprint of that data."""
        return hashlib.sha256(self.json(**changed)).hexdigest()


def protocol_fingerprint(data: ProtocolData) -> str:
    """Return the SHA-256 (hex) of the protocol's canonical data, as printed on the PDF."""
    return payload_fingerprint(protocol_payload(data))


def payload_fingerprint(payload: dict[str, Any]) -> str:
    """``protocol_fingerprint`` of the data as ``dataclasses.asdict`` gives it."""
    return CanonicalForm(payload).fingerprint()
