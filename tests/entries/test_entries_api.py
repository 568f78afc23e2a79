"""The entries' API: a player enters himself, the organizer lists and decides his
tournament's entries, the entry settings; the draw's mail when a round is published."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import Entry, EntrySettings, Party, Table
from tests.factories import TournamentRoleFactory
from tournaments.entries.decisions import decide_entry, update_entry_settings
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_player_enters_himself_and_the_organizer_decides(
        open_cup, organizer, make_user, django_capture_on_commit_callbacks):
    update_entry_settings(open_cup.pk, capacity=1)
    first = make_user("first", email="first@example.org")
    second = make_user("second", email="second@example.org")
    body = {"tournament": open_cup.pk, "name": "Первый", "partner_name": "Напарник",
            "partner_email": "mate@example.org"}
    with django_capture_on_commit_callbacks(execute=True):
        made = _api(first).post("/api/v1/entries/", body, format="json")
    assert made.status_code == 201 and made.json()["status"] == "partner"
    other = {**body, "name": "Второй", "partner_email": "mate2@example.org",
             "partner_name": "Другой"}
    waits = _api(second).post("/api/v1/entries/", other, format="json")
    assert waits.json()["status"] == "waiting"
    theirs = _api(second).post("/api/v1/entries/", {**other, "email": "first@example.org"},
                               format="json")
    assert theirs.status_code == 400 and "email" in theirs.json()  # only himself
    assert [e["name"] for e in _api(second).get("/api/v1/entries/").json()["results"]] == [
        "Второй"]  # a player sees his own entries only
    listed = _api(organizer).get(f"/api/v1/entries/?tournament={open_cup.pk}").json()
    assert [e["status"] for e in listed["results"]] == ["partner", "waiting"]
    early = _api(organizer).post(f"/api/v1/entries/{made.json()['id']}/decide/",
                                 {"decision": "accept"}, format="json")
    assert early.status_code == 400 and "partner has not confirmed" in str(early.json())
    with django_capture_on_commit_callbacks(execute=True):
        refused = _api(organizer).post(f"/api/v1/entries/{made.json()['id']}/decide/",
                                       {"decision": "refuse", "note": "Нет мест"},
                                       format="json")
    assert refused.status_code == 200
    assert [e["name"] for e in refused.json()["promoted"]] == ["Второй"]
    assert any("Нет мест" in m.body for m in mail.outbox if "first@example.org" in m.to)


def test_another_organizer_cannot_decide(open_cup, enter_pair, make_user):
    entry = enter_pair(open_cup, 1)
    stranger = make_user("stranger-org", organizer=True)
    answer = _api(stranger).post(f"/api/v1/entries/{entry.pk}/decide/",
                                 {"decision": "accept"}, format="json")
    assert answer.status_code == 404 and Entry.objects.get(pk=entry.pk).status == "received"
    referee = make_user("cup-referee")
    TournamentRoleFactory(tournament=open_cup, user=referee, role="referee")
    answer = _api(referee).patch(f"/api/v1/entries/{entry.pk}/", {"note": "x"}, format="json")
    assert answer.status_code == 404


def test_entry_settings_through_the_api(open_cup, organizer, make_user):
    url = f"/api/v1/tournaments/{open_cup.pk}/entry-settings/"
    seen = APIClient().get(url).json()
    assert seen["state"] == "open" and seen["capacity"] == 16 and seen["places_taken"] == 0
    bad = _api(organizer).patch(url, {"rating_min": 1800, "rating_max": 1200}, format="json")
    assert bad.status_code == 400
    bad = _api(organizer).patch(url, {"disabled_mails": ["spam"]}, format="json")
    assert bad.status_code == 400 and "disabled_mails" in bad.json()
    good = _api(organizer).patch(url, {"capacity": 8, "disabled_mails": ["entry_received"]},
                                 format="json")
    assert good.status_code == 200 and good.json()["capacity"] == 8
    assert EntrySettings.objects.get(tournament=open_cup).disabled_mails == ["entry_received"]
    assert _api(make_user("nobody")).patch(url, {"capacity": 2}, format="json").status_code == 403


def test_the_draw_mails_each_entrant_his_table(open_cup, enter_pair,
                                               django_capture_on_commit_callbacks):
    for n in range(1, 5):
        decide_entry(enter_pair(open_cup, n).pk, "accept")
    for number in (1, 2):
        Table.objects.create(tournament=open_cup, number=number)
    rnd = rounds.create_round(open_cup.pk)
    draw_services.generate_draw(rnd.pk)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        rounds.publish_round(rnd.pk)
    assert len(mail.outbox) == 8  # four pairs of two, each to his own address
    party = Party.objects.filter(round=rnd, table__number=2).select_related("pair_a").first()
    entry = Entry.objects.get(pair=party.pair_a)
    to_him = [m for m in mail.outbox if m.to == [entry.partner_email]]
    assert "2" in to_him[0].body and reverse("tournaments:round", args=[
        open_cup.slug, 1]) in to_him[0].body


def test_the_tournament_page_says_how_to_enter(client, open_cup, enter_pair):
    update_entry_settings(open_cup.pk, capacity=1)
    page = client.get(open_cup.get_absolute_url()).content.decode()
    assert "How to enter" in page and "left: 1" in page
    assert reverse("tournaments:enter", args=[open_cup.slug]) in page
    enter_pair(open_cup, 1)
    enter_pair(open_cup, 2)
    page = client.get(open_cup.get_absolute_url()).content.decode()
    assert "left: 0" in page and "1 entry on the waiting list" in page
    update_entry_settings(open_cup.pk, open=False)
    assert "How to enter" not in client.get(open_cup.get_absolute_url()).content.decode()
    from datetime import timedelta

    from django.utils import timezone

    update_entry_settings(open_cup.pk, open=True, opens_at=timezone.now() - timedelta(days=2),
                          closes_at=timezone.now() - timedelta(days=1))
    page = client.get(open_cup.get_absolute_url()).content.decode()
    assert "Entries are closed." in page
