"""The referee's countersignature locks the party: it asks first, naming that, and signs only
once confirmed (on the page, or in the section the table device swaps in)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Protocol
from scoring.signoff.content import party_players
from scoring.signoff.services import sign_as_player

pytestmark = pytest.mark.django_db
LOCKS = "its deals can no longer be corrected"


@pytest.fixture
def all_signed(finished_party, player_users):
    for user, (_seat, player) in zip(player_users, party_players(finished_party), strict=True):
        sign_as_player(finished_party.pk, player_id=player.pk, actor=user)
    return finished_party


def test_the_countersign_button_carries_its_question(client, all_signed, referee_user):
    client.force_login(referee_user)
    html = client.get(all_signed.get_absolute_url()).content.decode()
    form = html.split('protocol/countersign/"', 1)[1].split("</form>", 1)[0]
    assert "data-confirm=" in form and LOCKS in form
    assert 'id="confirm-dialog"' in html  # the dialog that asks it


def test_htmx_countersign_without_confirmation_asks_in_the_section(client, all_signed,
                                                                  referee_user):
    client.force_login(referee_user)
    url = reverse("scoring:protocol_countersign", args=[all_signed.pk])
    asked = client.post(url, HTTP_HX_REQUEST="true")
    body = asked.content.decode()
    assert asked.status_code == 200 and "<html" not in body and 'id="protocol"' in body
    assert 'id="ask-first"' in body and LOCKS in body
    assert 'name="confirmed" value="1"' in body and 'hx-target="#protocol"' in body
    assert all_signed.protocols.get().status == Protocol.Status.AWAITING
    done = client.post(url, {"confirmed": "1"}, HTTP_HX_REQUEST="true")
    assert "The protocol is signed and the party locked." in done.content.decode()
    assert all_signed.protocols.get().status == Protocol.Status.SIGNED


def test_countersign_question_in_russian(client, all_signed, referee_user):
    client.force_login(referee_user)
    client.cookies["django_language"] = "ru"
    asked = client.post(reverse("scoring:protocol_countersign", args=[all_signed.pk]),
                        HTTP_ACCEPT_LANGUAGE="ru")
    assert "исправлять её коны будет нельзя" in asked.content.decode()
    assert all_signed.protocols.get().status == Protocol.Status.AWAITING
