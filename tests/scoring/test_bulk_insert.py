"""``insert_rows``: many rows in one statement, unnamed fields at their defaults."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.core.bulk import copy_rows, insert_rows
from scoring.models import Party
from tests.factories import PairFactory, RoundFactory, TableFactory, TournamentFactory

pytestmark = pytest.mark.django_db


def test_rows_get_their_values_and_the_defaults_in_one_statement() -> None:
    tournament = TournamentFactory()
    rnd = RoundFactory(tournament=tournament)
    pairs = [PairFactory(tournament=tournament) for _ in range(5)]
    tables = [TableFactory(tournament=tournament) for _ in range(2)]
    now = timezone.now()
    rows = [
        {"round_id": rnd.pk, "table_id": tables[0].pk, "pair_a_id": pairs[0].pk,
         "pair_b_id": pairs[1].pk},
        {"round_id": rnd.pk, "pair_a_id": pairs[4].pk, "status": Party.Status.FINISHED,
         "end_reason": Party.EndReason.BYE, "winner": "a", "finished_at": now},
        {"round_id": rnd.pk, "table_id": tables[1].pk, "pair_a_id": pairs[2].pk,
         "pair_b_id": pairs[3].pk},
    ]
    with CaptureQueriesContext(connection) as queries:
        insert_rows(Party, rows)
    assert len(queries) == 1
    parties = {p.pair_a_id: p for p in Party.objects.filter(round=rnd)}
    assert set(parties) == {pairs[0].pk, pairs[2].pk, pairs[4].pk}
    played, bye = parties[pairs[0].pk], parties[pairs[4].pk]
    assert (played.table_id, played.pair_b_id, played.status) == (
        tables[0].pk, pairs[1].pk, Party.Status.SCHEDULED)
    assert (played.end_reason, played.winner, played.finished_at) == ("", "", None)
    assert (played.version, played.game, played.paused_seconds, played.first_mover) == (
        1, 1, 0, "")
    assert (bye.table_id, bye.pair_b_id, bye.status, bye.end_reason, bye.winner) == (
        None, None, Party.Status.FINISHED, Party.EndReason.BYE, "a")
    assert bye.finished_at == now
    assert parties[pairs[2].pk].table_id == tables[1].pk


def test_rows_alike_and_no_rows() -> None:
    tournament = TournamentFactory()
    rnd = RoundFactory(tournament=tournament)
    pair = PairFactory(tournament=tournament)
    insert_rows(Party, [])
    insert_rows(Party, [{"round_id": rnd.pk, "pair_a_id": pair.pk}] * 2)
    assert list(Party.objects.filter(round=rnd).values_list("pair_a_id", "status")) == [
        (pair.pk, Party.Status.SCHEDULED)] * 2


def _copied_parties() -> tuple[list[dict[str, object]], list[Party.Status], object]:
    """Three parties as ``copy_rows`` takes them: a prepared value (a time), a default."""
    tournament = TournamentFactory()
    rnd = RoundFactory(tournament=tournament)
    pairs = [PairFactory(tournament=tournament) for _ in range(3)]
    now = timezone.now()
    rows: list[dict[str, object]] = [
        {"round_id": rnd.pk, "pair_a_id": pairs[0].pk, "pair_b_id": pairs[1].pk},
        {"round_id": rnd.pk, "pair_a_id": pairs[2].pk, "status": Party.Status.FINISHED,
         "end_reason": Party.EndReason.BYE, "winner": "a", "finished_at": now},
    ]
    return rows, [Party.Status.SCHEDULED, Party.Status.FINISHED], now


def test_copied_rows_get_their_values_and_the_defaults() -> None:
    rows, statuses, now = _copied_parties()
    copy_rows(Party, rows)
    copy_rows(Party, [])
    made = list(Party.objects.filter(round_id=rows[0]["round_id"]).order_by("pair_a_id")
                .values_list("pair_b_id", "status", "winner", "finished_at", "version"))
    assert made == [(rows[0]["pair_b_id"], statuses[0], "", None, 1),
                    (None, statuses[1], "a", now, 1)]


@pytest.mark.skipif(connection.vendor != "postgresql",
                    reason="needs PostgreSQL (DATABASE_URL); CI sets it")
def test_copied_rows_stream_by_one_copy_on_postgresql() -> None:
    rows, _statuses, _now = _copied_parties()
    with CaptureQueriesContext(connection) as queries:
        copy_rows(Party, rows)
    assert [q["sql"].split()[0] for q in queries.captured_queries] == ["COPY"]
    assert Party.objects.filter(round_id=rows[0]["round_id"]).count() == 2


def test_rating_rows_copied_keep_their_floats_to_the_last_bit() -> None:
    from scoring.models import Profile, RatingEntry, RatingList

    tournament = TournamentFactory()
    profile = Profile.objects.create(name="Игрок")
    rating_list = RatingList.objects.create(name="Список", slug="copy-floats")
    values = {"rating": 1500.0 + 1 / 3, "deviation": 0.1 + 0.2, "volatility": 0.06000000001,
              "mu": -1e-17, "phi": 2.0 ** -40, "score": 1.5}
    copy_rows(RatingEntry, [{"rating_list_id": rating_list.pk, "subject": str(profile.pk),
                             "profile_id": profile.pk, "tournament_id": tournament.pk,
                             "sequence": 1, "games": 2, "current": True, **values}])
    stored = RatingEntry.objects.get(rating_list=rating_list)
    assert {name: getattr(stored, name) for name in values} == values
    assert (stored.partner_id, stored.current, stored.games) == (None, True, 2)
