"""The hand-written statements the project keeps give what the public ORM gives on the same
data: the event log's append, the idempotency claim and the draw's bulk insert (the party lock
is compared in ``test_party_lock.py``). Run on every database, PostgreSQL in CI."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import Max
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.access.idempotency import claim
from scoring.core.bulk import insert_rows
from scoring.models import IdempotencyKey, Party, PartyEvent
from scoring.party.event_log import append_event
from tests.factories import PairFactory, RoundFactory, TableFactory, TournamentFactory

pytestmark = pytest.mark.django_db

_OWN = ("id", "party_id", "at", "created_at", "round_id")


def _row(instance) -> dict:
    """A row's values, less those of its own (key, owner, time)."""
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields
            if f.attname not in _OWN}


def _orm_append(party, kind, *, actor=None, data=None, reason=""):
    """The event log's append through the ORM: the next number read, then the row created."""
    seq = (PartyEvent.objects.filter(party=party).aggregate(m=Max("seq"))["m"] or 0) + 1
    return PartyEvent.objects.create(party=party, seq=seq, kind=kind, actor=actor,
                                     data=data or {}, reason=reason)


def test_the_event_append_writes_the_rows_the_orm_writes(make_party, referee_user):
    kept, orm = make_party(), make_party(table_number=2)
    steps = [("deal_recorded", {"data": {"points": [5, 0], "note": "Пересдача"}}),
             ("party_paused", {"actor": referee_user}),
             ("deal_corrected", {"actor": referee_user, "reason": "miscount",
                                 "data": {"number": 1}})]
    for kind, extra in steps:
        with CaptureQueriesContext(connection) as one:
            made = append_event(kept, kind, **extra)
        with CaptureQueriesContext(connection) as two:
            _orm_append(orm, kind, **extra)
        assert (len(one.captured_queries), len(two.captured_queries)) == (1, 2)
        assert _row(made) == _row(PartyEvent.objects.get(pk=made.pk))  # the instance is its row
    by_kept = [_row(e) for e in PartyEvent.objects.filter(party=kept).order_by("seq")]
    by_orm = [_row(e) for e in PartyEvent.objects.filter(party=orm).order_by("seq")]
    assert by_kept == by_orm and [row["seq"] for row in by_kept] == [1, 2, 3]


def test_the_idempotency_claim_takes_a_key_as_the_orm_would_and_only_once(referee_user,
                                                                          organizer):
    record, replay = claim(referee_user, "key-1", "f" * 64)
    assert replay is None and record is not None
    IdempotencyKey.objects.bulk_create(  # the ORM's path for a free key
        [IdempotencyKey(user=organizer, key="key-1", fingerprint="f" * 64)],
        ignore_conflicts=True)
    kept = IdempotencyKey.objects.get(user=referee_user, key="key-1")
    orm = IdempotencyKey.objects.get(user=organizer, key="key-1")
    assert kept.pk == record.pk and _row(kept) == _row(record)
    assert {**_row(kept), "user_id": None} == {**_row(orm), "user_id": None}
    # a taken key: the ORM's path inserts nothing, the claim finds the running request
    IdempotencyKey.objects.bulk_create(
        [IdempotencyKey(user=organizer, key="key-1", fingerprint="g" * 64)],
        ignore_conflicts=True)
    with pytest.raises(Exception, match="still being processed"):
        claim(referee_user, "key-1", "f" * 64)
    assert IdempotencyKey.objects.filter(key="key-1").count() == 2


def test_the_bulk_insert_writes_the_rows_bulk_create_writes() -> None:
    tournament = TournamentFactory()
    kept_round, orm_round = RoundFactory(tournament=tournament), RoundFactory(tournament=tournament)
    pairs = [PairFactory(tournament=tournament) for _ in range(5)]
    tables = [TableFactory(tournament=tournament) for _ in range(2)]
    now = timezone.now()
    rows = [
        {"table_id": tables[0].pk, "pair_a_id": pairs[0].pk, "pair_b_id": pairs[1].pk},
        {"table_id": tables[1].pk, "pair_a_id": pairs[2].pk, "pair_b_id": pairs[3].pk},
        {"pair_a_id": pairs[4].pk, "status": Party.Status.FINISHED,
         "end_reason": Party.EndReason.BYE, "winner": "a", "finished_at": now},
    ]
    with CaptureQueriesContext(connection) as queries:
        insert_rows(Party, [{"round_id": kept_round.pk, **row} for row in rows])
    assert len(queries.captured_queries) == 1
    Party.objects.bulk_create([Party(round_id=orm_round.pk, **row) for row in rows])
    by_kept = [_row(p) for p in Party.objects.filter(round=kept_round).order_by("pair_a_id")]
    by_orm = [_row(p) for p in Party.objects.filter(round=orm_round).order_by("pair_a_id")]
    assert by_kept == by_orm and len(by_kept) == 3
