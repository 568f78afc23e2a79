"""A JSON field of a request body: ``null`` where none may be stored is 400 naming the field (a
rating list's ``parameters`` as multipart ``null`` was a NOT NULL violation, a 500; a form body
is now 415, JSON bodies only), and a body nested past ``JSON_MAX_DEPTH`` is 400, not a
``RecursionError``. Every writable JSON field of a request body is checked (``JSONInputField``:
JSON text too, as the roster upload's multipart sends it)."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from rest_framework import serializers
from rest_framework.test import APIClient

from config.api_schema import AutoSchema
from scoring.core.json_input import JSONInputField
from scoring.models import RatingList, Season
from tests.api.openapi import served_schema
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.parametrize("form", ["multipart", "urlencoded"])
def test_a_rating_list_sent_as_a_form_is_refused_naming_the_media_type(organizer, form):
    """JSON bodies only (multipart is the roster upload's): a form with ``parameters`` as the
    text ``null`` (once a NOT NULL violation, a 500) is 415 naming what was sent; nothing
    is created."""
    body = {"name": "Клубный", "slug": "club", "system": "elo", "subject": "players",
            "parameters": "null"}
    client = _client(organizer)
    if form == "multipart":
        response = client.post("/api/v1/rating-lists/", body, format="multipart")
    else:
        response = client.post("/api/v1/rating-lists/", urlencode(body),
                               content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415
    assert "Unsupported media type" in response.json()["detail"]
    assert not RatingList.objects.exists()


def test_json_null_is_refused_naming_the_field_and_an_object_taken(organizer):
    client = _client(organizer)
    body = {"name": "Клубный", "slug": "club", "system": "elo", "subject": "players"}
    response = client.post("/api/v1/rating-lists/", {**body, "parameters": None}, format="json")
    assert response.status_code == 400
    assert response.json() == {"parameters": ["This field may not be null."]}
    response = client.post("/api/v1/rating-lists/", {**body, "parameters": {"k": 24}},
                           format="json")
    assert response.status_code == 201, response.json()
    assert RatingList.objects.get().parameters == {"k": 24}


def test_a_seasons_null_or_deep_rule_is_refused_naming_it(organizer):
    event = TournamentFactory(organizer=organizer)
    client = _client(organizer)
    body = {"name": "Зимний сезон", "slug": "zima", "scoring": "place_points",
            "place_points": [10, 6], "tie_breaks": ["wins"], "tournaments": [event.pk]}
    response = client.post("/api/v1/seasons/", {**body, "tie_breaks": None}, format="json")
    assert response.status_code == 400
    assert response.json() == {"tie_breaks": ["This field may not be null."]}
    deep: object = []
    for _level in range(40):
        deep = [deep]
    response = client.post("/api/v1/seasons/", {**body, "place_points": deep}, format="json")
    assert response.status_code == 400
    assert response.json() == {"body": ["The JSON nests deeper than 32 levels."]}
    assert not Season.objects.exists()
    response = client.post("/api/v1/seasons/", body, format="json")
    assert response.status_code == 201, response.json()
    assert Season.objects.get().place_points == [10, 6]


def test_every_writable_json_field_of_a_request_body_is_checked(monkeypatch):
    """The request serializers of every operation, as the schema generation finds them."""
    found: list[serializers.BaseSerializer] = []
    original = AutoSchema.get_request_serializer

    def recording(self):
        serializer = original(self)
        if serializer is not None:
            found.append(serializer)
        return serializer

    monkeypatch.setattr(AutoSchema, "get_request_serializer", recording)
    served_schema()
    unchecked, json_fields = set(), 0
    for serializer in found:
        instance = serializer() if isinstance(serializer, type) else serializer
        if not isinstance(instance, serializers.Serializer):
            continue
        for name, field in instance.fields.items():
            if isinstance(field, serializers.JSONField) and not field.read_only:
                json_fields += 1
                if not isinstance(field, JSONInputField):
                    unchecked.add(f"{type(instance).__name__}.{name}")
    assert json_fields and not unchecked
