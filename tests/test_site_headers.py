"""One CSP for every HTML response, and Vary: HX-Request where a view answers htmx apart."""

import pytest
from django.conf import settings
from django.urls import reverse


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["login", "tournaments:list"])
def test_every_html_page_carries_the_one_policy(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 200
    assert response["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY
    assert "unsafe-inline" not in response["Content-Security-Policy"]


@pytest.mark.django_db
def test_api_json_carries_no_html_policy(client):
    response = client.get("/api/v1/schema/")
    assert "Content-Security-Policy" not in response


@pytest.mark.django_db
def test_the_api_docs_page_runs_without_inline_script(client):
    response = client.get(reverse("v1:api-docs"))
    assert response.status_code == 200
    assert b"<script>" not in response.content  # the split view serves its script as a file
