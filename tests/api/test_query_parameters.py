"""Query parameters are what the schema says, never silently ignored (issue 34).

Every operation takes exactly the query parameters its schema documents (``format`` besides):
the check (``scoring.access.query``) and the schema agree on each one; an unknown parameter,
or a value outside a documented enum, is a 400 naming it and listing what is taken. The
parties filter by tournament (its id, as every ``tournament`` filter).
"""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.plumbing import build_mock_request
from rest_framework.test import APIClient

from scoring.access.idempotency import IdempotentMixin
from scoring.access.query import KnownQueryMixin, known_parameters
from tests.api.openapi import operations, served_schema
from tests.factories import PartyFactory, TournamentFactory


def _endpoints():
    """(path, method, view) of every operation, the views made as the schema makes them."""
    generator = SchemaGenerator(api_version="v1")
    inspector = generator.endpoint_inspector_cls(generator.patterns, generator.urlconf)
    for path, _regex, method, callback in inspector.get_api_endpoints():
        view = generator.create_view(callback, method)
        path = generator.coerce_path(path, method, view)
        view.request = build_mock_request(method, path, view, None)
        yield path, method, view


@pytest.mark.django_db
def test_the_check_takes_what_the_schema_documents():
    """For each operation, the parameters the check takes are the schema's query parameters."""
    document = served_schema("v1")
    documented = {
        (operation.path, operation.method.upper()): {
            p["name"] for p in operation.spec.get("parameters", []) if p["in"] == "query"}
        for operation in operations(document)
    }
    differ, unchecked, compared = [], [], set()
    for path, method, view in _endpoints():
        if (path, method) not in documented:
            continue  # the schema's own views (schema, docs) are not in it
        compared.add((path, method))
        if not isinstance(view, KnownQueryMixin):
            unchecked.append(f"{method} {path} ({type(view).__name__})")
            continue
        taken = set(known_parameters(view, method)) - {"format"}
        if taken != documented[path, method] - {"format"}:
            differ.append(f"{method} {path}: takes {sorted(taken)}, documents "
                          f"{sorted(documented[path, method])}")
    assert compared == set(documented)
    assert not unchecked, "views without KnownQueryMixin:\n" + "\n".join(unchecked)
    assert not differ, "\n".join(differ)


@pytest.mark.django_db
def test_every_write_is_documented_with_the_idempotency_key():
    """The schema's Idempotency-Key on every write, honoured by each but the token login."""
    document = served_schema("v1")
    missing = [operation.label for operation in operations(document)
               if operation.method != "get" and not any(
                   p["in"] == "header" and p["name"] == "Idempotency-Key"
                   for p in operation.spec.get("parameters", []))]
    assert missing == []
    writes = {type(view).__name__ for _path, method, view in _endpoints()
              if method != "GET" and not isinstance(view, IdempotentMixin)}
    assert writes == {"ObtainToken"}


@pytest.fixture
def api(organizer) -> APIClient:
    """The organizer's API client."""
    client = APIClient()
    client.force_authenticate(organizer)
    return client


@pytest.mark.django_db
def test_an_unknown_parameter_is_a_400_naming_it(api, tournament, party):
    """On a list, a record, an action and the root: 400 naming each unknown parameter."""
    cases = [
        ("get", "/api/v1/players/", {"page_size": 2, "unknown": 1}, ["page_size", "unknown"]),
        ("get", f"/api/v1/parties/{party.pk}/", {"page": 1}, ["page"]),
        ("get", f"/api/v1/tournaments/{tournament.pk}/standings/", {"round": 1}, ["round"]),
        ("post", f"/api/v1/parties/{party.pk}/pause/?dry_run=1", {"reason": "x"}, ["dry_run"]),
        ("get", "/api/v1/", {"tournament": tournament.pk}, ["tournament"]),
    ]
    for method, url, data, names in cases:
        response = getattr(api, method)(url, data) if method == "get" else api.post(url, data)
        assert response.status_code == 400, (url, response.status_code, response.content[:300])
        body = response.json()
        assert sorted(body) == names, (url, body)
        message = body[names[0]][0]
        assert message.startswith("Unknown query parameter; this endpoint takes: ")
    listed = api.get("/api/v1/players/", {"page_size": 2}).json()["page_size"][0]
    assert listed.endswith("takes: format, page, tournament.")
    assert party.version == type(party).objects.get(pk=party.pk).version  # not paused


@pytest.mark.django_db
def test_documented_parameters_are_taken(api, tournament, party):
    """``format``, a page, the filters and an action's own parameters answer 200."""
    for url, data in [
        ("/api/v1/parties/", {"format": "json", "page": 1, "round": party.round_id,
                              "status": "in_progress", "table": party.table_id,
                              "tournament": tournament.pk}),
        (f"/api/v1/parties/{party.pk}/", {"format": "json"}),
        (f"/api/v1/tournaments/{tournament.pk}/standings/", {"after_round": 1, "by": "player"}),
        ("/api/v1/profiles/", {"search": "Петров"}),
        (f"/api/v1/referee/tournaments/{tournament.pk}/overview/", {"round_number": 1}),
    ]:
        response = api.get(url, data)
        assert response.status_code == 200, (url, response.content[:300])


@pytest.mark.django_db
def test_standings_by_a_team_is_refused_naming_by_with_its_values(api, tournament):
    """``?by=team`` is no ranking the API knows: 400 naming ``by`` with pair and player."""
    response = api.get(f"/api/v1/tournaments/{tournament.pk}/standings/", {"by": "team"})
    assert response.status_code == 400
    assert response.json() == {"by": ["“team” is not one of: pair, player."]}
    assert api.get(f"/api/v1/tournaments/{tournament.pk}/standings/",
                   {"by": "pair"}).json()["per_player"] is False


@pytest.mark.django_db
def test_parties_are_filtered_by_their_tournament(api, tournament, party, organizer):
    """``/parties/?tournament=<id>``: that tournament's parties only; not an id: 400."""
    other = TournamentFactory(name="Другой", slug="other-cup", organizer=organizer)
    elsewhere = PartyFactory(round__tournament=other)
    everything = {row["id"] for row in api.get("/api/v1/parties/").json()["results"]}
    assert {party.pk, elsewhere.pk} <= everything
    ours = api.get("/api/v1/parties/", {"tournament": tournament.pk}).json()["results"]
    assert {row["id"] for row in ours} == {party.pk}
    assert {row["tournament"] for row in ours} == {tournament.pk}
    theirs = api.get("/api/v1/parties/", {"tournament": other.pk}).json()["results"]
    assert [row["id"] for row in theirs] == [elsewhere.pk]
    refused = api.get("/api/v1/parties/", {"tournament": tournament.slug})
    assert refused.status_code == 400 and list(refused.json()) == ["tournament"]


@pytest.mark.django_db
def test_the_tournaments_format_filter_is_not_the_answer_format(api, tournament):
    """``/tournaments/?format=pairs`` filters by the tournament's format (it was a 404: DRF took
    it for an answer format); ``?format=json`` there is a 400 naming it."""
    pairs = api.get("/api/v1/tournaments/", {"format": "pairs"})
    assert pairs.status_code == 200 and pairs["Content-Type"] == "application/json"
    assert [row["id"] for row in pairs.json()["results"]] == [tournament.pk]
    assert api.get("/api/v1/tournaments/", {"format": "individual"}).json()["count"] == 0
    refused = api.get("/api/v1/tournaments/", {"format": "json"})
    assert refused.status_code == 400 and list(refused.json()) == ["format"]
    assert api.get(f"/api/v1/tournaments/{tournament.pk}/", {"format": "json"}).status_code == 200
