"""Partner confirmation and expiry, the sign-up's address confirmation, forged and expired
links: each refused plainly, nothing lost."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail, signing
from django.urls import reverse
from django.utils import timezone

from scoring.models import Entry, EntrySettings, Profile
from tests.factories import PlayerFactory, TournamentFactory
from tournaments.entries.decisions import expire_entries, update_entry_settings
from tournaments.entries.tokens import make_token

pytestmark = pytest.mark.django_db


def _link(message, kind: str) -> str:
    """The path of the first link of ``kind`` ("confirm", "partner") in a mail."""
    found = re.search(r"https?://[^/\s]+(/entries/\S+/" + kind + "/)", message.body)
    assert found, message.body
    return found.group(1)


def test_partner_confirms_by_his_mailed_link(client, open_cup, enter_pair):
    entry = enter_pair(open_cup, 1, confirm=False)
    assert entry.status == "partner"
    asked = [m for m in mail.outbox if m.to == ["partner1@example.org"]]
    path = _link(asked[-1], "partner")
    page = client.get(path)
    assert page.status_code == 200 and "Игрок 1 / Партнёр 1" in page.content.decode()
    client.post(path)
    entry.refresh_from_db()
    assert entry.status == "received" and entry.partner_confirmed_at is not None


def test_an_unconfirmed_pair_expires_and_frees_its_place(open_cup, enter_pair,
                                                        django_capture_on_commit_callbacks):
    update_entry_settings(open_cup.pk, capacity=1, confirm_hours=24)
    late = enter_pair(open_cup, 1, confirm=False)
    waiting = enter_pair(open_cup, 2)
    assert (late.status, waiting.status) == ("partner", "waiting")
    assert expire_entries(timezone.now() + timedelta(hours=23)) == []
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        expired = expire_entries(timezone.now() + timedelta(hours=25))
    assert [e.pk for e in expired] == [late.pk]
    assert Entry.objects.get(pk=waiting.pk).status == "received"
    assert any("player2@example.org" in m.to for m in mail.outbox)  # moved up, mailed


def test_an_expired_entrys_partner_link_is_refused(client, open_cup, enter_pair):
    entry = enter_pair(open_cup, 1, confirm=False)
    Entry.objects.filter(pk=entry.pk).update(status="expired")
    answer = client.post(reverse("tournaments:entry_partner_confirm",
                                 args=[make_token("partner", entry.pk)]))
    assert answer.status_code == 400 and "no longer open" in answer.content.decode()


def test_a_visitor_signs_up_confirms_his_address_and_is_matched(
        client, open_cup, django_capture_on_commit_callbacks):
    known = Profile.objects.create(name="Анна Каренина", club="Москва", birth_year=1990)
    PlayerFactory(tournament=TournamentFactory(slug="before"), name=known.name, profile=known)
    hidden = Profile.objects.create(name="Алексей Вронский", club="Полк")  # hidden only
    PlayerFactory(tournament=TournamentFactory(slug="secret", public=False), name=hidden.name,
                  profile=hidden)
    form = {"name": "анна каренина", "email": "anna@example.org", "club": "Москва",
            "birth_year": "1990", "partner_name": "Алексей Вронский",
            "partner_email": "vronsky@example.org"}
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(reverse("tournaments:enter", args=[open_cup.slug]), form)
    assert answer.status_code == 200 and "anna@example.org" in answer.content.decode()
    entry = Entry.objects.get(email="anna@example.org")
    assert entry.status == "signup" and entry.profile == known  # matched as the roster is
    assert entry.partner_profile is None and entry.doubts == {}  # never a hidden person
    assert [m.to for m in mail.outbox] == [["anna@example.org"]]  # no place yet: no partner mail
    path = _link(mail.outbox[0], "confirm")
    with django_capture_on_commit_callbacks(execute=True):
        confirmed = client.post(path)
    assert confirmed.status_code == 302
    entry.refresh_from_db()
    assert entry.status == "partner" and entry.email_confirmed_at is not None
    assert sorted(m.to[0] for m in mail.outbox[1:]) == ["anna@example.org",
                                                         "vronsky@example.org",
                                                         "vronsky@example.org"]
    page = client.get(confirmed["Location"])
    assert "Waiting for the partner" in page.content.decode()


def test_a_doubtful_match_is_left_to_the_organizer(client, open_cup, organizer,
                                                   django_capture_on_commit_callbacks):
    earlier = TournamentFactory(slug="earlier")
    for club in ("Тула", "Орёл"):
        profile = Profile.objects.create(name="Иван Иванов", club=club)
        PlayerFactory(tournament=earlier, name=profile.name, profile=profile)
    form = {"name": "Иван Иванов", "email": "ivan@example.org",
            "partner_name": "Пётр Петров", "partner_email": "petr@example.org"}
    client.post(reverse("tournaments:enter", args=[open_cup.slug]), form)
    entry = Entry.objects.get(email="ivan@example.org")
    assert entry.profile is None and len(entry.doubts["profile"]) == 2
    client.force_login(organizer)
    page = client.get(reverse("tournaments:entries_manage", args=[open_cup.slug]))
    assert "doubtful" in page.content.decode()


def test_forged_and_expired_links_are_refused(client, open_cup, enter_pair, settings):
    entry = enter_pair(open_cup, 1, confirm=False)
    forged = make_token("partner", entry.pk)[:-3] + "abc"
    answer = client.get(reverse("tournaments:entry_partner_confirm", args=[forged]))
    assert answer.status_code == 400 and "not valid" in answer.content.decode()
    other_purpose = make_token("entry", entry.pk)  # an entry page's link confirms nothing
    answer = client.post(reverse("tournaments:entry_partner_confirm", args=[other_purpose]))
    assert answer.status_code == 400
    old = signing.dumps({"e": entry.pk}, salt="entries.partner", compress=True)
    settings.ENTRY_LINK_HOURS = 0
    answer = client.get(reverse("tournaments:entry_partner_confirm", args=[old]))
    assert answer.status_code == 400 and "expired" in answer.content.decode()
    entry.refresh_from_db()
    assert entry.partner_confirmed_at is None


def test_the_entry_page_withdraws_and_moves_the_waiting_list_up(
        client, open_cup, enter_pair, django_capture_on_commit_callbacks):
    update_entry_settings(open_cup.pk, capacity=1)
    first, second = enter_pair(open_cup, 1), enter_pair(open_cup, 2)
    url = reverse("tournaments:entry_page", args=[make_token("entry", second.pk)])
    assert "Place on the waiting list: 1." in client.get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("tournaments:entry_page", args=[make_token("entry", first.pk)]))
    assert Entry.objects.get(pk=second.pk).status == "received"


def test_an_individual_entry_becomes_a_player(open_cup, make_user,
                                              django_capture_on_commit_callbacks):
    from tournaments.entries.decisions import decide_entry
    from tournaments.entries.services import Person, create_entry

    solo = TournamentFactory(slug="solo", format="individual")
    EntrySettings.objects.create(tournament=solo, open=True, capacity=2)
    PlayerFactory(tournament=solo, name="Уже играет")
    user = make_user("solo1", email="solo1@example.org")
    entry = create_entry(solo.pk, Person(name="Одиночка"), Person(name="ignored"), user=user)
    assert entry.status == "received" and entry.partner_name == ""
    entry, _ = decide_entry(entry.pk, "accept")
    assert entry.player is not None and entry.player.name == "Одиночка" and entry.pair is None


def test_the_partner_found_by_profile_search(client, open_cup, make_user,
                                             django_capture_on_commit_callbacks):
    mate_login = make_user("mate", email="mate@example.org")
    mate = Profile.objects.create(name="Семён Дежнёв", club="Якутск", user=mate_login)
    PlayerFactory(tournament=TournamentFactory(slug="earlier"), name="Семён Дежнёв",
                  profile=mate)
    client.force_login(make_user("seeker", email="seeker@example.org"))
    url = reverse("tournaments:enter", args=[open_cup.slug])
    page = client.post(url, {"name": "Искатель", "partner_search": "дежнев", "find": "1"})
    assert "Семён Дежнёв — Якутск" in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"name": "Искатель", "partner_search": "дежнев",
                          "partner_profile": str(mate.pk)})
    entry = Entry.objects.get(email="seeker@example.org")
    assert entry.partner_profile == mate and entry.partner_email == "mate@example.org"
    assert any(m.to == ["mate@example.org"] for m in mail.outbox)
