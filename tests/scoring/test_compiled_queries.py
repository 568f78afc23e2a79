"""A query compiled once answers as the ORM's own queryset does, for every argument; fields
saved by one prepared UPDATE are written as ``save`` writes them."""

import pytest
from django.db import DatabaseError, connection, connections
from django.db.models import F, signals
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from referee.services import start_party
from scoring.core.compiled import CompiledQuery, insert_row, save_fields
from scoring.models import Deal, Party, Protocol
from scoring.party.deals import record_deal
from scoring.party.protocol_lock import open_protocol
from scoring.totals.compute import RecordedDeal, recorded

pytestmark = pytest.mark.django_db


def _deals(party, *points):
    start_party(party.pk)
    for n, (a, b) in enumerate(points):
        record_deal(party.pk, outcome="fish", winner="a" if a else "b",
                    points={"a": a, "b": b}, client_id=f"{party.pk}-{n}")


def test_the_compiled_read_gives_the_querysets_rows_for_each_party(make_party):
    first, second = make_party(), make_party(table_number=2)
    _deals(first, (5, 0), (0, 7))
    _deals(second, (3, 0))
    for party in (first, second, first):
        expected = list(Deal.objects.filter(party_id=party.pk).order_by("-number")
                        .values_list(*RecordedDeal._fields))
        assert [tuple(row) for row in recorded(party)] == expected
    assert [d.points_b for d in recorded(first)] == [7, 0]  # JSON and dates decoded alike
    assert recorded(first)[0].recorded_at is not None


def test_a_compiled_query_is_compiled_once_per_connection(make_party):
    party = make_party()
    _deals(party, (5, 0))
    query = CompiledQuery("test_numbers", Deal,
                          lambda pid, cid: Deal.objects.filter(party_id=pid, client_id=cid)
                          .values_list("number"), int, str)
    assert query.rows(party.pk, f"{party.pk}-0") == [(1,)]
    assert query.first(party.pk, "another") is None
    cache = connections["default"].__dict__["_compiled_queries"]  # the connection's own
    assert cache["compiled:test_numbers"] is query._compiled("default")
    with CaptureQueriesContext(connection) as queries:
        query.rows(party.pk + 1, "x")
    assert len(queries.captured_queries) == 1


def test_an_argument_the_query_does_not_use_is_refused(make_party):
    query = CompiledQuery("test_unused", Deal, lambda pid: Deal.objects.values_list("pk"), int)
    with pytest.raises(ValueError, match="each argument"):
        query.rows(1)


def test_the_api_token_names_its_user_and_a_wrong_or_inactive_one_is_refused(referee_user,
                                                                          party):
    token = Token.objects.create(user=referee_user)
    device = APIClient()
    device.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    answer = device.get(f"/api/v1/parties/{party.pk}/events/")  # the referee's party
    assert answer.status_code == 200
    device.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    refused = device.get(f"/api/v1/parties/{party.pk}/events/")
    assert refused.status_code == 403  # DRF: 403 where the session comes first
    assert refused.json()["detail"] == "Invalid token."
    referee_user.is_active = False
    referee_user.save()
    device.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    inactive = device.get(f"/api/v1/parties/{party.pk}/events/")
    assert inactive.status_code == 403
    assert inactive.json()["detail"] == "User inactive or deleted."


def test_saved_fields_are_written_as_save_would_and_only_those(make_party):
    party = make_party()
    _deals(party, (5, 0))
    protocol = open_protocol(party)
    stale = Protocol.objects.get(pk=protocol.pk)
    signed_at = timezone.now()
    protocol.data = {"players": ["Анна Каренина"], "deals": [{"points": [5, 0]}]}
    protocol.status, protocol.signed_at, protocol.reason = Protocol.Status.SIGNED, signed_at, "x"
    with CaptureQueriesContext(connection) as queries:
        save_fields(protocol, ["data", "status", "signed_at"])
    assert len(queries.captured_queries) == 1
    stored = Protocol.objects.get(pk=protocol.pk)
    assert stored.data == protocol.data  # JSON, Cyrillic kept
    assert (stored.status, stored.signed_at) == (Protocol.Status.SIGNED, signed_at)
    assert stored.reason == stale.reason  # a field not named is left alone

    party.refresh_from_db()
    version = party.version
    party.version = F("version") + 1  # an expression: the ORM writes it
    save_fields(party, ["version"])
    party.refresh_from_db()
    assert party.version == version + 1


def test_saving_the_fields_of_a_row_that_is_gone_fails_as_save_does(make_party):
    party = make_party()
    Party.objects.filter(pk=party.pk).update(version=5)
    ghost = Party.objects.get(pk=party.pk)
    ghost.pk = party.pk + 10_000
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        save_fields(ghost, ["version"])


def test_a_model_with_save_receivers_is_saved_by_save(make_party):
    seen = []

    def receiver(sender, instance, update_fields, **kwargs):
        seen.append((instance.pk, sorted(update_fields)))

    party = make_party()
    signals.post_save.connect(receiver, sender=Party)
    try:
        party.version += 1
        save_fields(party, ["version"])
    finally:
        signals.post_save.disconnect(receiver, sender=Party)
    assert seen == [(party.pk, ["version"])]
    assert Party.objects.get(pk=party.pk).version == party.version


def _row(instance):
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_an_inserted_row_is_the_row_save_would_write(make_party, referee_user):
    """A deal with JSON columns, a Cyrillic note, its author and its auto_now_add time."""
    party = make_party()
    start_party(party.pk)
    made = {}
    for how in ("save", "insert_row"):
        deal = Deal(party=party, number=len(made) + 1, outcome="fish", winner="a",
                    points_a=7, points_b=0, pips={"a": 3, "b": 10}, tiles={"a": ["1-2"]},
                    note="Пересдача: Иванов", client_id=how, recorded_by=referee_user)
        with CaptureQueriesContext(connection) as queries:
            deal.save(force_insert=True) if how == "save" else insert_row(deal)
        assert len(queries.captured_queries) == 1
        assert deal.pk is not None and not deal._state.adding and deal._state.db == "default"
        assert deal.recorded_at and deal.updated_at  # auto_now(_add) filled in on the instance
        made[how] = deal
    by_save, by_insert = (_row(Deal.objects.get(pk=made[h].pk)) for h in ("save", "insert_row"))
    assert _row(made["insert_row"]) == by_insert  # the instance holds what the row holds
    for name in ("id", "number", "client_id", "recorded_at", "updated_at"):  # their own
        by_save.pop(name), by_insert.pop(name)
    assert by_save == by_insert
    assert made["insert_row"].pk > made["save"].pk


def test_a_model_with_save_receivers_is_inserted_by_save(make_party):
    seen = []

    def receiver(sender, instance, created, **kwargs):
        seen.append((instance.number, created))

    party = make_party()
    signals.post_save.connect(receiver, sender=Deal)
    try:
        insert_row(Deal(party=party, number=1, outcome="fish", winner="a", points_a=5))
    finally:
        signals.post_save.disconnect(receiver, sender=Deal)
    assert seen == [(1, True)]
    assert Deal.objects.get(party=party).points_a == 5
