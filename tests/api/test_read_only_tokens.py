"""Read-only API tokens: an organizer issues one that reads his tournaments and writes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.access.api_tokens import READ_ONLY_REFUSAL
from scoring.models import ReadOnlyToken, TournamentRole
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db

TOKENS = "/api/v1/auth/read-only-tokens/"


def logged_in(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def with_key(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def issue(user, name: str = "Сайт клуба") -> str:
    answer = logged_in(user).post(TOKENS, {"name": name}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()["token"]


@pytest.fixture
def hidden(tournament):
    """Our organizer's tournament, not public."""
    tournament.public = False
    tournament.save(update_fields=["public"])
    return tournament


@pytest.fixture
def foreign_hidden(make_user):
    """Another organizer's tournament, not public."""
    return TournamentFactory(name="Чужой", slug="foreign-hidden", public=False,
                             organizer=make_user("other-org", organizer=True))


def test_a_token_reads_his_hidden_tournament_and_not_another_organizers(
    organizer, hidden, foreign_hidden
):
    key = issue(organizer)
    assert key.startswith("ro_") and len(key) == 43
    reader = with_key(key)
    assert reader.get(f"/api/v1/tournaments/{hidden.pk}/").status_code == 200
    assert reader.get(f"/api/v1/tournaments/{hidden.pk}/standings/").status_code == 200
    assert reader.get(f"/api/v1/tournaments/{foreign_hidden.pk}/").status_code == 404
    listed = {t["id"] for t in reader.get("/api/v1/tournaments/").json()["results"]}
    assert hidden.pk in listed and foreign_hidden.pk not in listed
    assert APIClient().get(f"/api/v1/tournaments/{hidden.pk}/").status_code == 404


def test_every_write_with_a_token_is_403_with_a_clear_message(organizer, hidden, party):
    reader = with_key(issue(organizer))
    writes = [
        ("post", "/api/v1/tournaments/", {"name": "Новый", "rule_set": "sport"}),
        ("patch", f"/api/v1/tournaments/{hidden.pk}/", {"venue": "Другое место"}),
        ("post", f"/api/v1/parties/{party.pk}/deal/",
         {"outcome": "domino", "side": "a", "points": {"a": 60, "b": 0}}),
        ("delete", f"/api/v1/tables/{hidden.tables.first().pk}/", None),
        ("post", TOKENS, {"name": "ещё один"}),
    ]
    for method, path, body in writes:
        answer = getattr(reader, method)(path, body, format="json")
        assert answer.status_code == 403, (path, answer.content)
        assert answer.json() == {"detail": str(READ_ONLY_REFUSAL)}
    hidden.refresh_from_db()
    assert hidden.venue != "Другое место" and not party.deals.exists()
    assert hidden.tables.count() == 4 and ReadOnlyToken.objects.count() == 1


def test_a_token_reads_only_as_organizer_not_as_referee_or_superuser(
    organizer, make_user, foreign_hidden
):
    TournamentRole.objects.create(tournament=foreign_hidden, user=organizer, role="referee")
    assert logged_in(organizer).get(
        f"/api/v1/tournaments/{foreign_hidden.pk}/").status_code == 200  # his own login
    assert with_key(issue(organizer)).get(
        f"/api/v1/tournaments/{foreign_hidden.pk}/").status_code == 404
    root = make_user("root", is_superuser=True, is_staff=True)
    assert with_key(issue(root)).get(
        f"/api/v1/tournaments/{foreign_hidden.pk}/").status_code == 404


def test_the_key_is_shown_once_stored_hashed_and_revoked_at_once(organizer, hidden):
    owner = logged_in(organizer)
    key = issue(organizer, "Табло")
    listed = owner.get(TOKENS).json()["results"]
    assert [(t["name"], t["prefix"], t["active"]) for t in listed] == [
        ("Табло", key[:8], True)]
    assert "token" not in listed[0] and key not in str(owner.get(TOKENS).content)
    token = ReadOnlyToken.objects.get()
    assert key not in (token.key_hash, token.prefix)
    assert with_key(key).get(f"/api/v1/tournaments/{hidden.pk}/").status_code == 200
    assert owner.delete(f"{TOKENS}{token.pk}/").status_code == 204
    refused = with_key(key).get(f"/api/v1/tournaments/{hidden.pk}/")
    assert refused.status_code == 403 and refused.json() == {"detail": "Invalid token."}
    assert owner.get(f"{TOKENS}{token.pk}/").json()["active"] is False


def test_only_organizers_issue_and_only_their_own_and_not_with_a_token(
    organizer, make_user, referee_user
):
    assert logged_in(referee_user).post(TOKENS, {"name": "x"}, format="json").status_code == 403
    assert APIClient().get(TOKENS).status_code == 403
    key = issue(organizer)
    assert with_key(key).get(TOKENS).status_code == 403
    token = ReadOnlyToken.objects.get()
    other = logged_in(make_user("other-org", organizer=True))
    assert other.delete(f"{TOKENS}{token.pk}/").status_code == 404
    assert other.get(TOKENS).json()["results"] == []
    token.refresh_from_db()
    assert token.active
    empty = logged_in(organizer).post(TOKENS, {"name": "  "}, format="json")
    assert empty.status_code == 400 and "name" in empty.json()


def test_the_page_issues_shows_the_key_once_and_revokes(client, organizer, make_user,
                                                         referee_user):
    url = reverse("tournaments:api_tokens")
    client.force_login(organizer)
    assert client.get(url).status_code == 200
    answer = client.post(url, {"name": "Сайт клуба"})
    token = ReadOnlyToken.objects.get()
    key = answer.context["issued"]["key"]
    assert answer.status_code == 201 and key.encode() in answer.content
    page = client.get(url)
    assert key.encode() not in page.content and token.prefix.encode() in page.content
    client.force_login(make_user("other-org", organizer=True))
    revoke = reverse("tournaments:api_token_revoke", args=[token.pk])
    assert client.post(revoke).status_code == 404  # not his
    client.force_login(referee_user)
    assert client.get(url).status_code == 403
    client.force_login(organizer)
    assert client.post(revoke).status_code == 302
    token.refresh_from_db()
    assert not token.active
    assert with_key(key).get("/api/v1/tournaments/").status_code == 403
