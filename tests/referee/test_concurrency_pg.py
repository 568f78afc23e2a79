"""Twenty devices changing one party at once on PostgreSQL: nothing lost, nothing twice, 409s.

Runs only against PostgreSQL (DATABASE_URL), as CI does: SQLite has no row locks to test.
"""

from __future__ import annotations

import threading
import uuid
from collections import Counter

import pytest
from django.db import connection
from rest_framework.test import APIClient

from scoring.models import Deal, Party, PartyEvent, Penalty
from scoring.totals.compute import party_totals
from tests.pg import ONLY_ON_POSTGRES

pytestmark = [*ONLY_ON_POSTGRES, pytest.mark.django_db(transaction=True)]

THREADS = 20
ROUNDS = 4


def run_devices(party_id, user, work):
    """Run ``work(client, index, barrier)`` in THREADS threads; collect what each returns."""
    barrier = threading.Barrier(THREADS)
    results, errors = [], []

    def device(index):
        client = APIClient()
        client.force_authenticate(user)
        try:
            results.extend(work(client, index, barrier))
        except Exception as exc:  # noqa: BLE001 - reported by the test
            errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=device, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    return results


def post_change(client, party_id, index, n, version):
    """A deal (even devices) or a fine (odd devices), sent with the version the device saw."""
    client_id = f"dev{index}-{n}-{uuid.uuid4().hex[:8]}"
    if index % 2 == 0:
        points = 1 + (index + n) % 9
        body = {"outcome": "domino", "side": "a", "points": {"a": points, "b": 0}}
        kind = "deal"
    else:
        points = 25
        body = {"side": "b", "category": "signs"}
        kind = "fine"
    if version is not None:
        body["version"] = version
    response = client.post(f"/api/v1/parties/{party_id}/{kind}/",
                           {**body, "client_id": client_id}, format="json")
    return kind, client_id, points, response.status_code


def check_records(party, accepted):
    """Every accepted change is there exactly once; the totals are the sum of the records."""
    deals = list(Deal.objects.filter(party=party))
    fines = list(Penalty.objects.filter(party=party, kind="fine"))
    deal_ids = Counter(d.client_id for d in deals)
    fine_ids = Counter(f.client_id for f in fines)
    assert all(count == 1 for count in deal_ids.values())
    assert all(count == 1 for count in fine_ids.values())
    assert set(deal_ids) == {cid for kind, cid, _, _ in accepted if kind == "deal"}
    assert set(fine_ids) == {cid for kind, cid, _, _ in accepted if kind == "fine"}
    assert sorted(d.number for d in deals) == list(range(1, len(deals) + 1))
    seqs = list(PartyEvent.objects.filter(party=party).values_list("seq", flat=True))
    assert sorted(seqs) == list(range(1, len(seqs) + 1))
    expected_a = sum(p for kind, _, p, _ in accepted if kind == "deal")
    expected_b = -sum(p for kind, _, p, _ in accepted if kind == "fine")
    totals = party_totals(Party.objects.get(pk=party.pk))
    assert totals.points == {"a": expected_a, "b": expected_b}
    assert sum(d.points_a for d in deals) == expected_a


@pytest.fixture
def busy_party(party):
    regulations = party.round.tournament.regulations
    regulations.target = 10000
    regulations.save()
    return party


def test_twenty_devices_with_versions_lose_nothing_and_conflicts_get_409(
    busy_party, referee_user
):
    party = busy_party

    def work(client, index, barrier):
        out = []
        for n in range(ROUNDS):
            version = Party.objects.values_list("version", flat=True).get(pk=party.pk)
            barrier.wait(timeout=60)  # everyone read the same version: only one may win
            out.append(post_change(client, party.pk, index, n, version))
            barrier.wait(timeout=60)
        return out

    results = run_devices(party.pk, referee_user, work)
    codes = Counter(code for *_, code in results)
    assert set(codes) <= {201, 409}, codes
    assert codes[201] == ROUNDS  # one winner per round of the race
    assert codes[409] == ROUNDS * (THREADS - 1)
    check_records(party, [r for r in results if r[3] == 201])


def test_twenty_devices_without_versions_are_all_applied_once(busy_party, referee_user):
    party = busy_party

    def work(client, index, barrier):
        barrier.wait(timeout=60)
        return [post_change(client, party.pk, index, n, None) for n in range(ROUNDS)]

    results = run_devices(party.pk, referee_user, work)
    assert Counter(code for *_, code in results) == {201: THREADS * ROUNDS}
    check_records(party, results)


def test_twenty_devices_retrying_the_same_key_make_one_deal_each(busy_party, referee_user):
    party = busy_party
    keys = [str(uuid.uuid4()) for _ in range(5)]

    def work(client, index, barrier):
        out = []
        for key in keys:
            barrier.wait(timeout=60)
            response = client.post(
                f"/api/v1/parties/{party.pk}/deal/",
                {"outcome": "fish", "side": "a", "points": {"a": 3, "b": 0}},
                format="json", HTTP_IDEMPOTENCY_KEY=key,
            )
            out.append((key, response.status_code))
        return out

    results = run_devices(party.pk, referee_user, work)
    assert {code for _, code in results} <= {201, 409}
    assert Deal.objects.filter(party=party).count() == len(keys)
    assert party_totals(Party.objects.get(pk=party.pk)).points["a"] == 3 * len(keys)
