"""People and access from the organizer's pages: accounts, invitations, revoke, PINs, slips."""

from __future__ import annotations

import re
import subprocess
from datetime import datetime, timedelta
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from referee import accounts
from scoring.core.errors import ServiceError
from scoring.models import IssuedAccount, SigningPin, TournamentRole
from scoring.signoff import pins
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db
User = get_user_model()


def _people(tournament):
    return reverse("tournaments:people", args=[tournament.slug])


def _referees(tournament):
    return reverse("referee:referees", args=[tournament.slug])


def _pdf_text(pdf: bytes, tmp_path) -> str:
    path = tmp_path / "slips.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", "-raw", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout


def _invite_path(client, tournament, user) -> str:
    """The invitation link the roles page shows for ``user``."""
    html = client.get(_referees(tournament)).content.decode()
    found = re.search(r'value="(http://testserver(/accounts/invitation/[^"]+))"', html)
    assert found, "no invitation link on the page"
    return found.group(2)


# -- referee accounts and invitations ---------------------------------------------------------


def test_organizer_makes_a_chief_referee_account_and_is_told_so(client, tournament, organizer):
    client.force_login(organizer)
    response = client.post(_referees(tournament), {
        "new": "1", "full_name": "Анна Петрова", "role": "chief", "email": "anna@example.org",
    }, follow=True)
    html = response.content.decode()
    assert "anna.petrova is the chief referee now." not in html  # the full name is used
    assert "Анна Петрова is the chief referee now." in html
    assert "is a referee now" not in html
    user = User.objects.get(username="anna.petrova")
    assert not user.has_usable_password()
    assert TournamentRole.objects.filter(tournament=tournament, user=user, role="chief").exists()
    assert IssuedAccount.objects.get(user=user).tournament == tournament
    assert "/accounts/invitation/" in html and "never logged in" not in html


def test_assigning_an_existing_chief_says_chief(client, tournament, organizer, make_user):
    make_user("boss")
    client.force_login(organizer)
    html = client.post(_referees(tournament), {"username": "boss", "role": "chief"},
                       follow=True).content.decode()
    assert "boss is the chief referee now." in html
    assert "boss is a referee now." not in html


def test_invitation_sets_the_password_once(client, tournament, organizer):
    client.force_login(organizer)
    client.post(_referees(tournament), {"new": "1", "full_name": "Boris Judge",
                                        "role": "referee"})
    user = User.objects.get(username="boris.judge")
    link = _invite_path(client, tournament, user)
    client.logout()
    # the link moves into the session, then the form sets the password and logs in
    response = client.get(link, follow=True)
    assert "Your login is <strong>boris.judge</strong>" in response.content.decode()
    form_url = response.redirect_chain[-1][0]
    response = client.post(form_url, {"new_password1": "tiles-and-dots-42",
                                      "new_password2": "tiles-and-dots-42"}, follow=True)
    assert "Your password is set." in response.content.decode()
    user.refresh_from_db()
    assert user.check_password("tiles-and-dots-42")
    assert user.last_login is not None
    # the same link again: refused, the password unchanged
    client.logout()
    response = client.get(link, follow=True)
    assert "This invitation link no longer works" in response.content.decode()
    user.refresh_from_db()
    assert user.check_password("tiles-and-dots-42")
    # the roles page shows that he logged in
    client.force_login(organizer)
    assert "last logged in" in client.get(_referees(tournament)).content.decode()


def test_invitation_expires(client, tournament, organizer, settings):
    user = accounts.create_referee_account(tournament, actor=organizer, full_name="Late Ref",
                                           role="referee")
    path = accounts.invitation_path(user)
    later = datetime.now() + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT + 60)
    with mock.patch.object(accounts.InvitationTokens, "_now", return_value=later):
        response = client.get(path, follow=True)
    assert "This invitation link no longer works" in response.content.decode()
    assert client.get(path, follow=True).status_code == 200  # still valid today


def test_a_password_reset_token_is_not_an_invitation(client, tournament, organizer):
    from django.contrib.auth.tokens import default_token_generator
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    user = accounts.create_referee_account(tournament, actor=organizer, full_name="Other Ref",
                                           role="referee")
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    path = reverse("invitation", args=[uid, default_token_generator.make_token(user)])
    assert "no longer works" in client.get(path, follow=True).content.decode()


