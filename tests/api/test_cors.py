"""CORS for the read API: a page of a listed origin reads /api/ from the browser, nothing else."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

DASHBOARD = "https://dash.example.org"


@pytest.fixture
def cors(settings):
    settings.CORS_ALLOWED_ORIGINS = [DASHBOARD]
    return settings


def test_a_listed_origin_reads_the_api_and_its_errors(cors, tournament):
    api = APIClient()
    answer = api.get("/api/v1/tournaments/", HTTP_ORIGIN=DASHBOARD)
    assert answer.status_code == 200
    assert answer["Access-Control-Allow-Origin"] == DASHBOARD
    assert "Origin" in answer["Vary"] and "ETag" in answer["Access-Control-Expose-Headers"]
    assert "Access-Control-Allow-Credentials" not in answer  # never with the visitor's cookies
    missing = api.get("/api/v1/tournaments/999999/", HTTP_ORIGIN=DASHBOARD)
    assert missing.status_code == 404 and missing["Access-Control-Allow-Origin"] == DASHBOARD
    assert api.head("/api/v1/tournaments/", HTTP_ORIGIN=DASHBOARD)[
        "Access-Control-Allow-Origin"] == DASHBOARD


def test_the_preflight_of_a_read_with_a_token_is_allowed(cors):
    answer = APIClient().options(
        "/api/v1/tournaments/", HTTP_ORIGIN=DASHBOARD,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization")
    assert answer.status_code == 200
    assert answer["Access-Control-Allow-Origin"] == DASHBOARD
    assert answer["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS"
    assert "Authorization" in answer["Access-Control-Allow-Headers"]
    assert int(answer["Access-Control-Max-Age"]) > 0


def test_writes_other_origins_and_pages_get_no_cors_answer(cors, organizer, tournament):
    api = APIClient()
    preflight = api.options("/api/v1/tournaments/", HTTP_ORIGIN=DASHBOARD,
                            HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST")
    assert "Access-Control-Allow-Origin" not in preflight
    api.force_authenticate(organizer)
    write = api.post("/api/v1/tournaments/", {"name": "Кубок", "rule_set": "sport"},
                     format="json", HTTP_ORIGIN=DASHBOARD)
    assert write.status_code == 201 and "Access-Control-Allow-Origin" not in write
    other = api.get("/api/v1/tournaments/", HTTP_ORIGIN="https://evil.example.com")
    assert other.status_code == 200 and "Access-Control-Allow-Origin" not in other
    page = api.get(tournament.get_absolute_url(), HTTP_ORIGIN=DASHBOARD)
    assert page.status_code == 200 and "Access-Control-Allow-Origin" not in page


def test_without_the_setting_no_origin_reads(settings):
    settings.CORS_ALLOWED_ORIGINS = []
    answer = APIClient().get("/api/v1/tournaments/", HTTP_ORIGIN=DASHBOARD)
    assert answer.status_code == 200 and "Access-Control-Allow-Origin" not in answer


def test_any_origin_with_a_star(settings):
    settings.CORS_ALLOWED_ORIGINS = ["*"]
    answer = APIClient().get("/api/v1/tournaments/", HTTP_ORIGIN="https://anywhere.example")
    assert answer["Access-Control-Allow-Origin"] == "https://anywhere.example"
