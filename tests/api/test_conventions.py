"""The v1 conventions (issue 18), checked on every operation of the generated schema and on
real answers: paths, names, the side/seat vocabulary, pagination and the error shapes.

Schema part: every path under /api/v1/; snake_case body properties; none of the old names;
a property whose enum is the sides is ``side``, one whose enum is seats is ``seat`` or a
seat's part in the deal (``led``, ``fish_by``); a list (GET on a collection) is paged
(count, next, previous, results) except the whole lists beneath a party; every operation
documents its errors as typed bodies: 400/403/404, 415 where it takes JSON, every unsafe one
409, 422 and 503 too. Answers
part: 400 {field: [message]} naming the field sent, 403 and 404 {detail: message}, a page's
keys.
"""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from tests.api.openapi import (
    UNSAFE,
    bodies,
    enum_values,
    operations,
    properties,
    resolve,
    served_schema,
)

OLD_NAMES = {"winner", "went_out", "absent_side", "players_a", "players_b", "by_side",
             "points_a", "points_b"}
"""Names of the vocabulary before v1: whom a record concerns is ``side`` and ``seat``."""
SIDES = {"a", "b"}
SEATS = {"a1", "b1", "a2", "b2"}
SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
PAGE_KEYS = {"count", "next", "previous", "results"}
WHOLE_LISTS = re.compile(
    r"^/api/v1/(parties/\{[^}]+\}/(deals|penalties|rulings|events)"
    r"|referee/tournaments/\{[^}]+\}/referees)/$"
)
"""The documented whole lists: a party's own records and a tournament's referees, never
paged."""


@pytest.fixture(scope="module")
def document():
    """The served v1 schema."""
    return served_schema("v1")


def _named(document) -> list[tuple[str, str, str, dict]]:
    """(operation id, schema, name, property) of every property of every body."""
    found = []
    for operation in operations(document):
        for _body, schema in bodies(operation):
            for where, name, prop in properties(document, schema):
                found.append((operation.id, where, name, prop))
    return found


def _report(found: dict[str, set[str]]) -> str:
    """One line a finding, with the operations it is found in."""
    return "\n".join(
        f"{finding} — in {len(ids)} operation(s): {', '.join(sorted(ids)[:6])}"
        + (" …" if len(ids) > 6 else "")
        for finding, ids in sorted(found.items())
    )


def _findings(document, test) -> dict[str, set[str]]:
    """Finding → operation ids, for each property that ``test(name, prop)`` finds wrong."""
    found: dict[str, set[str]] = {}
    for operation_id, where, name, prop in _named(document):
        problem = test(name, prop)
        if problem:
            found.setdefault(f"{where}.{name}: {problem}", set()).add(operation_id)
    return found


def test_every_path_is_under_v1(document):
    """Every path of the v1 schema starts with /api/v1/."""
    assert document["paths"]
    assert [path for path in document["paths"] if not path.startswith("/api/v1/")] == []


def test_body_properties_are_snake_case(document):
    """Request and response properties are snake_case."""
    wrong = _findings(document, lambda name, _p: "" if SNAKE.match(name) else "not snake_case")
    assert not wrong, _report(wrong)


def _is_who(prop: dict) -> bool:
    """Whether a property is a ``{"side", "seat"}`` object (a party's winner, the Goat)."""
    return prop.get("type") == "object" and set(prop.get("properties") or {}) == {"side", "seat"}


def test_no_property_has_a_name_of_the_old_vocabulary(document):
    """No winner, went_out, absent_side, players_a/b, by_side, points_a/b as a side or seat.

    A party's ``winner`` (and ``loser``) is kept as a name, but as ``{"side", "seat"}``."""
    wrong = _findings(document, lambda name, prop: "a name of before v1"
                      if name in OLD_NAMES and not _is_who(prop) else "")
    assert not wrong, _report(wrong)


