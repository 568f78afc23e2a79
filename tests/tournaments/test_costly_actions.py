"""Costly one-click actions of the organizer's pages ask first and name what they cost; the
server acts only on a confirmed form (the question page works without JavaScript)."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from referee import accounts
from scoring.core.errors import ServiceError
from scoring.models import TournamentRole
from scoring.signoff import pins

pytestmark = pytest.mark.django_db
User = get_user_model()
RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}


def _people(tournament):
    return reverse("tournaments:people", args=[tournament.slug])


def _referees(tournament):
    return reverse("referee:referees", args=[tournament.slug])


def _question(html: str) -> str:
    """The question the confirmation shows (its text, unescaped)."""
    found = re.search(r'<p id="ask-first-text" class="ref-confirm-text">(.*?)</p>', html, re.S)
    assert found, "no question on the page"
    return html_lib.unescape(found.group(1))


def _yes_form(html: str) -> dict[str, str]:
    """The fields the question's "Yes" button posts (what a browser without scripts sends)."""
    form = html.split('id="ask-first"', 1)[1].split("</form>", 1)[0]
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))


def _everyone_has_a_pin(tournament, organizer) -> dict[int, str]:
    return {item.player.pk: item.pin
            for item in pins.generate_pins(tournament.pk, actor=organizer)}


def test_new_pins_for_everyone_ask_first_and_keep_the_printed_ones_until_confirmed(
        client, tournament, organizer):
    printed = _everyone_has_a_pin(tournament, organizer)
    client.force_login(organizer)
    client.cookies["django_language"] = "ru"
    page = client.get(_people(tournament), **RU).content.decode()
    question = "Все 16 напечатанных листков перестанут действовать"
    assert question in html_lib.unescape(page)  # the button's dialog names it too
    asked = client.post(_people(tournament), {"pins": "all"}, **RU)
    assert asked.status_code == 200 and asked["Content-Type"].startswith("text/html")
    html = asked.content.decode()
    assert question in _question(html)
    assert "каждый игрок получит новый PIN" in _question(html)
    for player in tournament.players.all():  # nothing changed: every printed slip still signs
        pins.check_pin(player, printed[player.pk])
    # the question's own form (no script needed) does it
    done = client.post(_people(tournament), _yes_form(html), **RU)
    assert done["Content-Type"] == "application/pdf"
    first = tournament.players.first()
    with pytest.raises(ServiceError):
        pins.check_pin(first, printed[first.pk])


def test_new_pins_when_nobody_has_one_ask_nothing(client, tournament, organizer):
    client.force_login(organizer)
    response = client.post(_people(tournament), {"pins": "all"})
    assert response["Content-Type"] == "application/pdf"


def test_a_referees_password_reset_asks_first(client, tournament, organizer):
    user = accounts.create_referee_account(tournament, actor=organizer,
                                           full_name="Зоя Петрова", role="referee")
    user.set_password("zoya-pass-123")
    user.save()
    client.force_login(organizer)
    page = client.get(_referees(tournament)).content.decode()
    assert 'name="invite"' in page and "Зоя Петрова: the password stops working" in page
    asked = client.post(_referees(tournament), {"invite": user.pk})
    question = _question(asked.content.decode())
    assert question.startswith("Зоя Петрова: the password stops working at once")
    user.refresh_from_db()
    assert user.check_password("zoya-pass-123")
    client.post(_referees(tournament), {"invite": user.pk, "confirmed": "1"})
    user.refresh_from_db()
    assert not user.has_usable_password()


def test_giving_access_back_asks_nothing(client, tournament, organizer):
    user = accounts.create_referee_account(tournament, actor=organizer, full_name="Gone Ref",
                                           role="referee")
    accounts.revoke_access(tournament, user.pk, actor=organizer)
    client.force_login(organizer)
    response = client.post(_referees(tournament), {"invite": user.pk})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.is_active


def test_revoking_access_asks_first(client, tournament, organizer):
    user = accounts.create_referee_account(tournament, actor=organizer, full_name="Лев Судья",
                                           role="referee")
    client.force_login(organizer)
    asked = client.post(_referees(tournament), {"revoke": user.pk})
    assert _question(asked.content.decode()).startswith("Лев Судья can no longer log in")
    user.refresh_from_db()
    assert user.is_active
    client.post(_referees(tournament), {"revoke": user.pk, "confirmed": "1"})
    user.refresh_from_db()
    assert not user.is_active


def test_removing_a_referee_asks_first_in_russian(client, tournament, organizer):
    user = accounts.create_referee_account(tournament, actor=organizer, full_name="Анна Судья",
                                           role="chief")
    role = TournamentRole.objects.get(tournament=tournament, user=user)
    client.force_login(organizer)
    client.cookies["django_language"] = "ru"
    asked = client.post(_referees(tournament), {"remove": role.pk}, **RU)
    html = asked.content.decode()
    assert _question(html) == ("Анна Судья (Главный судья) снимается с судейства в этом "
                               "турнире: пульты его столов закроются для этой учётной записи "
                               "сразу.")
    assert f'id="btn-ask-cancel" href="{_referees(tournament)}"' in html  # cancelling: back
    assert TournamentRole.objects.filter(pk=role.pk).exists()
    client.post(_referees(tournament), _yes_form(html), **RU)
    assert not TournamentRole.objects.filter(pk=role.pk).exists()
