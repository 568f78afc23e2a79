"""The countersignature loads the party once and serialises the protocol once, signing the
same protocol as rebuilding it from the database does."""

from __future__ import annotations

import dataclasses

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import PARTY_RELATED, Party
from scoring.protocols import (
    canonical_json,
    protocol_data_from_dict,
    protocol_fingerprint,
    render_protocol,
)
from scoring.protocols.fingerprint import canonical_payload_json
from scoring.signoff.content import build_protocol_data, content_fingerprint, party_players
from scoring.signoff.services import countersign, record_refusal, sign_as_player

pytestmark = pytest.mark.django_db


def _rebuilt(party_id, protocol):
    """The signed version as the database gives it now (party with its players, signatures)."""
    party = Party.objects.select_related(*PARTY_RELATED).get(pk=party_id)
    return build_protocol_data(party, protocol)


@pytest.mark.parametrize("refuse", [False, True])
def test_signed_protocol_is_the_protocol_rebuilt_from_the_database(
        finished_party, player_users, referee_user, refuse):
    seated = party_players(finished_party)
    for user, (_seat, player) in zip(player_users, seated, strict=True):
        if refuse and player == seated[-1][1]:
            record_refusal(finished_party.pk, player_id=player.pk, reason="Не согласен",
                           actor=referee_user)
        else:
            sign_as_player(finished_party.pk, player_id=player.pk, actor=user)
    protocol = countersign(finished_party.pk, actor=referee_user)

    rebuilt = _rebuilt(finished_party.pk, protocol)
    assert protocol.data == dataclasses.asdict(rebuilt)
    assert protocol.fingerprint == protocol_fingerprint(rebuilt)
    assert rebuilt.referee and all(line.signed_at for line in rebuilt.signatures)
    assert {s.content_fingerprint for s in protocol.signatures.all()} == {
        content_fingerprint(rebuilt)}
    stored = protocol_data_from_dict(protocol.data)
    assert render_protocol(stored, invariant=True) == render_protocol(rebuilt, invariant=True)


def test_the_fingerprint_of_the_serialised_data_is_that_of_the_data(finished_party):
    data = build_protocol_data(finished_party)
    payload = dataclasses.asdict(data)
    before = repr(payload)
    assert canonical_payload_json(payload) == canonical_json(data)
    assert repr(payload) == before  # the stored snapshot is not changed by hashing it
    given = render_protocol(data, invariant=True, fingerprint=protocol_fingerprint(data))
    assert given == render_protocol(data, invariant=True)


def test_countersign_reads_the_party_once(finished_party, player_users, referee_user):
    for user, (_seat, player) in zip(player_users, party_players(finished_party), strict=True):
        sign_as_player(finished_party.pk, player_id=player.pk, actor=user)
    with CaptureQueriesContext(connection) as queries:
        countersign(finished_party.pk, actor=referee_user)
    reads = [q["sql"] for q in queries.captured_queries
             if q["sql"].startswith("SELECT") and 'FROM "tournaments_party"' in q["sql"]]
    assert len(reads) == 1, reads
    assert not [q for q in queries.captured_queries if "referee_partyevent" in q["sql"]
                and q["sql"].startswith("SELECT")]
    control = ("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT", "SET LOCAL")
    statements = [q for q in queries.captured_queries if not q["sql"].startswith(control)]
    assert len(statements) <= 12, "\n".join(q["sql"][:90] for q in statements)
