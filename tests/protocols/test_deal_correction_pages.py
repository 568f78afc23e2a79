"""One deal correction stack: the party page's correct/annul links go through the desk's rule.

A referee changes only the deals he recorded, a locked party shows no correction link and
refuses corrections, and the chief referee's amendment of a locked party still works.
"""

from __future__ import annotations

import pytest

from scoring.models import Deal, Protocol, TournamentRole
from scoring.signoff.content import party_players
from scoring.signoff.services import countersign, sign_as_player

pytestmark = pytest.mark.django_db

FISH_B_48 = {"outcome": "fish", "pips_a1": 20, "pips_a2": 15, "pips_b1": 5, "pips_b2": 8}


@pytest.fixture
def other_referee(make_user, tournament):
    """A referee of the tournament who recorded none of the party's deals."""
    user = make_user("ref-other")
    TournamentRole.objects.create(tournament=tournament, user=user, role="referee")
    return user


@pytest.fixture
def locked(finished_party, player_users, referee_user):
    """The finished party, signed by its players and countersigned: locked."""
    for user, (_seat, player) in zip(player_users, party_players(finished_party), strict=True):
        sign_as_player(finished_party.pk, player_id=player.pk, actor=user)
    countersign(finished_party.pk, actor=referee_user)
    finished_party.refresh_from_db()
    return finished_party


def snapshot(party):
    """The party's deals and version, to see that nothing changed."""
    party.refresh_from_db()
    deals = list(Deal.objects.filter(party=party).order_by("number").values_list(
        "number", "outcome", "points_a", "points_b"))
    return deals, party.version


def refused(client, deal, party):
    """Every correction route of the deal, GET and POST, answers 403."""
    data = {**FISH_B_48, "reason": "опечатка", "version": party.version}
    answers = [
        client.get(f"/deal/{deal.pk}/correct/").status_code,
        client.post(f"/deal/{deal.pk}/correct/", data).status_code,
        client.post(f"/deal/{deal.pk}/annul/", {"reason": "ошибка",
                                                "version": party.version}).status_code,
        client.post(f"/referee/deal/{deal.pk}/correct/", data).status_code,
        client.post(f"/referee/deal/{deal.pk}/annul/", {"reason": "ошибка"}).status_code,
    ]
    return answers == [403] * 5


def test_a_referee_cannot_change_a_deal_another_referee_recorded(
    client, finished_party, other_referee
):
    deal = finished_party.deals.get(number=2)
    before = snapshot(finished_party)
    client.force_login(other_referee)
    page = client.get(finished_party.get_absolute_url()).content.decode()
    assert f"/referee/deal/{deal.pk}/correct/" not in page
    desk = client.get(f"/referee/party/{finished_party.pk}/").content.decode()
    assert f"/referee/deal/{deal.pk}/correct/" not in desk
    assert refused(client, deal, finished_party)
    assert snapshot(finished_party) == before


def test_the_referee_who_recorded_it_corrects_through_the_party_page_link(
    client, finished_party, referee_user
):
    deal = finished_party.deals.get(number=2)
    client.force_login(referee_user)
    page = client.get(finished_party.get_absolute_url()).content.decode()
    assert f"/referee/deal/{deal.pk}/correct/" in page
    desk = client.get(f"/referee/party/{finished_party.pk}/").content.decode()
    assert f"/referee/deal/{deal.pk}/correct/" in desk
    assert client.get(f"/deal/{deal.pk}/correct/").status_code == 200
    response = client.post(f"/deal/{deal.pk}/annul/", {
        "reason": "ошибка", "version": finished_party.version})
    assert response.status_code == 302
    deal.refresh_from_db()
    assert deal.outcome == Deal.Outcome.ANNULLED


def test_a_locked_party_offers_no_correction_and_refuses_it(client, locked, referee_user):
    deal = locked.deals.get(number=2)
    before = snapshot(locked)
    client.force_login(referee_user)
    page = client.get(locked.get_absolute_url()).content.decode()
    assert "/referee/deal/" not in page and "/correct/" not in page
    assert refused(client, deal, locked)
    assert snapshot(locked) == before
    assert locked.protocols.get().status == Protocol.Status.SIGNED


def test_the_chief_referee_amends_a_locked_party_from_the_party_page(client, locked, chief_user):
    deal = locked.deals.get(number=2)
    client.force_login(chief_user)
    page = client.get(locked.get_absolute_url()).content.decode()
    assert f"/referee/deal/{deal.pk}/correct/" in page
    assert client.get(f"/deal/{deal.pk}/correct/").status_code == 200
    response = client.post(f"/deal/{deal.pk}/correct/", {
        **FISH_B_48, "reason": "Опечатка в протоколе", "version": locked.version})
    assert response.status_code == 302
    deal.refresh_from_db()
    assert (deal.outcome, deal.points_a, deal.points_b) == ("fish", 0, 48)
    v1, v2 = locked.protocols.order_by("version")
    assert v1.status == Protocol.Status.SUPERSEDED and v1.superseded_by == chief_user
    assert v2.status == Protocol.Status.AWAITING and v2.reason == "Опечатка в протоколе"


def test_the_deal_form_has_one_plays_parser():
    from referee.serializers import PlaysField
    from scoring.party.plays import parse_plays
    from scoring.signoff import forms

    assert not hasattr(forms, "ReasonForm") and not hasattr(forms, "PLAY")
    assert PlaysField().to_internal_value("a1:10, B1+15") == parse_plays("a1:10, B1+15")
    assert parse_plays("a1:10 x") is None


def test_the_api_refuses_a_locked_partys_correction_with_the_pages_403(
    locked, referee_user, chief_user
):
    """The API asks the pages' guard (``record_to_correct``): 403 for the deal's own referee on
    a locked party, as the pages answer; the chief referee's amendment goes through."""
    from rest_framework.test import APIClient

    deal = locked.deals.get(number=2)
    before = snapshot(locked)
    api = APIClient()
    api.force_authenticate(referee_user)
    body = {"outcome": "fish", "pips": {"a1": 20, "a2": 15, "b1": 5, "b2": 8}, "reason": "опечатка"}
    assert api.post(f"/api/v1/deals/{deal.pk}/correct/", body,
                    format="json").status_code == 403
    assert api.post(f"/api/v1/deals/{deal.pk}/annul/", {"reason": "ошибка"},
                    format="json").status_code == 403
    assert snapshot(locked) == before
    api.force_authenticate(chief_user)
    response = api.post(f"/api/v1/deals/{deal.pk}/correct/",
                        {**body, "version": locked.version}, format="json")
    assert response.status_code == 200, response.content
    deal.refresh_from_db()
    assert (deal.outcome, deal.points_a, deal.points_b) == ("fish", 0, 48)
