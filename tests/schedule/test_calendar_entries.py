"""The calendar row says how entries stand (open, waiting list, closed), as the tournament's
"How to enter" card counts them, reading all rows' states in a constant number of queries."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring.models import EntrySettings
from tests.factories import PairFactory, TournamentFactory
from tournaments.setup.services import create_tournament

pytestmark = pytest.mark.django_db


def _row(html: str, name: str) -> str:
    """The calendar card of the tournament named ``name``."""
    return html.split(name, 1)[1].split("</li>", 1)[0]


def _cup(organizer, slug: str, *, capacity: int, pairs: int = 0, **settings) -> None:
    """An upcoming tournament taking ``capacity`` pairs, ``pairs`` of them registered."""
    cup = create_tournament(name=f"Кубок {slug}", slug=slug, organizer=organizer,
                            start_date=date(2026, 12, 20))
    EntrySettings.objects.create(tournament=cup, open=True, capacity=capacity, **settings)
    for _ in range(pairs):
        PairFactory(tournament=cup)


def test_each_row_shows_its_entry_state_as_the_tournament_page_does(client, organizer):
    _cup(organizer, "roomy", capacity=8, pairs=2)
    _cup(organizer, "full", capacity=2, pairs=2)
    _cup(organizer, "over", capacity=8, closes_at=timezone.now() - timedelta(hours=1))
    TournamentFactory(name="Кубок quiet", slug="quiet", organizer=organizer)
    html = client.get(reverse("tournaments:calendar"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Entries open" in _row(html, "Кубок roomy")
    assert "Waiting list" in _row(html, "Кубок full")
    assert "Entries closed" in _row(html, "Кубок over")
    assert "entry-state" not in _row(html, "Кубок quiet")
    card = client.get(reverse("tournaments:detail", args=["full"]),
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Enter the waiting list" in card  # the card says the same: no place left
    roomy = client.get(reverse("tournaments:detail", args=["roomy"]),
                       HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Enter the tournament" in roomy


def test_the_entry_states_cost_the_same_queries_for_many_rows(client, organizer):
    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            assert client.get(reverse("tournaments:calendar")).status_code == 200
        return len(seen)

    _cup(organizer, "first", capacity=4, pairs=1)
    few = queries()
    for k in range(10):
        _cup(organizer, f"more-{k}", capacity=4, pairs=k % 5)
    assert queries() == few
