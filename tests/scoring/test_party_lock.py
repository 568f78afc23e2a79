"""The party lock gives every service the same objects on every database."""

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.db.models import signals

from referee.services.staffing import referee_settings
from scoring.core.errors import ConflictError, ServiceError
from scoring.models import Party, RefereeSettings, Regulations, Tournament
from scoring.party.row_lock import PARTY_LOCK_RELATED, lock_party, read_party
from scoring.party.rows import model_instance

POSTGRES = "postgresql" in settings.DATABASES["default"]["ENGINE"]


def _values(instance):
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


@pytest.mark.django_db
def test_the_lock_reads_what_the_orm_reads(make_party):
    """Party, round, tournament, regulations, pairs and table, field by field."""
    bye = make_party()
    Party.objects.filter(pk=bye.pk).update(pair_b=None, table=None)
    for party in (make_party(table_number=2), bye):
        expected = Party.objects.select_related(*PARTY_LOCK_RELATED).get(pk=party.pk)
        with transaction.atomic():
            locked = lock_party(party.pk)
        read = read_party(party.pk)  # the unlocked read of the actions: the same objects
        for instance in (read, read.round, read.round.tournament, read.pair_a, read.table):
            if instance is not None:
                original = expected
                for step in {"Round": ["round"], "Tournament": ["round", "tournament"],
                             "Pair": ["pair_a"], "Table": ["table"]}.get(
                                 type(instance).__name__, []):
                    original = getattr(original, step)
                assert _values(instance) == _values(original)
        assert _values(locked) == _values(expected)
        assert _values(locked.round) == _values(expected.round)
        assert _values(locked.round.tournament) == _values(expected.round.tournament)
        assert (_values(locked.round.tournament.regulations)
                == _values(expected.round.tournament.regulations))
        assert _values(locked.pair_a) == _values(expected.pair_a)
        assert (locked.pair_b is None) == (expected.pair_b is None)
        if expected.pair_b is not None:
            assert _values(locked.pair_b) == _values(expected.pair_b)
        assert (locked.table is None) == (expected.table is None)
        assert locked.round.tournament.regulations.rules_config() == (
            expected.round.tournament.regulations.rules_config())


@pytest.mark.django_db
def test_reading_a_missing_party_says_so(make_party):
    party = make_party()
    with pytest.raises(Party.DoesNotExist):
        read_party(party.pk + 1000)


@pytest.mark.django_db
def test_the_lock_refuses_a_missing_party_and_a_stale_version(make_party):
    party = make_party()
    with transaction.atomic():
        with pytest.raises(ServiceError) as missing:
            lock_party(party.pk + 1000)
        assert missing.value.field == "party"
        with pytest.raises(ConflictError):
            lock_party(party.pk, expected_version=party.version + 1)


@pytest.mark.postgres
@pytest.mark.skipif(not POSTGRES, reason="needs PostgreSQL (DATABASE_URL); CI sets it")
@pytest.mark.django_db
def test_on_postgresql_the_lock_is_one_query_with_its_timeout(
    make_party, django_assert_num_queries
):
    party = make_party()
    with transaction.atomic():
        with django_assert_num_queries(1) as queries:
            locked = lock_party(party.pk)
        assert "set_config('lock_timeout'" in queries.captured_queries[0]["sql"]
        with connection.cursor() as cursor:  # the bound holds for this transaction only
            cursor.execute("SHOW lock_timeout")
            assert cursor.fetchone()[0] == "5s"
        assert locked.round.tournament.regulations.target > 0
        assert locked.pair_a.pk and locked.table.number == 1


@pytest.mark.django_db
@pytest.mark.parametrize("saved", [None, "udl"])
def test_the_lock_reads_the_referee_settings_with_the_party(
    make_party, saved, django_assert_num_queries
):
    """A UDL tournament's desk applies UDL penalties, a tournament without settings the
    defaults, and neither reads the settings again after the lock."""
    party = make_party()
    tournament = party.round.tournament
    if saved:
        RefereeSettings.objects.create(tournament=tournament, penalty_preset=saved)
    with transaction.atomic():
        locked = lock_party(party.pk)
        with django_assert_num_queries(0):
            found = referee_settings(locked.round.tournament)
    assert found.penalty_preset == (saved or RefereeSettings.Preset.SPORT)
    assert (found.pk is not None) == bool(saved)
    read = read_party(party.pk)
    with django_assert_num_queries(0):
        assert referee_settings(read.round.tournament).penalty_preset == found.penalty_preset


def _raw_row(model, pk):
    columns = ", ".join(connection.ops.quote_name(f.column) for f in model._meta.concrete_fields)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns} FROM {connection.ops.quote_name(model._meta.db_table)} "
                       f"WHERE {connection.ops.quote_name(model._meta.pk.column)} = %s", [pk])
        return cursor.fetchone()


@pytest.mark.django_db
def test_an_instance_made_from_a_row_is_the_orms(make_party):
    """What the lock and the protocol rows build: the same values and state as the ORM's, its
    foreign keys followed as usual, and init receivers still called where a model has them."""
    party = make_party()
    party.refresh_from_db()
    tournament = party.round.tournament
    for model, pk in ((Party, party.pk), (Tournament, tournament.pk),
                      (Regulations, tournament.regulations.pk)):
        built = model_instance(model, _raw_row(model, pk), "default", connection)
        expected = model.objects.get(pk=pk)
        assert type(built) is model and _values(built) == _values(expected)
        assert (built._state.adding, built._state.db) == (False, "default")
        assert built == expected
    built = model_instance(Party, _raw_row(Party, party.pk), "default", connection)
    assert built.pair_a == party.pair_a and built.round.tournament == tournament
    seen = []

    def receiver(sender, instance, **kwargs):
        seen.append(instance.pk)

    signals.post_init.connect(receiver, sender=Party)
    try:
        built = model_instance(Party, _raw_row(Party, party.pk), "default", connection)
    finally:
        signals.post_init.disconnect(receiver, sender=Party)
    assert seen == [party.pk] and _values(built) == _values(party)
