"""The protocol's payload is ``dataclasses.asdict`` of its data, and its canonical form, encoded
field by field, is the canonical JSON of the whole data and of any variant of it."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import unicodedata

import pytest

from scoring.protocols import (
    CanonicalForm,
    ProtocolGame,
    ProtocolSeat,
    ProtocolSignature,
    canonical_json,
    payload_fingerprint,
    protocol_fingerprint,
    protocol_payload,
)
from scoring.protocols.sample import sample_protocol

#: Not in NFC: "é" as "e" and a combining accent, "й" as "и" and a combining breve.
DECOMPOSED = "Ре\u0301пин Серге\u0306"


def _games_and_seats(data):
    """``data`` with every field of the other games' score cards filled (dicts, tuples)."""
    deals = [dataclasses.replace(deal, game=1, plays="a 10 · b 5",
                                 seat_points={"a1": 5, "b1": 0}, seat_running={"a1": 5},
                                 memorized={"b1": 3}, opened={"a1": True, "b1": False})
             for deal in data.deals]
    return dataclasses.replace(
        data, layout="kozel", deals=deals, games=[ProtocolGame(1, 150, 40, DECOMPOSED)],
        game_wins="1 : 0", seats=[ProtocolSeat("a1", DECOMPOSED, 20, memorized=3, opened=True)],
        goat=DECOMPOSED, first_move="A1 · Ann", tournament=DECOMPOSED,
        signatures=[ProtocolSignature("Player", DECOMPOSED, None, "Не согласен")])


SAMPLES = [sample_protocol(1), sample_protocol(2, deals=3, penalties=0),
           _games_and_seats(sample_protocol(3, deals=5, penalties=2))]


def _reference_json(payload):
    """The canonical JSON written as one ``json.dumps`` of the whole data (the definition)."""
    payload = {k: v for k, v in payload.items()
               if k not in ("verify_url", "short_code", "labels", "language")}
    for name in ("layout", "games", "game_wins", "seats", "goat", "first_move"):
        if payload.get(name) in (None, "", [], {}):
            payload.pop(name, None)
    deals = []
    for deal in payload["deals"]:
        deals.append({k: v for k, v in deal.items()
                      if not (k in ("game", "plays", "seat_points", "seat_running", "memorized",
                                    "opened") and v in (None, "", [], {}))})
    payload["deals"] = deals
    payload["schema"] = "domino-protocol/1"

    def normal(value):
        if isinstance(value, str):
            return unicodedata.normalize("NFC", value)
        if isinstance(value, dict):
            return {str(k): normal(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [normal(v) for v in value]
        return value

    return json.dumps(normal(payload), sort_keys=True, ensure_ascii=False,
                      separators=(",", ":")).encode("utf-8")


@pytest.mark.parametrize("data", SAMPLES)
def test_the_payload_is_asdict(data):
    payload = protocol_payload(data)
    assert payload == dataclasses.asdict(data)
    assert repr(payload) == repr(dataclasses.asdict(data))  # the same types (tuples, dicts)
    assert protocol_payload(data.signatures[0]) == dataclasses.asdict(data.signatures[0])


@pytest.mark.parametrize("data", SAMPLES)
def test_the_canonical_form_is_the_canonical_json_of_the_whole(data):
    payload = dataclasses.asdict(data)
    before = repr(payload)
    form = CanonicalForm(payload)
    assert form.json() == _reference_json(payload) == canonical_json(data)
    assert form.fingerprint() == hashlib.sha256(_reference_json(payload)).hexdigest()
    assert form.fingerprint() == protocol_fingerprint(data) == payload_fingerprint(payload)
    assert repr(payload) == before  # the stored snapshot is not changed by encoding it


@pytest.mark.parametrize("data", SAMPLES)
def test_a_variant_is_the_canonical_json_of_the_changed_data(data):
    payload = dataclasses.asdict(data)
    form = CanonicalForm(payload)
    for changed in (
        {"signatures": [], "referee": "", "public_id": "", "version": 0},
        {"referee": DECOMPOSED, "signatures": [dataclasses.asdict(line)
                                               for line in SAMPLES[2].signatures]},
        {"labels": {}, "short_code": "X"},  # not fingerprinted: the same
        {"layout": "", "games": []},  # extension fields left out while empty
        {"deals": payload["deals"][:1]},
    ):
        assert form.json(**changed) == _reference_json({**payload, **changed}), changed
    assert form.json(labels={}) == form.json()
    assert form.json() == _reference_json(payload)  # a variant leaves the form as it was