def test_revoke_access_stops_login_and_the_invitation(client, tournament, organizer):
    user = accounts.create_referee_account(tournament, actor=organizer, full_name="Gone Ref",
                                           role="referee")
    path = accounts.invitation_path(user)
    user.set_password("secret-pass-77")
    user.save()
    from django.test import Client

    his_phone = Client()
    his_phone.force_login(user)
    tables = reverse("referee:my_tables")
    assert his_phone.get(tables).status_code == 200
    client.force_login(organizer)
    html = client.post(_referees(tournament), {"revoke": user.pk, "confirmed": "1"},
                       follow=True).content.decode()
    assert "gone.ref can no longer log in." in html
    assert "access revoked" in html
    user.refresh_from_db()
    assert not user.is_active and not user.has_usable_password()
    client.logout()
    refused = client.post(reverse("login"), {"username": "gone.ref", "password": "secret-pass-77"})
    assert refused.status_code == 200 and "_auth_user_id" not in client.session
    assert his_phone.get(tables).status_code == 302  # his open session ends too
    assert "no longer works" in client.get(path, follow=True).content.decode()
    # giving access back makes a new invitation
    client.force_login(organizer)
    client.post(_referees(tournament), {"invite": user.pk})
    user.refresh_from_db()
    assert user.is_active
    assert _invite_path(client, tournament, user)


def test_invitation_mail_and_slip(client, tournament, organizer, tmp_path):
    user = accounts.create_referee_account(tournament, actor=organizer, full_name="Мила Судья",
                                           role="referee", email="mila@example.org")
    client.force_login(organizer)
    html = client.post(_referees(tournament), {"mail": user.pk}, follow=True).content.decode()
    assert "The invitation was sent to mila@example.org." in html
    assert len(mail.outbox) == 1 and "/accounts/invitation/" in mail.outbox[0].body
    response = client.post(_referees(tournament), {"slip": user.pk})
    assert response["Content-Type"] == "application/pdf"
    text = _pdf_text(response.content, tmp_path)
    assert "Мила Судья" in text and "mila.sudya" in text


def test_an_account_made_elsewhere_is_not_invited_or_revoked(tournament, organizer, make_user):
    outsider = make_user("admin2", is_superuser=True)
    TournamentRole.objects.create(tournament=tournament, user=outsider, role="referee")
    with pytest.raises(ServiceError):
        accounts.invite(tournament, outsider.pk, actor=organizer)
    with pytest.raises(ServiceError):
        accounts.revoke_access(tournament, outsider.pk, actor=organizer)
    other = TournamentFactory(slug="other-cup", organizer=organizer)
    made = accounts.create_referee_account(other, actor=organizer, full_name="Their Ref",
                                           role="referee")
    with pytest.raises(ServiceError):  # made by another tournament, even of the same organizer
        accounts.revoke_access(tournament, made.pk, actor=organizer)


@pytest.mark.parametrize("who", ["stranger", "referee", "chief", "player", "other_organizer"])
def test_only_the_tournaments_organizer_makes_accounts_and_pins(
        client, tournament, make_user, referee_user, chief_user, who):
    actor = {
        "stranger": lambda: make_user("nobody"),
        "referee": lambda: referee_user,
        "chief": lambda: chief_user,
        "player": lambda: _player_with_login(tournament, make_user),
        "other_organizer": lambda: TournamentFactory(
            slug="elsewhere", organizer=make_user("org2", organizer=True)).roles.get().user,
    }[who]()
    with pytest.raises(PermissionDenied):
        accounts.make_player_accounts(tournament, actor=actor)
    with pytest.raises(PermissionDenied):
        accounts.create_referee_account(tournament, actor=actor, full_name="X", role="referee")
    with pytest.raises(PermissionDenied):
        pins.generate_pins(tournament.pk, actor=actor)
    client.force_login(actor)
    assert client.post(_people(tournament), {"pins": "missing"}).status_code in (403, 404)
    assert client.post(_people(tournament), {"make_accounts": "1"}).status_code in (403, 404)
    assert client.post(_referees(tournament), {"new": "1", "full_name": "X",
                                               "role": "referee"}).status_code in (403, 404)
    assert not SigningPin.objects.filter(player__tournament=tournament).exists()
    assert not IssuedAccount.objects.filter(tournament=tournament).exists()


