"""Issue #13 item 1: Kozel in the seeds has no party clock; a clock stays possible as a setting.

Through the services on real parties: a Kozel tournament created from the preset has no
``party_minutes``; its party is started, deals are recorded, the clock sweeps run hours later
and never end it by time; the desk shows no clock and no "Time is up", the API says the clock
is null and refuses a time-up naming ``clock``, the party page and the protocol say nothing of
a time limit; the Goat ends it. A Kozel tournament with a clock set still ends by the clock.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from referee import tasks
from scoring.models import Party, PartyEvent, TournamentRole
from scoring.protocols import render_protocol
from scoring.signoff.content import build_protocol_data
from tests.api.openapi import served_schema
from tests.protocols.conftest import pdf_text
from tests.scoring.test_worked_examples_services import (
    ALEX,
    MASHA,
    OLYA,
    SERG,
    deal,
    fresh,
    kozel_party,
)

pytestmark = pytest.mark.django_db

#: Serg goes out; the accounts open: Masha 30, Alex 32, Olya 13, Serg 0.
FIRST = {"outcome": "domino", "went_out": SERG, "pips": {MASHA: 30, ALEX: 32, OLYA: 13}}
#: Masha goes out: Alex 52, Olya 33, Serg 20 (still nobody at 101).
SECOND = {"outcome": "domino", "went_out": MASHA, "pips": {ALEX: 20, OLYA: 20, SERG: 20}}
#: Masha goes out again: Alex 102, the Goat.
TO_THE_GOAT = {"outcome": "domino", "went_out": MASHA, "pips": {ALEX: 50, OLYA: 10, SERG: 5}}


def _referee(party: Party, organizer) -> tuple[APIClient, Client]:
    """The organizer as the party's referee: an API client and a browser client (English)."""
    TournamentRole.objects.create(tournament=party.round.tournament, user=organizer,
                                  role="referee")
    api = APIClient()
    api.force_authenticate(organizer)
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(organizer)
    return api, browser


def _hours_pass(party: Party, minutes: int) -> None:
    """The party started ``minutes`` ago (its clock, if any, has run that long)."""
    Party.objects.filter(pk=party.pk).update(
        started_at=timezone.now() - timedelta(minutes=minutes)
    )


def _desk(browser: Client, party: Party) -> str:
    return browser.get(reverse("referee:party", args=[party.pk])).content.decode()


def test_a_kozel_party_from_the_preset_has_no_clock_and_time_never_ends_it(organizer,
                                                                           tmp_path):
    """(rules.md K11) A Kozel party from the preset has no clock and time never ends it."""
    party = kozel_party(organizer)  # created from the Kozel preset
    regulations = party.round.tournament.regulations
    assert regulations.party_minutes is None
    assert regulations.rules_config().party_minutes is None
    api, browser = _referee(party, organizer)
    deal(party, **FIRST)

    _hours_pass(party, 5 * 60)  # five hours later the beat sweeps the clocks
    assert tasks.sweep_party_clocks() == []
    assert tasks.expire_party_clock(party.pk) is False
    refused = api.post(f"/api/v1/parties/{party.pk}/time-up/", {}, format="json")
    assert refused.status_code == 400 and "clock" in refused.json(), refused.json()
    assert fresh(party).time_expired_at is None
    assert not PartyEvent.objects.filter(party=party, kind="time_expired").exists()

    state = api.get(f"/api/v1/parties/{party.pk}/").json()
    assert state["clock"]["limit_seconds"] is None and state["clock"]["seconds_left"] is None
    assert state["phase"] == "continue"
    assert "time_expired" not in [alert["code"] for alert in state["alerts"]]
    schema = served_schema()["components"]["schemas"]["Clock"]["properties"]
    assert schema["limit_seconds"].get("nullable") is True  # the schema says so too
    desk = _desk(browser, party)
    assert 'id="btn-time-up"' not in desk and 'class="clock ref-clock"' not in desk
    assert 'id="btn-pause"' in desk  # the party can still be paused (a dispute)
    page = browser.get(party.get_absolute_url()).content.decode()
    assert 'class="clock' not in page and " min</span>" not in page
    assert "No party clock: the party ends by its rules" in page
    slug = party.round.tournament.slug
    tables = browser.get(reverse("referee:my_tables")).content.decode()
    overview = browser.get(reverse("referee:overview", args=[slug])).content.decode()
    hall = browser.get(reverse("tournaments:hall", args=[slug]), {"panel": "running-1"})
    assert party.pair_a.player1.name in tables and "mt-clock" not in tables
    assert 'class="clock"' not in overview
    hall = hall.content.decode()
    assert "Маша Masha" in hall and "data-seconds-left" not in hall  # its row, no clock

    deal(party, **SECOND)
    assert fresh(party).status == Party.Status.IN_PROGRESS  # time never made it the last deal
    deal(party, **TO_THE_GOAT)
    finished = fresh(party)
    assert (finished.status, finished.end_reason, finished.loser) == ("finished", "target", ALEX)
    data = build_protocol_data(finished)
    text = " ".join(pdf_text(render_protocol(data), tmp_path).split())
    assert data.end_reason.endswith(" · 101") and data.end_reason in text  # the Goat at 101


def test_a_kozel_party_with_a_clock_set_still_ends_by_the_clock(organizer):
    """(rules.md K11) A Kozel party with a clock set still ends by the clock."""
    party = kozel_party(organizer, party_minutes=30)  # the organizer sets a clock
    api, browser = _referee(party, organizer)
    state = api.get(f"/api/v1/parties/{party.pk}/").json()
    assert state["clock"]["limit_seconds"] == 30 * 60
    desk = _desk(browser, party)
    assert 'id="btn-time-up"' in desk and 'class="clock ref-clock"' in desk
    slug = party.round.tournament.slug
    assert "mt-clock" in browser.get(reverse("referee:my_tables")).content.decode()
    hall = browser.get(reverse("tournaments:hall", args=[slug]), {"panel": "running-1"})
    assert "data-seconds-left" in hall.content.decode()

    _hours_pass(party, 31)
    assert tasks.sweep_party_clocks() == [party.pk]
    assert fresh(party).time_expired_at is not None
    assert fresh(party).status == Party.Status.IN_PROGRESS  # the deal in play is the last
    deal(party, **FIRST)
    finished = fresh(party)
    assert (finished.status, finished.end_reason, finished.loser) == ("finished", "time", ALEX)


def test_the_organizer_sets_or_clears_a_kozel_clock_through_the_api(organizer):
    party = kozel_party(organizer)
    tournament = party.round.tournament
    api, _browser = _referee(party, organizer)
    url = f"/api/v1/tournaments/{tournament.pk}/regulations/"
    assert api.get(url).json()["party_minutes"] is None
    assert api.patch(url, {"party_minutes": 45}, format="json").json()["party_minutes"] == 45
    assert fresh(party).limit_seconds == 45 * 60
    cleared = api.patch(url, {"party_minutes": None}, format="json")
    assert cleared.status_code == 200 and cleared.json()["party_minutes"] is None
    assert fresh(party).has_clock is False
    bad = api.patch(url, {"party_minutes": 0}, format="json")
    assert bad.status_code == 400 and "party_minutes" in bad.json()
