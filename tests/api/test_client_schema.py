"""The schema as a generated client reads it (issue 34): JSON request bodies (multipart for the
roster file only), request components apart from response ones (a request never asks for what
the server sets), optional request properties without a ``default`` a generator would make
required, PDFs a generic binary where a client asks so, a party's ``loser`` filled, and every
endpoint of the schema in docs/api.md. The generators themselves run in
``test_generated_client.py`` and ``test_typescript_client.py``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import Party
from tests.api.openapi import operations, properties, served_schema

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
UPLOAD = "tournaments_import_roster"
"""The one operation that takes a file: multipart."""


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    """The served v1 schema."""
    return served_schema("v1")


def _request_components(document: dict[str, Any]) -> dict[str, str]:
    """Component name → an operation whose request body uses it (nested ones too)."""
    found: dict[str, str] = {}
    for operation in operations(document):
        for media in (operation.spec.get("requestBody") or {}).get("content", {}).values():
            schema = media.get("schema") or {}
            if "$ref" in schema:
                found.setdefault(schema["$ref"].rsplit("/", 1)[-1], operation.id)
            for where, _name, _prop in properties(document, schema):
                if where != "(inline)":
                    found.setdefault(where, operation.id)
    return found


def test_request_bodies_are_json_and_only_the_roster_file_multipart(document):
    """One media type a body: ``application/json``, the roster upload ``multipart/form-data``."""
    kinds = {operation.id: sorted((operation.spec.get("requestBody") or {}).get("content", {}))
             for operation in operations(document) if "requestBody" in operation.spec}
    assert kinds.pop(UPLOAD) == ["multipart/form-data"]
    assert {tuple(kind) for kind in kinds.values()} == {("application/json",)}
    assert len(kinds) > 60


def test_request_components_ask_for_nothing_the_server_sets(document):
    """Request and response components are apart: no request component holds a read-only
    property (``id``, links, totals), a response component holds no write-only one, and an
    optional request property says its default in words, not as a ``default``."""
    schemas = document["components"]["schemas"]
    requests = _request_components(document)
    assert {"TournamentRequest", "PlayerRequest", "DealInputRequest",
            "AuthTokenRequest"} <= set(requests)
    wrong = []
    for name, component in schemas.items():
        for prop_name, prop in (component.get("properties") or {}).items():
            if name in requests and prop.get("readOnly"):
                wrong.append(f"{name}.{prop_name}: read-only in a request ({requests[name]})")
            if name in requests and "default" in prop and prop_name not in component.get(
                    "required", []):
                wrong.append(f"{name}.{prop_name}: a default ({requests[name]})")
            if name not in requests and prop.get("writeOnly"):
                wrong.append(f"{name}.{prop_name}: write-only in a response")
    assert not wrong, "\n".join(wrong)
    assert "id" not in schemas["TournamentRequest"]["properties"]
    assert {"id", "slug", "status"} <= set(schemas["Tournament"]["required"])
    assert schemas["AuthToken"]["required"] == ["token"]
    assert "password" not in schemas["AuthToken"]["properties"]


@pytest.mark.django_db
def test_a_form_body_is_refused_where_json_is_taken(organizer):
    """A form-encoded body is 415 {detail}; the same input as JSON is taken. The token login
    still takes a form, as before v1."""
    client = APIClient()
    client.force_authenticate(organizer)
    form = client.post("/api/v1/tournaments/", {"name": "Форма"}, format="multipart")
    assert form.status_code == 415 and list(form.json()) == ["detail"]
    urlencoded = client.generic("POST", "/api/v1/tournaments/", "name=Form",
                                content_type="application/x-www-form-urlencoded")
    assert urlencoded.status_code == 415
    assert client.post("/api/v1/tournaments/", {"name": "JSON"}, format="json").status_code == 201
    anonymous = APIClient()
    for kind in ("json", "multipart"):
        login = anonymous.post("/api/v1/auth/token/", {"username": organizer.username,
                                                       "password": "pw"}, format=kind)
        assert login.status_code == 200 and list(login.json()) == ["token"], kind


@pytest.mark.django_db
def test_a_pdf_is_a_generic_binary_for_a_client_that_asks_so(field, organizer):
    """The PDF endpoints document ``application/pdf`` and ``application/octet-stream``: the
    same file, labelled as the client's Accept prefers."""
    client = APIClient()
    client.force_authenticate(organizer)
    url = f"/api/v1/party-protocols/{field.party.pk}/pdf/"
    for accept, label in [("application/octet-stream", "application/octet-stream"),
                          ("application/pdf", "application/pdf"),
                          ("application/pdf;q=0.5, application/octet-stream", "application/"
                           "octet-stream"),
                          ("*/*", "application/pdf"), ("", "application/pdf")]:
        response = client.get(url, HTTP_ACCEPT=accept)
        assert response.status_code == 200, (accept, response.content[:200])
        assert (response["Content-Type"], response.content[:5]) == (label, b"%PDF-"), accept


def test_pdf_downloads_document_both_labels(document):
    """Each PDF download declares the two media types of one binary body."""
    pdfs = [operation for operation in operations(document)
            if operation.path.endswith("/pdf/")]
    assert len(pdfs) == 4  # party protocols, protocols, print jobs, team match sheets
    for operation in pdfs:
        content = operation.spec["responses"]["200"]["content"]
        assert sorted(content) == ["application/octet-stream", "application/pdf"]


@pytest.mark.django_db
def test_a_finished_partys_loser_is_the_other_side(field, organizer, referee_user):
    """Sport: the loser is the side that did not win, in the list, the party's state and the
    webhooks' party; blank while the party is played."""
    from scoring.party.deals import record_deal
    from scoring.webhooks.services import party_ref

    client = APIClient()
    client.force_authenticate(organizer)
    party = field.party
    row = client.get("/api/v1/parties/", {"round": party.round_id}).json()["results"][0]
    assert row["loser"] == {"side": "", "seat": ""}
    while party.status != Party.Status.FINISHED:
        record_deal(party.pk, actor=referee_user, outcome="domino", winner="b", went_out="b1",
                    points={"a": 0, "b": 60})
        party.refresh_from_db()
    assert (party.winner, party.loser, party.lost_by) == ("b", "", "a")
    row = client.get("/api/v1/parties/", {"round": party.round_id}).json()["results"][0]
    state = client.get(f"/api/v1/parties/{party.pk}/").json()
    for shown in (row, state, party_ref(party)):
        assert shown["winner"] == {"side": "b", "seat": ""}
        assert shown["loser"] == {"side": "a", "seat": ""}


def test_every_endpoint_is_in_the_docs(document):
    """docs/api.md names every path of the schema: each collection and each action (``undo/``,
    ``pause-reason/``…) appears as `` `name/` `` in its text."""
    text = DOC.read_text(encoding="utf-8")
    named = set(re.findall(r"`([a-z0-9{}_/-]+/)`", text))
    words = {part for name in named for part in re.split(r"[/{}]+", name) if part}
    missing = set()
    for path in document["paths"]:
        for part in re.sub(r"^/api/v1/", "", path).split("/"):
            if part and not part.startswith("{") and part not in words:
                missing.add(f"{part}/ ({path})")
    assert not missing, sorted(missing)
