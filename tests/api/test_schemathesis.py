"""schemathesis against the OpenAPI schema, in-process: every operation as every role.

As the organizer of a tournament with data (pairs, tables, a round in play with a deal and a
warning), the referee of its party, a player of that party and an anonymous visitor, while
another tournament's records are present. Each operation gets valid examples (half of them
addressing a record that exists) and invalid ones (a path id that is not a number, a wrong
body). Each example runs in a savepoint that is rolled back, so every example starts from the
same data. No operation may answer with a server error, an undocumented status, a wrong
content type or a body that does not match the schema. Derandomized: the same cases each run.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest
import schemathesis
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application
from tests.api.conftest import FUZZ_ROLES

EXAMPLES = {"organizer": 20, "referee": 8, "player": 4, "anonymous": 4}
"""Valid examples per operation for each role (the organizer reaches the most code)."""
INVALID = 3
"""Invalid examples per operation for each role (where the schema allows an invalid request)."""
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]

REAL_IDS: dict[str, list[Any]] = {}
"""Existing record ids by the URL's collection, so examples reach real records too."""


def _collection(path: str) -> str:
    """The part of an operation's path before its first parameter."""
    return path.split("{", 1)[0]


def _record_ids(field: Any) -> dict[str, list[Any]]:
    """Ids of the records each collection's detail routes take."""
    from scoring.models import (
        Deal,
        Pair,
        Party,
        Penalty,
        Player,
        PrintJob,
        Protocol,
        Round,
        Table,
        Tournament,
        TournamentRole,
    )

    parties = list(Party.objects.values_list("pk", flat=True))
    tournaments = list(Tournament.objects.values_list("pk", flat=True))
    return {
        "/api/v1/tournaments/": tournaments,
        "/api/v1/referee/tournaments/": tournaments,
        "/api/v1/players/": list(Player.objects.values_list("pk", flat=True)),
        "/api/v1/pairs/": list(Pair.objects.values_list("pk", flat=True)),
        "/api/v1/tables/": list(Table.objects.values_list("pk", flat=True)),
        "/api/v1/rounds/": list(Round.objects.values_list("pk", flat=True)),
        "/api/v1/parties/": parties,
        "/api/v1/party-protocols/": parties,
        "/api/v1/deals/": list(Deal.objects.values_list("pk", flat=True)),
        "/api/v1/penalties/": list(Penalty.objects.values_list("pk", flat=True)),
        "/api/v1/referee/roles/": list(TournamentRole.objects.values_list("pk", flat=True)),
        "/api/v1/print-jobs/": list(PrintJob.objects.values_list("pk", flat=True)),
        "/api/v1/protocols/": [
            str(v) for v in Protocol.objects.values_list("public_id", flat=True)
        ],
    }


schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)


@schema.hook
def flatmap_path_parameters(context: Any, path_parameters: dict[str, Any]) -> Any:
    """Half of the examples address a record that exists (ours or the other tournament's)."""
    ids = REAL_IDS.get(_collection(context.operation.path))
    if not ids or not path_parameters:
        return st.just(path_parameters)
    name = next(iter(path_parameters))
    real = st.sampled_from(ids).map(lambda value: {**path_parameters, name: value})
    return st.one_of(st.just(path_parameters), real)


def _fuzz(operation: Any, headers: dict[str, str], examples: int, mode: GenerationMode,
          statuses: Counter[str]) -> int:
    """Run one operation's examples; each in a savepoint rolled back afterwards."""
    calls = 0

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any) -> None:
        nonlocal calls
        savepoint = transaction.savepoint()
        try:
            response = case.call_and_validate(headers=headers, checks=CHECKS)
            statuses[f"{response.status_code // 100}xx"] += 1
            calls += 1
        finally:
            transaction.savepoint_rollback(savepoint)

    run()
    return calls


def _negative_possible(operation: Any) -> bool:
    """Whether the schema lets a request of the operation be invalid (a parameter or a body)."""
    definition = operation.definition.raw
    return bool(definition.get("parameters") or definition.get("requestBody")
                or operation.path_parameters)


@pytest.mark.django_db
@pytest.mark.parametrize("role", FUZZ_ROLES)
def test_every_operation_conforms(role, field, role_headers, settings, in_process_requests,
                                  capsys):
    """Zero server errors and zero schema violations over every operation, as this role."""
    settings.ALLOWED_HOSTS = ["*"]
    REAL_IDS.update(_record_ids(field))
    headers = role_headers[role]
    operations = [result.ok() for result in schema.get_all_operations()]
    started = time.monotonic()
    covered, requests, failures, statuses = 0, 0, [], Counter()
    slow = []
    for operation in operations:
        begun = time.monotonic()
        runs = [(EXAMPLES[role], GenerationMode.POSITIVE)]
        if _negative_possible(operation):
            runs.append((INVALID, GenerationMode.NEGATIVE))
        for examples, mode in runs:
            try:
                requests += _fuzz(operation, headers, examples, mode, statuses)
            except (Exception, BaseExceptionGroup) as exc:  # every operation's failure counts
                failures.append(f"{operation.label} ({mode.value}): {exc}")
        covered += 1
        slow.append((time.monotonic() - begun, operation.label))
    seconds = time.monotonic() - started
    with capsys.disabled():
        print(
            f"\nschemathesis as {role}: {covered} of {len(operations)} operations covered, "
            f"up to {EXAMPLES[role]} valid + {INVALID} invalid examples each, {requests} "
            f"requests in {seconds:.0f} s "
            f"({', '.join(f'{k}: {v}' for k, v in sorted(statuses.items()))}); slowest: "
            + ", ".join(f"{label} {spent:.1f} s" for spent, label in sorted(slow)[-3:])
        )
    assert not failures, "\n\n".join(failures)
    assert covered == len(operations) == len(schema)
