"""Player accounts keep one login per person: a player whose profile already has a login gets
that one (his record is not split between two accounts); only the others get a new login."""

from __future__ import annotations

import subprocess

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from referee import accounts
from scoring.models import Player, Profile
from tests.factories import PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db
User = get_user_model()


def _people(tournament):
    return reverse("tournaments:people", args=[tournament.slug])


def _pdf_text(pdf: bytes, tmp_path) -> str:
    path = tmp_path / "slips.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", "-raw", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout


@pytest.fixture
def ivan(tournament, make_user):
    """Иван Петров of this tournament: his profile already has the login he played with."""
    login = make_user("ivan.petrov", first_name="Иван Петров")
    profile = Profile.objects.create(name="Иван Петров", user=login)
    Player.objects.filter(tournament=tournament, name="Иван Петров").update(profile=profile)
    return login


def test_make_accounts_reuses_the_profiles_login(client, tournament, organizer, ivan, tmp_path):
    users_before = User.objects.count()
    client.force_login(organizer)
    html = client.post(_people(tournament), {"make_accounts": "1"},
                       follow=True).content.decode()
    assert "15 player accounts were made." in html
    assert ("1 player already has a login on his profile; it is used here too: "
            "Иван Петров (ivan.petrov).") in html
    assert User.objects.count() == users_before + 15  # no second login for him
    assert tournament.players.get(name="Иван Петров").user == ivan
    assert not User.objects.filter(username__startswith="ivan.petrov").exclude(
        pk=ivan.pk).exists()
    # the page lists his existing login
    row = html.split(f'id="player-{tournament.players.get(name="Иван Петров").pk}"', 1)[1]
    assert row.split("</tr>", 1)[0].count("ivan.petrov ·") == 1
    # the invitations print a slip for each new login, none for his
    text = _pdf_text(client.post(_people(tournament), {"invitations": "1"}).content, tmp_path)
    assert text.count("Ваш логин") == 15
    assert "Иван Петров" not in text and "ivan.petrov" not in text


def test_one_account_for_a_player_whose_profile_has_a_login(client, tournament, organizer,
                                                            ivan):
    player = tournament.players.get(name="Иван Петров")
    client.force_login(organizer)
    html = client.post(_people(tournament), {"make_account": player.pk},
                       follow=True).content.decode()
    assert "it is used here too: Иван Петров (ivan.petrov)." in html
    assert "The account was made" not in html
    player.refresh_from_db()
    assert player.user == ivan and User.objects.filter(first_name="Иван Петров").count() == 1


def test_the_login_of_the_profiles_other_entry_is_reused(tournament, organizer, make_user):
    """His profile holds no login yet, but he played an earlier tournament with one."""
    profile = Profile.objects.create(name="Ольга Морозова")
    earlier = TournamentFactory(slug="earlier-cup", organizer=organizer)
    login = make_user("olga.m")
    PlayerFactory(tournament=earlier, name="Ольга Морозова", profile=profile, user=login)
    Player.objects.filter(tournament=tournament, name="Ольга Морозова").update(profile=profile)
    done = accounts.make_player_accounts(tournament, actor=organizer)
    olga = tournament.players.get(name="Ольга Морозова")
    assert olga.user == login and [p.pk for p in done.reused] == [olga.pk]
    assert olga.pk not in [p.pk for p in done.made]
    profile.refresh_from_db()
    assert profile.user == login  # the profile now holds it


def test_a_new_login_stays_with_the_profile_for_the_next_tournament(organizer):
    profile = Profile.objects.create(name="Мария Волкова")
    first = TournamentFactory(slug="first-cup", organizer=organizer)
    PlayerFactory(tournament=first, name="Мария Волкова", profile=profile)
    made = accounts.make_player_accounts(first, actor=organizer).made[0]
    profile.refresh_from_db()
    assert profile.user == made.user
    second = TournamentFactory(slug="second-cup", organizer=organizer)
    again = PlayerFactory(tournament=second, name="Мария Волкова", profile=profile)
    done = accounts.make_player_accounts(second, actor=organizer)
    again.refresh_from_db()
    assert done.made == [] and again.user == made.user
    assert User.objects.filter(first_name="Мария Волкова").count() == 1
