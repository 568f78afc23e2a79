"""The organizer's entry pages: the settings form (a refusal named on its field), choosing a
doubtful match's profile, then accepting the entry from the list."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Entry, EntrySettings, Pair, Profile
from tests.factories import PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db


def test_settings_page_saves_and_names_a_refusal(client, open_cup, organizer):
    client.force_login(organizer)
    url = reverse("tournaments:entry_settings", args=[open_cup.slug])
    form = {"open": "on", "mode": "alone", "capacity": "20", "confirm_hours": "12",
            "rating_min": "1800", "rating_max": "1200", "disabled_mails": ["entry_refused"]}
    page = client.post(url, form)
    assert page.status_code == 200 and "not below the lowest" in page.content.decode()
    form["rating_max"] = "2200"
    assert client.post(url, form).status_code == 302
    conf = EntrySettings.objects.get(tournament=open_cup)
    assert (conf.mode, conf.capacity, conf.disabled_mails) == ("alone", 20, ["entry_refused"])


def test_a_doubt_is_resolved_on_the_edit_page_then_accepted(
        client, open_cup, organizer, enter_pair):
    entry = enter_pair(open_cup, 1)
    namesakes = [Profile.objects.create(name="Партнёр 1", club=club) for club in ("А", "Б")]
    earlier = TournamentFactory(slug="earlier")  # public: the organizer sees its players
    for profile in namesakes:
        PlayerFactory(tournament=earlier, name=profile.name, profile=profile)
    Entry.objects.filter(pk=entry.pk).update(
        doubts={"partner_profile": [p.pk for p in namesakes]})
    client.force_login(organizer)
    manage = reverse("tournaments:entries_manage", args=[open_cup.slug])
    decide = reverse("tournaments:entry_decide", args=[open_cup.slug, entry.pk])
    client.post(decide, {"decision": "accept"})
    assert Entry.objects.get(pk=entry.pk).status == "received"  # refused: choose first
    edit = reverse("tournaments:entry_edit", args=[open_cup.slug, entry.pk])
    assert "Партнёр 1 — Б" in client.get(edit).content.decode()
    answer = client.post(edit, {"name": "Игрок 1", "email": "player1@example.org",
                                "partner_name": "Партнёр 1",
                                "partner_email": "partner1@example.org",
                                "partner_profile_choice": str(namesakes[1].pk)})
    assert answer.status_code == 302
    client.post(decide, {"decision": "accept"})
    entry.refresh_from_db()
    assert entry.status == "accepted"
    assert Pair.objects.get(pk=entry.pair_id).player2.profile == namesakes[1]
    assert "Игрок 1 / Партнёр 1" in client.get(manage).content.decode()
