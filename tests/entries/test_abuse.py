"""Bad input and abuse, each a clear message naming the field and nothing written: outside the
entry window, the same person twice, outside the limits, a sign-up flood; mails switched off."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from scoring.core.errors import ServiceError
from scoring.models import Entry, EntrySettings, Profile, RatingEntry, RatingList, Season
from tests.factories import PlayerFactory, TournamentFactory
from tournaments.entries.decisions import update_entry_settings
from tournaments.entries.services import Person, create_entry

pytestmark = pytest.mark.django_db


def _enter(tournament, user, partner="Партнёр", partner_email="p@example.org", **mine):
    return create_entry(tournament.pk, Person(**mine),
                        Person(name=partner, email=partner_email), user=user)


@pytest.mark.parametrize(("opens", "closes", "said"), [
    (1, 2, "Entries open on"), (-2, -1, "Entries closed on")])
def test_an_entry_outside_the_window_is_refused(open_cup, make_user, opens, closes, said):
    now = timezone.now()
    EntrySettings.objects.filter(tournament=open_cup).update(
        opens_at=now + timedelta(days=opens), closes_at=now + timedelta(days=closes))
    with pytest.raises(ServiceError, match=said) as err:
        _enter(open_cup, make_user("late", email="late@example.org"))
    assert err.value.field == "tournament" and not Entry.objects.exists()


def test_the_same_person_cannot_enter_twice_nor_as_a_partner_elsewhere(
        open_cup, make_user, enter_pair):
    first = enter_pair(open_cup, 1)
    user = first.user
    with pytest.raises(ServiceError, match="already entered") as err:
        _enter(open_cup, user, partner="Другой", partner_email="other@example.org")
    assert err.value.field in ("email", "name")
    newcomer = make_user("newcomer", email="new@example.org")
    with pytest.raises(ServiceError, match="already entered") as err:  # partner of entry 1
        _enter(open_cup, newcomer, partner="Партнёр 1", partner_email="partner1@example.org")
    assert err.value.field == "partner_email"
    partner_user = make_user("p1", email="partner1@example.org")  # the partner himself
    with pytest.raises(ServiceError, match="already entered"):
        _enter(open_cup, partner_user, partner="Кто-то", partner_email="x@example.org")
    assert Entry.objects.count() == 1


def test_a_registered_player_cannot_enter_again(open_cup, make_user):
    user = make_user("reg", email="reg@example.org")
    profile = Profile.objects.create(name="Зарегистрирован", user=user)
    PlayerFactory(tournament=open_cup, name="Зарегистрирован", profile=profile)
    with pytest.raises(ServiceError, match="already entered"):
        _enter(open_cup, user)


def test_rating_and_season_limits(open_cup, make_user, organizer):
    user = make_user("rated", email="rated@example.org")
    profile = Profile.objects.create(name="Рейтинговый", user=user)
    other = TournamentFactory(slug="past")
    rating_list = RatingList.objects.create(name="Список", slug="list", created_by=organizer)
    RatingEntry.objects.create(rating_list=rating_list, subject=str(profile.pk),
                               profile=profile, tournament=other, sequence=1, rating=1500,
                               current=True)
    update_entry_settings(open_cup.pk, rating_min=1600)
    with pytest.raises(ServiceError, match="rated 1600 or more") as err:
        _enter(open_cup, user)
    assert err.value.field == "name"
    update_entry_settings(open_cup.pk, rating_min=None, rating_max=1400)
    with pytest.raises(ServiceError, match="1400 or less"):
        _enter(open_cup, user)
    season = Season.objects.create(name="Сезон 2026", slug="s2026")
    update_entry_settings(open_cup.pk, rating_max=None, season=season)
    with pytest.raises(ServiceError, match="season"):
        _enter(open_cup, user)
    season.tournaments.add(other)
    PlayerFactory(tournament=other, name="Рейтинговый", profile=profile)
    partner = Profile.objects.create(name="Напарник")
    with pytest.raises(ServiceError, match="season") as err:  # the partner is checked too
        create_entry(open_cup.pk, Person(), Person(profile=partner, email="n@example.org"),
                     user=user)
    assert err.value.field == "partner_name"
    PlayerFactory(tournament=other, name="Напарник", profile=partner)
    update_entry_settings(open_cup.pk, rating_max=1600)
    entry = create_entry(open_cup.pk, Person(), Person(profile=partner, email="n@example.org"),
                         user=user)
    assert entry.status == "partner" and entry.partner_name == "Напарник"


def test_a_sign_up_flood_is_throttled_per_address_and_per_client(client, open_cup, settings):
    cache.clear()
    settings.ENTRY_SIGNUP_RATE = "2/hour"
    url = reverse("tournaments:enter", args=[open_cup.slug])

    def sign_up(n: int, email: str, ip: str) -> str:
        form = {"name": f"Спамер {n}", "email": email, "partner_name": f"Жертва {n}",
                "partner_email": f"victim{n}@example.org"}
        return client.post(url, form, REMOTE_ADDR=ip).content.decode()

    sign_up(1, "a@example.org", "10.0.0.1")
    sign_up(2, "a2@example.org", "10.0.0.1")
    assert "Too many entries" in sign_up(3, "a3@example.org", "10.0.0.1")  # per client
    sign_up(4, "b@example.org", "10.0.0.2")
    Entry.objects.filter(email="b@example.org").update(status="expired")
    sign_up(5, "b@example.org", "10.0.0.3")
    Entry.objects.filter(email="b@example.org").update(status="expired")
    assert "Too many entries" in sign_up(6, "b@example.org", "10.0.0.4")  # per address
    assert Entry.objects.count() == 4
    cache.clear()


def test_a_form_refusal_names_the_field_and_keeps_the_input(client, open_cup, enter_pair):
    enter_pair(open_cup, 1)
    form = {"name": "Новый", "email": "player1@example.org", "partner_name": "Кто-то",
            "partner_email": "k@example.org"}
    page = client.post(reverse("tournaments:enter", args=[open_cup.slug]), form).content.decode()
    assert "already entered" in page and 'value="Кто-то"' in page


def test_a_mail_switched_off_is_not_sent(open_cup, enter_pair):
    update_entry_settings(open_cup.pk, disabled_mails=["partner_confirm"])
    enter_pair(open_cup, 1, confirm=False)
    assert not [m for m in mail.outbox if m.to == ["partner1@example.org"]
                and "confirm" in m.subject]
    assert [m for m in mail.outbox if m.to == ["player1@example.org"]]
    with pytest.raises(ServiceError) as err:
        update_entry_settings(open_cup.pk, disabled_mails=["nonsense"])
    assert err.value.field == "disabled_mails"
