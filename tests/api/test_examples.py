"""Recorded examples (issue 18): every operation of the v1 schema shows a real request and
response, each valid against the operation's schema, and the file is what the scenario
records today (``manage.py api_examples --write`` writes it)."""

from __future__ import annotations

import json

import pytest

from tests.api.openapi import Operation, operations, problems, served_schema


@pytest.fixture(scope="module")
def document():
    """The served v1 schema, examples attached by the postprocessing hook."""
    return served_schema("v1")


def _examples(media: dict) -> dict:
    """The examples of a request or response body."""
    return media.get("examples") or {}


def _response_examples(operation: Operation) -> dict[str, list]:
    """Status → the (content type, example) pairs the operation's responses show."""
    found: dict[str, list] = {}
    for status, response in operation.spec["responses"].items():
        for content_type, media in (response.get("content") or {}).items():
            for example in _examples(media).values():
                found.setdefault(status, []).append((content_type, example))
    return found


def _recorded() -> dict:
    """The stored examples by operation id."""
    from tournaments.api_examples import examples_path

    return json.loads(examples_path("v1").read_text(encoding="utf-8"))["operations"]


def test_every_operation_has_a_recorded_example(document):
    """A request example where there is a body, and a response example of a documented status."""
    recorded = _recorded()
    missing = []
    for operation in operations(document):
        call = recorded.get(operation.id)
        if call is None:
            missing.append(f"{operation.label}: nothing recorded")
            continue
        body = operation.spec.get("requestBody")
        if body and not any(_examples(m) for m in body.get("content", {}).values()):
            missing.append(f"{operation.label}: no request example")
        status = str(call["response"]["status"])
        declared = operation.spec["responses"].get(status)
        if declared is None:
            missing.append(f"{operation.label}: recorded status {status} is not documented")
        elif declared.get("content") and status not in _response_examples(operation):
            missing.append(f"{operation.label}: no example of its {status} response")
        elif not declared.get("content") and call["response"]["body"] is not None:
            missing.append(f"{operation.label}: {status} has a body the schema does not show")
    ids = {operation.id for operation in operations(document)}
    missing += [f"{key}: recorded, but no such operation" for key in sorted(set(recorded) - ids)]
    assert not missing, "\n".join(missing)


def test_every_example_matches_its_schema(document):
    """Request examples against the request body's schema, responses against their status'."""
    wrong = []
    for operation in operations(document):
        body = operation.spec.get("requestBody") or {}
        for content_type, media in body.get("content", {}).items():
            for name, example in _examples(media).items():
                if name.startswith("refused"):
                    continue  # the request of a refusal is wrong on purpose
                for problem in problems(document, media["schema"], example["value"], "request"):
                    wrong.append(f"{operation.label} request {content_type} {name}: {problem}")
        for status, shown in _response_examples(operation).items():
            media_of = operation.spec["responses"][status]["content"]
            for content_type, example in shown:
                schema = media_of[content_type]["schema"]
                for problem in problems(document, schema, example["value"], "response"):
                    wrong.append(f"{operation.label} {status} {content_type}: {problem}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_the_examples_file_is_what_the_scenario_records():
    """The scenario, run again in an empty database, gives the stored examples.

    Compared as data: PostgreSQL gives the keys of JSON columns in its own order.
    """
    from tournaments.api_examples import examples_path, record

    fresh = record("v1")
    stored = json.loads(examples_path("v1").read_text(encoding="utf-8"))
    changed = sorted(
        key for key in set(fresh["operations"]) | set(stored["operations"])
        if fresh["operations"].get(key) != stored["operations"].get(key)
    )
    assert not changed, (
        f"examples changed for {changed}: run `python manage.py api_examples --write`"
    )
    assert fresh == stored
