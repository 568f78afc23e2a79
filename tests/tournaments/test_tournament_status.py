"""A tournament's status follows the round flow only: its edit page and the API show it but do
not set it (it could be set freely, "finished" in the middle of a round); the organizer
finishes a tournament once its last round is closed, and may reopen it. A finished tournament
takes no new round and no deal — through the API, the referee desk and the party page alike."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import Deal, Round, Tournament

pytestmark = pytest.mark.django_db

FINISHED = "The tournament is finished: no deal can be recorded."


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _status(tournament) -> str:
    return Tournament.objects.get(pk=tournament.pk).status


def test_neither_the_api_nor_the_edit_page_sets_the_status(client, tournament, organizer):
    answer = _api(organizer).patch(f"/api/v1/tournaments/{tournament.pk}/",
                                   {"status": "finished", "venue": "Дворец"}, format="json")
    assert answer.status_code == 200 and answer.json()["status"] == "registration"
    assert _status(tournament) == "registration"
    client.force_login(organizer)
    page = client.get(f"/t/{tournament.slug}/edit/").content.decode()
    assert 'name="status"' not in page
    client.post(f"/t/{tournament.slug}/edit/", {
        "name": tournament.name, "slug": tournament.slug, "format": "pairs",
        "rule_set": "sport", "status": "finished", "start_date": "2026-12-01",
        "time_zone": "Europe/Moscow", "language": "ru"})
    assert _status(tournament) == "registration"


def test_the_organizer_finishes_after_the_last_round_and_may_reopen(party, organizer,
                                                                     referee_user):
    tournament = party.round.tournament
    organizers = _api(organizer)
    finish = f"/api/v1/tournaments/{tournament.pk}/finish/"
    refused = organizers.post(finish)
    assert (refused.status_code, refused.json()) == (400, {"round": ["Close round 1 first."]})
    assert _api(referee_user).post(finish).status_code == 403

    tournament.regulations.target = 100
    tournament.regulations.save()
    assert _api(referee_user).post(f"/api/v1/parties/{party.pk}/deal/", {
        "outcome": "domino", "side": "a", "points": {"a": 100}}, format="json",
    ).status_code == 201  # the party reaches its target
    assert organizers.post(f"/api/v1/rounds/{party.round_id}/close/").status_code == 200
    finished = organizers.post(finish)
    assert finished.status_code == 200 and finished.json()["status"] == "finished"
    again = organizers.post(finish)
    assert again.json() == {"tournament": ["The tournament is finished already."]}
    no_round = organizers.post("/api/v1/rounds/", {"tournament": tournament.pk}, format="json")
    assert no_round.status_code == 400 and list(no_round.json()) == ["tournament"]
    assert Round.objects.filter(tournament=tournament).count() == 1

    reopened = organizers.post(f"/api/v1/tournaments/{tournament.pk}/reopen/")
    assert reopened.status_code == 200 and reopened.json()["status"] == "running"
    assert organizers.post("/api/v1/rounds/", {"tournament": tournament.pk},
                           format="json").status_code == 201


def test_the_rounds_page_finishes_and_reopens(client, party, organizer, referee_user):
    tournament = party.round.tournament
    client.force_login(organizer)
    page = client.get(f"/t/{tournament.slug}/rounds/").content.decode()
    assert "Finish the tournament" in page
    shown = client.post(f"/t/{tournament.slug}/status/finish/", follow=True).content.decode()
    assert "Close round 1 first." in shown and _status(tournament) != "finished"
    Round.objects.filter(pk=party.round_id).update(status=Round.Status.FINISHED)
    shown = client.post(f"/t/{tournament.slug}/status/finish/", follow=True).content.decode()
    assert _status(tournament) == "finished" and "Reopen the tournament" in shown
    client.post(f"/t/{tournament.slug}/status/reopen/")
    assert _status(tournament) == "running"


@pytest.fixture
def finished_mid_party(party):
    """A party still in play in a tournament marked finished (as the old free status could)."""
    Tournament.objects.filter(pk=party.round.tournament_id).update(
        status=Tournament.Status.FINISHED)
    return party


def test_a_finished_tournament_refuses_a_deal_through_the_api(finished_mid_party,
                                                               referee_user):
    answer = _api(referee_user).post(f"/api/v1/parties/{finished_mid_party.pk}/deal/", {
        "outcome": "domino", "side": "a", "points": {"a": 30}}, format="json")
    assert (answer.status_code, answer.json()) == (400, {"tournament": [FINISHED]})
    assert not Deal.objects.exists()


def test_a_finished_tournament_refuses_a_deal_at_the_desk(client, finished_mid_party,
                                                           referee_user):
    party = finished_mid_party
    client.force_login(referee_user)
    body = {"outcome": "domino", "winner": "a", "points": "30", "version": party.version,
            "number": 1}
    response = client.post(f"/referee/party/{party.pk}/deal/", body, HTTP_HX_REQUEST="true")
    assert response.status_code == 400 and FINISHED in response.content.decode()
    assert not Deal.objects.exists()


def test_a_finished_tournament_refuses_a_deal_on_the_party_page(client, finished_mid_party,
                                                                 referee_user):
    party = finished_mid_party
    client.force_login(referee_user)
    response = client.post(party.get_absolute_url(), {
        "outcome": "domino", "winner": "a", "points_a": 30, "points_b": 0, "number": 1,
        "version": party.version})
    assert response.status_code == 400 and FINISHED in response.content.decode()
    assert not Deal.objects.exists()
