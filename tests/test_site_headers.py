"""One CSP for every HTML response, Vary: HX-Request where a view answers htmx apart, and no
address with a control character reaching a view (a NUL in a slug was a 500 on PostgreSQL)."""

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


def _policy_of(response):
    return response.get("Content-Security-Policy")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("what", "request_args", "code"),
    [
        ("a missing slash, redirected by CommonMiddleware", ("/accounts/login",), 301),
        ("a page not found", ("/t/no-such-tournament/",), 404),
        ("a host not allowed", ("/", {"HTTP_HOST": "evil.example"}), 400),
    ],
)
def test_answers_made_outside_the_views_carry_the_policy_too(client, what, request_args, code):
    path, *extra = request_args
    response = client.get(path, **(extra[0] if extra else {}))
    assert response.status_code == code, what
    assert response["Content-Type"].startswith("text/html"), what
    assert _policy_of(response) == settings.CONTENT_SECURITY_POLICY, what


@pytest.mark.django_db
def test_a_failed_form_token_page_carries_the_policy():
    from django.test import Client

    response = Client(enforce_csrf_checks=True).post("/accounts/login/", {"username": "x"})
    assert response.status_code == 403
    assert _policy_of(response) == settings.CONTENT_SECURITY_POLICY


def test_an_html_type_in_other_letters_gets_the_policy_and_other_types_do_not(rf):
    from django.http import HttpResponse

    from config.middleware import ContentSecurityPolicyMiddleware

    for kind, expected in [("Text/HTML; charset=UTF-8", True), ("text/html", True),
                           ("application/json", False), ("text/javascript", False)]:
        middleware = ContentSecurityPolicyMiddleware(lambda request, k=kind: HttpResponse(
            "x", content_type=k))
        response = middleware(rf.get("/"))
        assert ("Content-Security-Policy" in response) is expected, kind


@pytest.mark.django_db
def test_a_server_error_page_carries_the_policy(monkeypatch):
    from django.test import Client

    def broken(user):
        raise RuntimeError("a bug")

    monkeypatch.setattr("tournaments.public.home.home_for", broken)
    response = Client(raise_request_exception=False).get("/home/")
    assert response.status_code == 500
    assert _policy_of(response) == settings.CONTENT_SECURITY_POLICY


@pytest.mark.parametrize("path", ["/t/%00/", "/v/%00/", "/players/%00/", "/api/v1/seasons/%00/",
                                  "/t/cup%0A/", "/referee/t/%7F/"])
def test_a_control_character_in_the_address_is_a_400_never_a_lookup(client, path):
    response = client.get(path)
    assert response.status_code == 400
    assert "control character" in response.content.decode()
    if path.startswith("/api/"):  # as every API error: JSON naming what is wrong
        assert response.json() == {"path": ["The address holds a control character."]}


@pytest.mark.parametrize("address", ["/api/v1/profiles/?search=%00", "/players/?q=a%00b",
                                     "/v/?code=%0D%0A", "/tournaments/?mine=%7F",
                                     "/api/v1/tournaments/?status=done&x%00=1"])
def test_a_control_character_in_the_query_is_a_400_naming_the_parameter(client, address):
    response = client.get(address)
    assert response.status_code == 400
    name = address.split("&")[-1].split("?")[-1].split("=")[0].replace("%00", "\\x00")
    text = f"The parameter {name} holds a control character."
    if address.startswith("/api/"):  # JSON naming the parameter, as every API error
        assert response.json() == {name: [text]}
    else:
        assert response.content.decode() == text


@pytest.mark.django_db
def test_an_ordinary_query_still_answers(client):
    assert client.get("/api/v1/profiles/?search=Ivanov%20Petr").status_code == 200


@pytest.mark.django_db
def test_an_ordinary_address_still_answers(client):
    assert client.get("/").status_code == 200