def test_sides_are_named_side_and_seats_seat_or_led(document):
    """An enum of the sides is `side`; an enum of seats is `seat`, `led` or `fish_by`."""
    def test(name: str, prop: dict) -> str:
        """Why the property is misnamed for its enum (blank when it is not)."""
        values = enum_values(document, prop)
        if values == SIDES and name != "side":
            return "its enum is the sides: name it `side`"
        if values and values <= SEATS and name not in ("seat", "led", "fish_by"):
            return "its enum is seats: name it `seat` (or `led`, `fish_by`)"
        return ""

    wrong = _findings(document, test)
    assert not wrong, _report(wrong)


def _is_list(document, operation) -> bool:
    """A GET on a collection: drf-spectacular's list operation, or an array answer."""
    if operation.method != "get":
        return False
    media = operation.spec["responses"].get("200", {}).get("content", {})
    schema = resolve(document, (media.get("application/json") or {}).get("schema"))
    return operation.id.endswith("_list") or (schema or {}).get("type") == "array"


def test_lists_are_paged_except_a_partys_whole_lists(document):
    """A GET on a collection is paged, but for a party's own records."""
    lists = [op for op in operations(document) if _is_list(document, op)]
    assert len(lists) >= 10
    wrong: dict[str, set[str]] = {}
    for operation in lists:
        schema = operation.spec["responses"]["200"]["content"]["application/json"]["schema"]
        keys = set((resolve(document, schema) or {}).get("properties", {}))
        paged = PAGE_KEYS <= keys
        if WHOLE_LISTS.match(operation.path):
            if paged:
                wrong[f"{operation.label}: a party's whole list, but paged"] = {operation.id}
        elif not paged:
            wrong[f"{operation.label}: a list without count/next/previous/results"] = {
                operation.id}
    assert not wrong, _report(wrong)


TYPED_ERRORS = {
    "400": {"ErrorDetail", "FieldErrors"}, "403": {"ErrorDetail"}, "404": {"ErrorDetail"},
    "409": {"ErrorDetail", "FieldErrors"}, "415": {"ErrorDetail"}, "422": {"ErrorDetail"},
    "503": {"FieldErrors"},
}
"""The error bodies of docs/api.md's table, by status: the components each may be."""


def _components(schema) -> set[str]:
    """The components a body schema names: one ``$ref``, or each of a ``oneOf``."""
    refs = [schema] if "$ref" in (schema or {}) else (schema or {}).get("oneOf", [])
    return {ref.get("$ref", "?").rsplit("/", 1)[-1] for ref in refs}


def test_every_operation_documents_its_errors_as_typed_bodies(document):
    """400/403/404 everywhere, 415 where a JSON body is taken, 409/422/503 on unsafe methods,
    each a component of the error table (``ErrorDetail``, ``FieldErrors``), never a free-form
    object; 429 and 503 say how long to wait (Retry-After).

    The token login is the one unsafe operation that keeps no answer for an Idempotency-Key
    (docs/api.md): nothing to conflict with."""
    wrong: dict[str, set[str]] = {}
    for operation in operations(document):
        keyed = operation.method in UNSAFE and operation.id != "auth_token_create"
        takes_json = "application/json" in (
            operation.spec.get("requestBody") or {}).get("content", {})
        codes = ["400", "403", "404"] + (["409", "422", "503"] if keyed else []) + (
            ["415"] if takes_json else [])
        for code in codes:
            response = operation.spec["responses"].get(code)
            if response is None:
                wrong.setdefault(f"{code} not documented", set()).add(operation.id)
                continue
            content = response.get("content") or {}
            named = _components((content.get("application/json") or {}).get("schema"))
            own = operation.id == "tournaments_import_roster" and code == "400"  # its report
            if not own and not named <= TYPED_ERRORS[code] or not named:
                wrong.setdefault(f"{code} documented as {sorted(named)}", set()).add(
                    operation.id)
        for code in ("429", "503"):
            response = operation.spec["responses"].get(code)
            if response is not None and "Retry-After" not in response.get("headers", {}):
                wrong.setdefault(f"{code} without Retry-After", set()).add(operation.id)
    assert not wrong, _report(wrong)
    errors = document["components"]["schemas"]
    assert errors["ErrorDetail"]["required"] == ["detail"]
    assert errors["FieldErrors"]["additionalProperties"]["oneOf"][0] == {
        "type": "array", "items": {"type": "string"}}


