"""``insert_rows``: many rows in one statement, unnamed fields at their defaults."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.core.bulk import insert_rows
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
