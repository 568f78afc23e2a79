"""schemathesis' stateful phase on v1: sequences of calls following the schema's links.

The links are the ones schemathesis infers from the schema (a created or listed record's id
feeds the operations on it) and the ones the schema declares for the main flows
(``config.api_links.LINKS``: a tournament → its round, entrants and desk; a round → its
draw, publishing, starting and prints; a party → its actions and protocol; a deal → its
corrections). As the organizer of a tournament with data, the referee of its party, a player
of that party and an anonymous visitor, in-process; each scenario runs in a savepoint rolled
back afterwards. No step may answer with a server error, an undocumented status or content
type, or a body that does not match the schema. Derandomized: the same sequences each run.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest
import schemathesis
from django.db import transaction
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application
from tests.api.conftest import FUZZ_ROLES

SCENARIOS = {"organizer": 40, "referee": 20, "player": 10, "anonymous": 10}
"""Sequences per role (the organizer reaches the most operations)."""
STEPS = 10
LINKED = {"organizer": 20, "referee": 10, "player": 5, "anonymous": 5}
"""At least this many operations are reached by following links, per role."""
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]

schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)
# Valid requests only, as in the stateless run: a sequence is about the links between calls
# (invalid input of every operation is the stateless run's and the conventions test's).
schema.config.generation.update(modes=[GenerationMode.POSITIVE])
schema.config.phases.stateful.generation.update(modes=[GenerationMode.POSITIVE])


def _machine(headers: dict[str, str], seen: Counter[str], steps: Counter[str]) -> type:
    """The schema's state machine, calling with the role's headers, one savepoint a scenario."""
    base = schema.as_state_machine()

    class Machine(base):  # type: ignore[misc, valid-type]
        """The inferred and declared links, as one role, rolled back each scenario."""

        savepoint: Any = None

        def setup(self) -> None:
            """A savepoint before the scenario."""
            self.savepoint = transaction.savepoint()

        def teardown(self) -> None:
            """Back to the savepoint: the next scenario starts from the same data."""
            transaction.savepoint_rollback(self.savepoint)

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            """The role's token (none for the anonymous visitor)."""
            return {"headers": headers}

        def after_call(self, response: Any, case: Any) -> None:
            """Count the answer and the operation."""
            super().after_call(response, case)
            seen[f"{response.status_code // 100}xx"] += 1
            steps[case.operation.label] += 1

        def validate_response(self, response: Any, case: Any, additional_checks: Any = None,
                              **kwargs: Any) -> None:
            """Server errors, status codes, content types and response schemas only."""
            case.validate_response(response, checks=CHECKS, headers=headers)

    return Machine


@pytest.mark.django_db
@pytest.mark.parametrize("role", FUZZ_ROLES)
def test_stateful_sequences_conform(role, field, role_headers, settings, in_process_requests,
                                    capsys):
    """Zero server errors and schema violations over sequences of linked calls, as this role."""
    settings.ALLOWED_HOSTS = ["*"]
    statuses: Counter[str] = Counter()
    steps: Counter[str] = Counter()
    machine = _machine(role_headers[role], statuses, steps)
    transitions = schema.statistic.transitions
    started = time.monotonic()
    machine.run(settings=settings_for_run(SCENARIOS[role]))
    seconds = time.monotonic() - started
    linked = {label for label in steps if steps[label]}
    with capsys.disabled():
        print(
            f"\nschemathesis stateful as {role}: {transitions.total} links, {SCENARIOS[role]} "
            f"scenarios of up to {STEPS} steps, {sum(steps.values())} calls of {len(linked)} "
            f"operations in {seconds:.0f} s "
            f"({', '.join(f'{k}: {v}' for k, v in sorted(statuses.items()))})"
        )
    assert transitions.total > 0
    assert len(linked) >= LINKED[role]


def settings_for_run(scenarios: int) -> settings:
    """Bounded and repeatable: a fixed number of scenarios and steps, derandomized."""
    return settings(
        max_examples=scenarios,
        stateful_step_count=STEPS,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


def test_the_declared_links_join_operations_of_the_schema():
    """Every link of ``config.api_links`` is in the schema (a renamed operation would drop it)."""
    from config.api_links import LINKS

    ids = {result.ok().definition.raw["operationId"] for result in schema.get_all_operations()}
    missing = sorted({name for source, _s, target, _p, _b in LINKS for name in (source, target)
                      if name not in ids})
    assert missing == []
    declared = {
        (operation["operationId"], status, name)
        for item in schema.raw_schema["paths"].values()
        for operation in item.values() if isinstance(operation, dict)
        for status, response in operation.get("responses", {}).items()
        for name in response.get("links", {})
    }
    assert {(source, status, target) for source, status, target, _p, _b in LINKS} <= declared
