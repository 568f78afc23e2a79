"""The tournament file carries the timetable's items."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from scoring.models import TimetableItem
from tournaments.schedule.services import create_item
from tournaments.transfer import archive
from tournaments.transfer.archive import import_tournament

pytestmark = pytest.mark.django_db


def test_the_tournament_file_carries_the_timetable(tournament):
    moment = datetime(2026, 12, 14, 13, 0, tzinfo=ZoneInfo("Europe/Moscow"))
    create_item(tournament, kind="break", title="Обед", starts_at=moment,
                ends_at=moment.replace(hour=14))
    create_item(tournament, kind="prizes", starts_at=moment.replace(hour=18))
    data = archive.export_bytes(tournament)
    imported = import_tournament(data, slug="copy-of-cup")
    items = list(imported.timetable_items.order_by("starts_at")
                 .values_list("kind", "title", "starts_at", "ends_at"))
    assert items == [("break", "Обед", moment, moment.replace(hour=14)),
                     ("prizes", "", moment.replace(hour=18), None)]
    assert TimetableItem.objects.filter(tournament=tournament).count() == 2  # the source stays


def test_a_file_of_before_timetables_still_imports(tournament):
    import json

    doc = json.loads(archive.export_bytes(tournament))
    del doc["timetable"]  # a file written before the timetable existed
    imported = import_tournament(json.dumps(doc).encode(), slug="older-file")
    assert imported.timetable_items.count() == 0
    assert imported.pairs.count() == tournament.pairs.count()
