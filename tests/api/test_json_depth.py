"""A JSON body nested deeper than ``JSON_MAX_DEPTH`` (32) is 400 naming the limit on every JSON
endpoint, before it is parsed: a body nested some 1,000 levels was a ``RecursionError``, a 500,
anonymously on the token login and on every write. What the limit allows is still taken."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from scoring.core.json_input import text_depth
from scoring.models import Deal, Tournament
from tests.api.openapi import operations, served_schema
from tests.factories import TournamentFactory

REFUSAL = {"body": ["The JSON nests deeper than 32 levels."]}


def nested(depth: int) -> str:
    """A JSON object whose ``name`` holds lists nested so that the whole is ``depth`` deep."""
    return '{"name": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"


def _post(client: APIClient, path: str, body: str, method: str = "post"):
    return getattr(client, method)(path, body, content_type="application/json")


@pytest.mark.parametrize("depth", [33, 1_000, 100_000])
@pytest.mark.django_db
def test_a_deep_body_is_refused_naming_the_limit_even_anonymously(depth):
    response = _post(APIClient(), "/api/v1/auth/token/", nested(depth))
    assert response.status_code == 400
    assert response.json() == REFUSAL


@pytest.mark.django_db
def test_a_deep_body_writes_nothing_on_a_write_or_a_party_action(field, organizer,
                                                                  referee_user):
    organizers, referees = APIClient(), APIClient()
    organizers.force_authenticate(organizer)
    referees.force_authenticate(referee_user)
    tournaments = Tournament.objects.count()
    assert _post(organizers, "/api/v1/tournaments/", nested(5_000)).json() == REFUSAL
    assert Tournament.objects.count() == tournaments
    deals = Deal.objects.count()
    answer = _post(referees, f"/api/v1/parties/{field.party.pk}/deal/", nested(33))
    assert (answer.status_code, answer.json()) == (400, REFUSAL)
    assert Deal.objects.count() == deals


@pytest.mark.django_db
def test_a_body_at_the_limit_is_parsed_and_judged_by_its_fields(organizer):
    client = APIClient()
    client.force_authenticate(organizer)
    response = _post(client, "/api/v1/tournaments/", nested(32))
    assert response.status_code == 400
    assert "body" not in response.json() and "name" in response.json()


@pytest.mark.django_db
def test_the_limit_is_a_setting(organizer, settings):
    settings.JSON_MAX_DEPTH = 2
    client = APIClient()
    client.force_authenticate(organizer)
    answer = _post(client, "/api/v1/tournaments/", '{"name": "Cup", "x": {"y": []}}')
    assert answer.json() == {"body": ["The JSON nests deeper than 2 levels."]}


@pytest.mark.django_db
def test_no_operation_answers_a_deep_body_with_a_server_error(field, organizer):
    """Every operation that takes a JSON body, as the organizer, on records that exist."""
    ids = {"id": field.tournament.pk, "party_pk": field.party.pk, "slug": "x",
           "public_id": "00000000-0000-0000-0000-000000000000"}
    client = APIClient()
    client.force_authenticate(organizer)
    answers = {}
    for operation in operations(served_schema()):
        content = (operation.spec.get("requestBody") or {}).get("content") or {}
        if "application/json" not in content:
            continue
        path = operation.path
        for name, value in ids.items():
            path = path.replace("{" + name + "}", str(value))
        answers[operation.id] = _post(client, path, nested(2_000), operation.method)
    assert len(answers) > 40
    assert not {key: a.status_code for key, a in answers.items() if a.status_code >= 500}
    refused = [key for key, answer in answers.items() if answer.status_code == 400]
    assert refused and all(answers[key].json() == REFUSAL for key in refused)


@pytest.mark.parametrize(("text", "depth"), [
    ("1", 0), ("{}", 1), ('{"a": [1, {"b": []}]}', 4), ('["[[[{{{"]', 1),
    ('["a\\"[[", []]', 2), ('{"a": "\\\\"}', 1), ('"unclosed [[[', 0), ("[[], [[[]]]]", 4),
])
def test_the_depth_is_read_from_the_text_outside_strings(text, depth):
    assert text_depth(text, 32) == depth
    if depth:
        assert text_depth(text, 32) == _parsed_depth(json.loads(text))


def _parsed_depth(value) -> int:
    """The nesting of a parsed value, the plain way."""
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return 1 + max((_parsed_depth(item) for item in value), default=0)
    return 0


def test_the_count_stops_past_the_limit():
    assert text_depth("[" * 10_000_000, 32) == 33


@pytest.mark.django_db
def test_a_nul_character_anywhere_in_a_json_body_is_a_400_naming_its_field(organizer):
    """PostgreSQL stores a NUL character in no text or jsonb column (a referee invited with the
    username "\\u0000" was a 500 there): refused before any view looks at it, by field."""
    client = APIClient()
    client.force_authenticate(organizer)
    tournament = TournamentFactory(organizer=organizer)
    answer = client.post(f"/api/v1/referee/tournaments/{tournament.pk}/referees/",
                         {"username": "\x00", "role": "referee", "tables": []}, format="json")
    assert answer.status_code == 400, answer.content
    assert list(answer.json()) == ["username"]
    nested = client.post("/api/v1/rating-lists/", {"name": "Клубный", "slug": "club",
                                                   "parameters": {"note": ["a\x00b"]}},
                         format="json")
    assert nested.status_code == 400 and list(nested.json()) == ["parameters"]
