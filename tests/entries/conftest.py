"""Fixtures of the online entries: a tournament taking entries, players with logins."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.models import EntrySettings
from tests.factories import TournamentFactory
from tournaments.entries.services import Person, create_entry

_counter = itertools.count(1)


@pytest.fixture
def open_cup(organizer):
    """A pairs tournament (no entrants yet) taking 16 pairs on the site, open since an hour."""
    t = TournamentFactory(name="Открытый кубок", slug=f"open-{next(_counter)}",
                          organizer=organizer, language="ru")
    EntrySettings.objects.create(tournament=t, open=True, capacity=16,
                                 opens_at=timezone.now() - timedelta(hours=1),
                                 closes_at=timezone.now() + timedelta(days=7))
    return t


@pytest.fixture
def enter_pair(make_user, django_capture_on_commit_callbacks):
    """Enter a pair as a new logged-in player (``n`` names them); the entry."""

    def enter(tournament, n: int, *, confirm: bool = True):
        user = make_user(f"player{n}", email=f"player{n}@example.org")
        with django_capture_on_commit_callbacks(execute=True):
            entry = create_entry(tournament.pk, Person(name=f"Игрок {n}"),
                                 Person(name=f"Партнёр {n}", email=f"partner{n}@example.org"),
                                 user=user)
        if confirm:
            from tournaments.entries.services import confirm_partner
            from tournaments.entries.tokens import make_token

            with django_capture_on_commit_callbacks(execute=True):
                entry = confirm_partner(make_token("partner", entry.pk))
        return entry

    return enter
