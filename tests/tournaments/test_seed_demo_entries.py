"""The demo's spring cup (``seed_demo``): entries open with a waiting list, a timetable and
check-in open, so that the calendar and the tournament's pages have something to show."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core import mail
from django.urls import reverse

from scoring.models import Entry, Tournament
from tournaments.checkin import services as checkin
from tournaments.management.commands.seed_demo import Command
from tournaments.management.demo_entries import ACCEPTED, ENTRIES_SLUG, PAIRS, build_entries_cup

pytestmark = pytest.mark.django_db


def test_the_spring_cup_takes_entries_has_a_timetable_and_check_in_open(
        client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        cup = build_entries_cup(Command(stdout=StringIO()))
    statuses = list(Entry.objects.filter(tournament=cup).values_list("status", flat=True))
    assert statuses.count(Entry.Status.ACCEPTED) == ACCEPTED
    assert statuses.count(Entry.Status.WAITING) == 2 and len(statuses) == len(PAIRS)
    assert cup.status == Tournament.Status.REGISTRATION
    window = checkin.current_window(cup)
    assert window is not None and window.is_open()
    # the accepted pairs' players were told that check-in is open
    told = {a for m in mail.outbox if "отметка" in m.subject for a in m.to}
    assert len(told) == 2 * ACCEPTED

    calendar = client.get(reverse("tournaments:calendar"), HTTP_ACCEPT_LANGUAGE="en")
    row = calendar.content.decode().split("Spring Cup", 1)[1].split("</li>", 1)[0]
    assert "Waiting list" in row
    page = client.get(reverse("tournaments:detail", args=[ENTRIES_SLUG]),
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Enter the waiting list" in page
    timetable = page.split('id="timetable"', 1)[1]
    for shown in ("Opening of the hall", "Round 1", "Break", "Prize-giving"):
        assert shown in timetable