# -- real answers -------------------------------------------------------------------------------


def _client(user=None) -> APIClient:
    """An API client, logged in as ``user`` if given."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _field_errors(response) -> dict:
    """A 400's body, checked to be {field: [message, …]}."""
    assert response.status_code == 400, (response.status_code, response.content[:300])
    body = response.json()
    assert isinstance(body, dict) and body
    for field, messages in body.items():
        assert isinstance(messages, list) and messages, (field, messages)
        assert all(isinstance(m, str) and m for m in messages), (field, messages)
    return body


@pytest.mark.django_db
def test_a_refused_input_answers_400_naming_the_field(field, organizer):
    """A wrong field answers 400 {field: [message]} naming it."""
    client = _client(organizer)
    body = _field_errors(client.post("/api/v1/tournaments/",
                                     {"name": "Кубок", "slug": "not a slug!"}, format="json"))
    assert list(body) == ["slug"]
    body = _field_errors(client.patch(f"/api/v1/tournaments/{field.tournament.pk}/regulations/",
                                      {"target": 0}, format="json"))
    assert list(body) == ["target"]


@pytest.mark.django_db
def test_a_party_action_names_the_field_sent(field, referee_user):
    """An unknown (old) field and a wrong seat are named as sent."""
    client = _client(referee_user)
    party = field.party.pk
    body = _field_errors(client.post(f"/api/v1/parties/{party}/warning/",
                                     {"winner": "a", "category": "signs"}, format="json"))
    assert list(body) == ["winner"]  # an old name is refused, not dropped
    body = _field_errors(client.post(f"/api/v1/parties/{party}/deal/",
                                     {"outcome": "domino", "seat": "c3"}, format="json"))
    assert list(body) == ["seat"]


@pytest.mark.django_db
def test_a_refused_no_show_names_the_side_sent(field, referee_user):
    """A no-show asked before the wait is over is refused on ``side``, the field sent."""
    response = _client(referee_user).post(f"/api/v1/parties/{field.party.pk}/no-show/",
                                          {"side": "b"}, format="json")
    body = _field_errors(response)
    assert set(body) <= {"side", "party"}, body


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["anonymous", "stranger"])
def test_forbidden_answers_403_with_a_detail(field, make_user, who):
    """Anonymous or not allowed: 403 {detail: message}."""
    client = _client(None if who == "anonymous" else make_user("stranger"))
    for response in (
        client.patch(f"/api/v1/tournaments/{field.tournament.pk}/", {"city": "Тверь"},
                     format="json"),
        client.post(f"/api/v1/parties/{field.party.pk}/pause/", {"reason": "x"}, format="json"),
    ):
        assert response.status_code == 403, response.content[:300]
        body = response.json()
        assert list(body) == ["detail"] and isinstance(body["detail"], str) and body["detail"]


@pytest.mark.django_db
@pytest.mark.parametrize("path", [
    "/api/v1/tournaments/999999/",
    "/api/v1/parties/999999/",
    "/api/v1/parties/999999/deals/",
    "/api/v1/deals/999999/",
    "/api/v1/protocols/no-such-protocol/",
    "/api/v1/referee/tournaments/999999/overview/",
    "/api/v1/tournaments/?page=99",
    "/api/v1/parties/abc/",
    "/api/v1/rounds/1.5/",
    "/api/v1/no-such-resource/",
])
def test_missing_answers_404_with_a_detail(field, organizer, path):
    """No such record, page or path: 404 {detail: message} as JSON."""
    response = _client(organizer).get(path)
    assert response.status_code == 404, response.content[:300]
    assert response["Content-Type"] == "application/json", response["Content-Type"]
    body = response.json()
    assert list(body) == ["detail"] and isinstance(body["detail"], str) and body["detail"]


@pytest.mark.django_db
def test_a_page_has_count_next_previous_results(field, organizer):
    """A real page has exactly count, next, previous and results."""
    body = _client(organizer).get("/api/v1/parties/").json()
    assert set(body) == PAGE_KEYS and body["count"] == len(body["results"]) >= 1
