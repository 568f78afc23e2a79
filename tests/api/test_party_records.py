"""A party's records (deals, penalties, rulings) beneath it: visible parties only."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from referee.services import give_warning, mark_time_expired
from scoring.models import Party
from scoring.party.deals import record_deal
from tests.api.openapi import operations, problems, served_schema

pytestmark = pytest.mark.django_db

DOMINO_A = {"outcome": "domino", "went_out": "a1", "pips": {"a1": 0, "a2": 10, "b1": 20, "b2": 30}}


def _records(client, name, party):
    response = client.get(f"/api/v1/parties/{party.pk}/{name}/")
    if response.status_code == 404:
        return None
    assert response.status_code == 200
    return response.json()


def test_deals_and_penalties_of_a_public_party_are_readable(client, party):
    record_deal(party.pk, **DOMINO_A)
    give_warning(party.pk, side="b", category="talking")
    deals = _records(client, "deals", party)
    assert [(d["number"], d["points"], d["side"], d["seat"]) for d in deals] == [
        (1, {"a": 60, "b": 0}, "a", "a1")
    ]
    penalties = _records(client, "penalties", party)
    assert [(p["kind"], p["category"], p["side"], p["seat"]) for p in penalties] == [
        ("warning", "talking", "b", "")
    ]
    assert _records(client, "rulings", party) == []
    one = client.get(f"/api/v1/deals/{deals[0]['id']}/").json()
    assert one == deals[0]


def test_the_party_links_to_its_records(client, party):
    record_deal(party.pk, **DOMINO_A)
    body = client.get(f"/api/v1/parties/{party.pk}/").json()
    links = body["links"]
    for name in ("deals", "penalties", "rulings"):
        assert client.get(links[name]).status_code == 200
    assert links["protocol"].endswith(f"/api/v1/party-protocols/{party.pk}/")
    assert body["totals"]["points"] == {"a": 60, "b": 0}
    assert body["scored_by"] == "side"


def test_records_of_a_hidden_tournament_do_not_leak(client, party, make_user):
    deal = record_deal(party.pk, **DOMINO_A).record
    tournament = party.round.tournament
    tournament.public = False
    tournament.save()
    assert _records(client, "deals", party) is None
    assert client.get(f"/api/v1/deals/{deal.pk}/").status_code == 404
    client.force_login(make_user())
    assert _records(client, "deals", party) is None
    assert client.get("/api/v1/parties/").json()["count"] == 0


def test_records_of_a_draft_round_are_for_organizers_only(client, party, organizer):
    record_deal(party.pk, **DOMINO_A)
    party.round.status = "draft"
    party.round.save()
    assert _records(client, "deals", party) is None
    client.force_login(organizer)
    assert len(_records(client, "deals", party)) == 1


def test_old_paths_answer_with_a_permanent_redirect_keeping_the_method(client, party):
    response = client.get(f"/api/referee/parties/{party.pk}/events/?x=1")
    assert response.status_code == 308
    assert response["Location"] == f"/api/v1/parties/{party.pk}/events/?x=1"
    response = client.post("/api/tournaments/", {})
    assert response.status_code == 308
    assert response["Location"] == "/api/v1/tournaments/"


def test_an_unsafe_request_to_no_endpoint_is_a_json_404_not_a_csrf_page(party):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = client.post("/api/v1/tournaments/-5/import/", {})
    assert (response.status_code, response.json()) == (404, {"detail": "Not found."})
    assert client.post("/api/tournaments/", {}).status_code == 308


def test_a_system_events_actor_is_null_as_the_schema_allows(client, party, referee_user):
    """The clock worker's note that time ran out has no actor: null, which the schema of the
    event log declares (it declared a string)."""
    limit = party.limit_seconds
    assert limit is not None
    Party.objects.filter(pk=party.pk).update(
        started_at=timezone.now() - timedelta(seconds=limit + 60))
    mark_time_expired(party.pk)  # the clock worker: no actor
    client.force_login(referee_user)
    events = _records(client, "events", party)
    assert {event["kind"]: event["actor"] for event in events}["time_expired"] is None
    document = served_schema()
    (operation,) = [op for op in operations(document) if op.id == "parties_events_list"]
    schema = operation.spec["responses"]["200"]["content"]["application/json"]["schema"]
    assert problems(document, schema, events, "response") == []
