"""A deal entered at the desk costs at most 12 SQL statements, through the API (a table
device with its token and an Idempotency-Key, as in ``bench/bench_deal_entry.py``) and through
the desk page, on SQLite and on PostgreSQL."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.models import Deal
from scoring.totals import DEAL_ROW_FIELDS, RecordedDeal

pytestmark = pytest.mark.django_db

LIMIT = 12
"""Statements of one deal entry; the transaction's BEGIN, COMMIT and savepoints not counted."""

PAGE_LIMIT = 19
"""The desk page's answer: the action and the panel drawn again (not yet lightened)."""

_CONTROL = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT", "BEGIN", "COMMIT")


def _statements(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(_CONTROL)]


def _assert_light(queries: CaptureQueriesContext) -> None:
    statements = _statements(queries)
    assert len(statements) <= LIMIT, "\n".join(s[:110] for s in statements)
    deal_reads = [s for s in statements if s.startswith("SELECT") and 'FROM "scoring_deal"' in s]
    assert len(deal_reads) == 1, deal_reads  # the rows read once (retry, number, leader, totals)


def test_a_deal_through_the_api_costs_at_most_12_statements(party, referee_user):
    token = Token.objects.create(user=referee_user)
    device = APIClient()
    device.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    url = f"/api/v1/parties/{party.pk}/deal/"
    first = device.post(url, {"outcome": "fish", "side": "b", "points": {"a": 0, "b": 9}},
                        format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
    assert first.status_code == 201, first.json()
    body = {"outcome": "domino", "side": "a", "points": {"a": 10, "b": 0},
            "client_id": uuid.uuid4().hex}
    with CaptureQueriesContext(connection) as queries:
        response = device.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
    assert response.status_code == 201, response.json()
    assert response.json()["party"]["totals"]["points"] == {"a": 10, "b": 9}
    _assert_light(queries)
    # a retry of the same deal under a new key (the device lost the answer) finds it: one deal
    again = device.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
    assert again.json()["record"]["id"] == response.json()["record"]["id"]
    assert Deal.objects.filter(party=party, client_id=body["client_id"]).count() == 1


def test_a_deal_through_the_desk_page_costs_at_most_12_statements(client, party,
                                                                   referee_user):
    client.force_login(referee_user)
    url = f"/referee/party/{party.pk}/deal/"
    hx = {"HTTP_HX_REQUEST": "true"}
    client.post(url, {"outcome": "fish", "winner": "b", "points": "9", "client_id": "one"}, **hx)
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, {"outcome": "domino", "winner": "a", "points": "10",
                                     "client_id": "two"}, **hx)
    assert response.status_code == 200
    assert Deal.objects.get(party=party, client_id="two").points_a == 10
    statements = [s for s in _statements(queries) if "django_session" not in s
                  and 'FROM "auth_user"' not in s]  # the login's session, not the desk's work
    # the action: up to the party's new version (its commit)
    action = next(n for n, s in enumerate(statements)
                  if s.startswith('UPDATE "tournaments_party" SET "version"')) + 1
    assert action <= LIMIT, "\n".join(s[:110] for s in statements[:action])
    # the panel drawn again after it (its deals, fines, rulings, log): pinned where it is now
    assert len(statements) <= PAGE_LIMIT, "\n".join(s[:110] for s in statements)


def test_a_recorded_deal_row_starts_with_the_totals_row():
    assert RecordedDeal._fields[:len(DEAL_ROW_FIELDS)] == DEAL_ROW_FIELDS
