"""The protocol's content fingerprint: canonical JSON of its data and the SHA-256 of it."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import unicodedata
from collections.abc import Sequence
from typing import Any

from .data import EXTENSION_FIELDS, ProtocolData

#: Version of the canonical JSON behind the fingerprint; bump it if the form ever changes.
FINGERPRINT_SCHEMA = "domino-protocol/1"
#: Fields that only lead to the verification page or choose captions.
_NOT_FINGERPRINTED = ("verify_url", "short_code", "labels", "language")


def _normalise(value: Any) -> Any:
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
    return canonical_payload_json(dataclasses.asdict(data))


def canonical_payload_json(payload: dict[str, Any]) -> bytes:
    """``canonical_json`` of the data already as ``dataclasses.asdict`` gives it (unchanged)."""
    payload = dict(payload)
    for name in _NOT_FINGERPRINTED:
        payload.pop(name, None)
    _drop_empty(payload, EXTENSION_FIELDS["protocol"])
    deals = [dict(deal) for deal in payload["deals"]]
    for deal in deals:
        _drop_empty(deal, EXTENSION_FIELDS["deal"])
    payload["deals"] = deals
    payload["schema"] = FINGERPRINT_SCHEMA
    text = json.dumps(_normalise(payload), sort_keys=True, ensure_ascii=False,
                      separators=(",", ":"))
    return text.encode("utf-8")


def protocol_fingerprint(data: ProtocolData) -> str:
    """Return the SHA-256 (hex) of the protocol's canonical data, as printed on the PDF."""
    return payload_fingerprint(dataclasses.asdict(data))


def payload_fingerprint(payload: dict[str, Any]) -> str:
    """``protocol_fingerprint`` of the data as ``dataclasses.asdict`` gives it."""
    return hashlib.sha256(canonical_payload_json(payload)).hexdigest()
