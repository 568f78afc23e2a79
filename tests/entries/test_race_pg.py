"""Two entries racing for the last place on PostgreSQL: the tournament's row lock counts them
one after the other, so one gets the place and the other waits (never over the places)."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from scoring.models import Entry, EntrySettings
from scoring.people import entries as rules
from tests.factories import TournamentFactory
from tests.pg import ONLY_ON_POSTGRES
from tournaments.entries.services import Person, create_entry

pytestmark = [*ONLY_ON_POSTGRES, pytest.mark.django_db(transaction=True)]


def test_two_entries_for_the_last_place(make_user, monkeypatch):
    cup = TournamentFactory(slug="race", organizer=None)
    EntrySettings.objects.create(tournament=cup, open=True, capacity=1)
    users = [make_user(f"racer{n}", email=f"racer{n}@example.org") for n in range(2)]
    real = rules.places_taken

    def slow_count(tournament, conf):  # the count read, then a pause: the other one races
        taken = real(tournament, conf)
        time.sleep(0.5)
        return taken

    monkeypatch.setattr(rules, "places_taken", slow_count)
    start = threading.Barrier(2)

    def enter(n: int) -> None:
        start.wait()
        try:
            create_entry(cup.pk, Person(name=f"Гонщик {n}"),
                         Person(name=f"Штурман {n}", email=f"nav{n}@example.org"),
                         user=users[n])
        finally:
            connection.close()

    threads = [threading.Thread(target=enter, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(Entry.objects.values_list("status", flat=True)) == ["partner", "waiting"]