def _player_with_login(tournament, make_user):
    player = tournament.players.first()
    player.user = make_user("player-login")
    player.save()
    return player.user


# -- player accounts and PINs -----------------------------------------------------------------


def test_player_accounts_for_everyone_without_one(client, tournament, organizer, tmp_path):
    client.force_login(organizer)
    html = client.post(_people(tournament), {"make_accounts": "1"}, follow=True).content.decode()
    assert "16 player accounts were made." in html
    petrov = tournament.players.get(name="Иван Петров")
    assert petrov.user.username == "ivan.petrov" and not petrov.user.has_usable_password()
    assert tournament.players.get(name="José García").user.username == "jose.garcia"
    response = client.post(_people(tournament), {"invitations": "1"})
    text = _pdf_text(response.content, tmp_path)
    assert text.count("Ваш логин") == 16  # one slip each, in the tournament's language
    assert "Ёлкин Щукин" in text and "elkin.shchukin" in text


def test_pin_slips_one_per_player_and_only_hashes_kept(client, tournament, organizer, tmp_path):
    client.force_login(organizer)
    already = tournament.players.get(name="Иван Петров")
    pins.set_signing_pin(already.pk, "4711", actor=organizer)
    response = client.post(_people(tournament), {"pins": "missing"})
    assert response["Content-Type"] == "application/pdf"
    text = _pdf_text(response.content, tmp_path)
    names = [p.name for p in tournament.players.exclude(pk=already.pk)]
    for name in names:
        assert text.count(name) == 1, name
    assert "Иван Петров" not in text
    printed = re.findall(r"\b(\d{6})\b", text)
    assert len(printed) == 15
    stored = SigningPin.objects.filter(player__tournament=tournament)
    assert stored.count() == 16
    for found in stored:
        assert not any(pin in found.pin_hash for pin in printed)
    # a printed PIN signs: it matches its player's hash
    for player in tournament.players.exclude(pk=already.pk):  # each slip's PIN is his
        pins.check_pin(player, re.search(r"\b(\d{6})\b", text.split(player.name, 1)[1]).group(1))
    # again: nobody is missing one now
    html = client.post(_people(tournament), {"pins": "missing"}, follow=True).content.decode()
    assert "Every player has a signing PIN already." in html
    # every player: 16 new slips, the old PIN stops working
    text = _pdf_text(client.post(_people(tournament), {"pins": "all", "confirmed": "1"}).content,
                     tmp_path)
    assert len(re.findall(r"\b(\d{6})\b", text)) == 16
    with pytest.raises(ServiceError):
        pins.check_pin(already, "4711")


def test_player_changes_his_pin_with_the_old_one_or_his_password(client, tournament, organizer,
                                                                  make_user):
    player = tournament.players.get(name="Иван Петров")
    player.user = make_user("ivan", password="ivan-pass-123")
    player.save()
    pins.set_signing_pin(player.pk, "1111", actor=organizer)
    client.force_login(player.user)
    url = reverse("scoring:signing_pin", args=[player.pk])
    html = client.get(reverse("tournaments:player_area", args=[tournament.slug])).content.decode()
    assert "Change my signing PIN" in html
    response = client.post(url, {"pin": "2222", "again": "2222"})
    assert response.status_code == 200 and "This field is required" in response.content.decode()
    response = client.post(url, {"current": "9999", "pin": "2222", "again": "2222"})
    assert "Type your current PIN or your password." in response.content.decode()
    pins.check_pin(player, "1111")
    client.post(url, {"current": "1111", "pin": "2222", "again": "2222"})
    pins.check_pin(player, "2222")
    client.post(url, {"current": "ivan-pass-123", "pin": "3333", "again": "3333"})
    pins.check_pin(player, "3333")


