"""A deal entered at the desk costs at most 12 SQL statements, through the API and the page."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import Deal

pytestmark = pytest.mark.django_db

LIMIT = 12
"""Statements of one deal entry, the transaction's BEGIN/COMMIT/savepoints not counted."""

_CONTROL = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT", "BEGIN", "COMMIT")


def _statements(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(_CONTROL)]


def test_a_deal_through_the_api_costs_at_most_12_statements(api, party):
    api.post(f"/api/v1/parties/{party.pk}/deal/", {"outcome": "fish", "side": "b",
             "points": {"a": 0, "b": 9}}, format="json")  # warm: the first deal opens nothing
    body = {"outcome": "domino", "side": "a", "points": {"a": 10, "b": 0},
            "client_id": uuid.uuid4().hex}
    with CaptureQueriesContext(connection) as queries:
        response = api.post(f"/api/v1/parties/{party.pk}/deal/", body, format="json",
                            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
    assert response.status_code == 201, response.json()
    statements = _statements(queries)
    assert len(statements) <= LIMIT, "\n".join(s[:110] for s in statements)
    assert Deal.objects.filter(party=party, client_id=body["client_id"]).count() == 1