def test_the_desk_names_players_without_a_pin(client, make_party, referee_user, organizer):
    party = make_party()
    first = party.pair_a.player1
    pins.set_signing_pin(first.pk, "1234", actor=organizer)
    client.force_login(referee_user)
    html = client.get(reverse("referee:party", args=[party.pk])).content.decode()
    assert 'id="no-pin"' in html
    block = html.split('id="no-pin"', 1)[1].split("</p>", 1)[0]
    assert party.pair_a.player2.name in block and party.pair_b.player1.name in block
    assert first.name not in block


def test_api_player_changes_his_pin_only_with_the_old_one(tournament, organizer, make_user):
    from rest_framework.test import APIClient

    player = tournament.players.get(name="Иван Петров")
    player.user = make_user("ivan-api", password="ivan-pass-123")
    player.save()
    api = APIClient()
    api.force_authenticate(player.user)
    url = "/api/v1/signing-pins/"
    assert api.post(url, {"player": player.pk, "pin": "1111"}).status_code == 204  # his first
    refused = api.post(url, {"player": player.pk, "pin": "2222"})
    assert refused.status_code == 400 and "current" in refused.json()
    pins.check_pin(player, "1111")
    assert api.post(url, {"player": player.pk, "pin": "2222", "current": "1111"}
                    ).status_code == 204
    pins.check_pin(player, "2222")


def test_roster_import_makes_player_accounts_when_asked(client, organizer, make_user):
    import base64

    cup = TournamentFactory(slug="import-cup", organizer=organizer)
    roster = "name,partner\nПётр Сидоров,Илья Козлов\nИлья Козлов,\n".encode()
    url = reverse("tournaments:import", args=[cup.slug])
    client.force_login(organizer)
    carried = {"content": base64.b64encode(roster).decode(), "filename": "r.csv",
               "action": "import"}
    response = client.post(url, {**carried, "make_accounts": "1"}, follow=True)
    assert response.redirect_chain[-1][0] == _people(cup)
    assert "2 player accounts were made: print the invitations." in response.content.decode()
    assert sorted(cup.players.values_list("user__username", flat=True)) == [
        "ilya.kozlov", "petr.sidorov"]
    # without the option, no account (the namesakes of the first import's profiles are
    # doubtful rows: the organizer makes new profiles for them)
    other = TournamentFactory(slug="import-cup-2", organizer=organizer)
    client.post(reverse("tournaments:import", args=[other.slug]),
                {**carried, "profile_2": "new", "profile_3": "new"})
    assert other.players.count() == 2 and not other.players.filter(user__isnull=False).exists()


def test_the_sign_off_names_players_without_a_pin(client, make_party, referee_user, organizer):
    from scoring.models import Party

    party = make_party()
    Party.objects.filter(pk=party.pk).update(status=Party.Status.FINISHED)
    for player in (party.pair_a.player1, party.pair_a.player2, party.pair_b.player1):
        pins.set_signing_pin(player.pk, "1234", actor=organizer)
    client.force_login(referee_user)
    html = client.get(reverse("tournaments:party", args=[party.pk])).content.decode()
    block = html.split('id="no-pin"', 1)[1].split("</p>", 1)[0]
    assert party.pair_b.player2.name in block and party.pair_a.player1.name not in block
    pins.set_signing_pin(party.pair_b.player2.pk, "1234", actor=organizer)
    assert 'id="no-pin"' not in client.get(reverse("tournaments:party", args=[party.pk])
                                           ).content.decode()


def test_guessing_the_old_pin_counts_towards_the_lock(tournament, organizer, make_user):
    player = tournament.players.get(name="Иван Петров")
    player.user = make_user("ivan-guess", password="ivan-pass-123")
    player.save()
    pins.set_signing_pin(player.pk, "1111", actor=organizer)
    for guess in range(settings.SIGNING_PIN_FAILURE_LIMIT):
        with pytest.raises(ServiceError) as refused:
            pins.set_signing_pin(player.pk, "2222", actor=player.user, current=f"{guess:04d}2")
        assert refused.value.field == "current"
    with pytest.raises(ServiceError, match="Too many wrong PINs"):
        pins.check_pin(player, "1111")  # locked at the table too
    pins.set_signing_pin(player.pk, "2222", actor=player.user, current="ivan-pass-123")
