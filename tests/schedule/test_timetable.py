"""A tournament's timetable: its feed, a round's start moved, its organizer's page, its pages."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from scoring.core.errors import ServiceError
from scoring.models import Round, TimetableItem
from tests.factories import PartyFactory, RoundFactory
from tournaments.schedule.services import create_item, move_round_start

pytestmark = pytest.mark.django_db
EKB = ZoneInfo("Asia/Yekaterinburg")


def at(hour: int, minute: int = 0, day: int = 14) -> datetime:
    """A moment of the tournament's day in Yekaterinburg."""
    return datetime(2026, 12, day, hour, minute, tzinfo=EKB)


@pytest.fixture
def planned(tournament):
    """Three rounds at 10:00, 12:00 and 14:30 (Yekaterinburg), a break and the prize-giving."""
    tournament.time_zone, tournament.venue, tournament.city = "Asia/Yekaterinburg", "ДК", "Екб"
    tournament.save()
    for number, start in ((1, at(10)), (2, at(12)), (3, at(14, 30))):
        RoundFactory(tournament=tournament, number=number, scheduled_start=start,
                     status="draft" if number > 1 else "published")
    create_item(tournament, kind="opening", starts_at=at(9, 30))
    create_item(tournament, kind="break", starts_at=at(13), ends_at=at(13, 30))
    create_item(tournament, kind="prizes", title="Награждение победителей", starts_at=at(17))
    return tournament


def test_the_timetable_feed_carries_each_round_in_the_tournaments_zone(client, planned):
    answer = client.get(reverse("tournaments:timetable_ics", args=[planned.slug]))
    assert answer["Content-Type"].startswith("text/calendar")
    feed = Calendar.from_ical(answer.content)
    events = {str(e["summary"]).split(" · ")[0]: e for e in feed.walk("VEVENT")}
    assert set(events) == {"Round 1", "Round 2", "Round 3", "Opening of the hall", "Break",
                           "Награждение победителей"}
    third = events["Round 3"]
    assert third["dtstart"].params["TZID"] == "Asia/Yekaterinburg"
    assert third.decoded("dtstart") == at(14, 30)
    assert third.decoded("dtstart").strftime("%H:%M") == "14:30"  # the hall's clock, not UTC
    assert events["Break"].decoded("dtend") == at(13, 30)
    assert [tz["tzid"] for tz in feed.walk("VTIMEZONE")] == ["Asia/Yekaterinburg"]
    assert str(third["location"]) == "ДК, Екб"


def test_a_hidden_tournaments_feed_is_not_found(client, planned):
    planned.public = False
    planned.save()
    assert client.get(reverse("tournaments:timetable_ics", args=[planned.slug])).status_code == 404


def test_moving_a_round_with_shift_later_moves_the_later_rounds_and_items(planned, organizer):
    second = planned.rounds.get(number=2)
    shift = move_round_start(second.pk, at(12, 20), shift_later=True, actor=organizer)
    assert shift.delta == timedelta(minutes=20)
    assert [r.number for r in shift.rounds] == [3]
    assert sorted(i.kind for i in shift.items) == ["break", "prizes"]
    starts = dict(planned.rounds.values_list("number", "scheduled_start"))
    assert starts == {1: at(10), 2: at(12, 20), 3: at(14, 50)}
    items = {i.kind: (i.starts_at, i.ends_at) for i in TimetableItem.objects.all()}
    assert items == {"opening": (at(9, 30), None), "break": (at(13, 20), at(13, 50)),
                     "prizes": (at(17, 20), None)}


def test_without_the_tick_only_the_round_moves(planned, organizer):
    shift = move_round_start(planned.rounds.get(number=2).pk, at(11), actor=organizer)
    assert (shift.delta, shift.rounds, shift.items) == (None, [], [])
    assert planned.rounds.get(number=3).scheduled_start == at(14, 30)
    assert TimetableItem.objects.get(kind="break").starts_at == at(13)


def test_a_started_round_keeps_its_start_and_nothing_moves(planned, organizer, make_party):
    first = planned.rounds.get(number=1)
    party = PartyFactory(round=first, table=planned.tables.first(),
                         pair_a=planned.pairs.all()[0], pair_b=planned.pairs.all()[1])
    from referee.services import start_party

    start_party(party.pk, actor=organizer)
    with pytest.raises(ServiceError) as refused:
        move_round_start(first.pk, at(10, 30), shift_later=True, actor=organizer)
    assert refused.value.field == "starts_at"
    assert planned.rounds.get(number=3).scheduled_start == at(14, 30)


def test_an_item_cannot_end_before_it_starts(planned):
    with pytest.raises(ServiceError) as refused:
        create_item(planned, kind="break", starts_at=at(13), ends_at=at(12))
    assert refused.value.field == "ends_at"


def test_the_tournament_page_shows_venue_dates_and_timetable(client, planned):
    html = client.get(planned.get_absolute_url()).content.decode()
    section = html.split('id="timetable"', 1)[1].split("</section>", 1)[0]
    assert "ДК, Екб" in section
    # in the tournament's zone, in time order
    order = [section.index(s) for s in ("09:30", "Round 1", "12:00", "13:00 – 13:30", "Break",
                                        "14:30", "Награждение победителей")]
    assert order == sorted(order)
    assert reverse("tournaments:timetable_ics", args=[planned.slug]) in section


def test_the_organizer_edits_the_timetable_on_its_page(client, planned, organizer):
    client.force_login(organizer)
    url = reverse("tournaments:timetable", args=[planned.slug])
    page = client.get(url).content.decode()
    assert 'value="2026-12-14T14:30"' in page  # round 3's start, in the tournament's zone
    answer = client.post(url, {"kind": "break", "title": "Обед", "starts_at": "2026-12-14T15:30",
                               "ends_at": "2026-12-14T16:00"})
    assert answer.status_code == 302
    lunch = TimetableItem.objects.get(title="Обед")
    assert lunch.starts_at == at(15, 30) and lunch.ends_at == at(16)
    client.post(reverse("tournaments:timetable_round", args=[planned.slug, 2]),
                {"r2-starts_at": "2026-12-14T12:10", "r2-shift_later": "on"})
    assert planned.rounds.get(number=3).scheduled_start == at(14, 40)
    assert TimetableItem.objects.get(pk=lunch.pk).starts_at == at(15, 40)
    client.post(reverse("tournaments:timetable_item", args=[planned.slug, lunch.pk]),
                {"kind": "break", "title": "Обед", "starts_at": "2026-12-14T15:00"})
    assert TimetableItem.objects.get(pk=lunch.pk).starts_at == at(15)
    wrong = client.post(url, {"kind": "break", "starts_at": "2026-12-14T15:00",
                              "ends_at": "2026-12-14T14:00"})
    assert wrong.status_code == 200 and "It cannot end before it starts." in wrong.content.decode()
    client.post(reverse("tournaments:timetable_item_delete", args=[planned.slug, lunch.pk]))
    assert not TimetableItem.objects.filter(pk=lunch.pk).exists()


def test_only_its_organizers_edit_the_timetable(client, planned, make_user):
    client.force_login(make_user("stranger"))
    url = reverse("tournaments:timetable", args=[planned.slug])
    assert client.get(url).status_code == 403
    assert client.post(url, {"kind": "break", "starts_at": "2026-12-14T15:30"}).status_code == 403
    item = TimetableItem.objects.get(kind="break")
    delete = reverse("tournaments:timetable_item_delete", args=[planned.slug, item.pk])
    assert client.post(delete).status_code == 403
    assert TimetableItem.objects.filter(pk=item.pk).exists()


def test_the_hall_counts_down_to_the_next_start(client, tournament):
    RoundFactory(tournament=tournament, number=1, status="finished")
    soon = timezone.now().replace(second=0, microsecond=0) + timedelta(minutes=13)
    RoundFactory(tournament=tournament, number=2, status="draft", scheduled_start=soon)
    html = client.get(reverse("tournaments:hall", args=[tournament.slug])).content.decode()
    local = timezone.localtime(soon, ZoneInfo(tournament.time_zone)).strftime("%H:%M")
    assert f"Round 2 starts at {local}" in html
    assert f'data-starts-at="{int(soon.timestamp())}"' in html
    assert "in 12 min" in html or "in 13 min" in html


def test_the_player_area_shows_the_next_rounds_start(client, tournament):
    soon = timezone.now() + timedelta(hours=1)
    RoundFactory(tournament=tournament, number=1, status="draft", scheduled_start=soon)
    player = tournament.players.first()
    html = client.get(reverse("tournaments:personal_area", args=[player.access_token]))
    assert 'id="next-start"' in html.content.decode()
    assert "Round 1 starts at" in html.content.decode()


def test_the_rounds_api_moves_the_later_ones_when_asked(planned, organizer):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(organizer)
    second = planned.rounds.get(number=2)
    answer = api.patch(f"/api/v1/rounds/{second.pk}/",
                       {"starts_at": "2026-12-14T12:30:00+05:00", "shift_later": True})
    assert answer.status_code == 200, answer.data
    assert answer.data["moved_rounds"] == [3] and len(answer.data["moved_items"]) == 2
    assert Round.objects.get(tournament=planned, number=3).scheduled_start == at(15)
    read = api.get(f"/api/v1/tournaments/{planned.pk}/timetable/").data
    assert read["time_zone"] == "Asia/Yekaterinburg"
    lines = read["lines"]
    assert [line["label"] for line in lines][:3] == ["Opening of the hall", "Round 1", "Round 2"]
    assert datetime.fromisoformat(lines[3]["starts_at"]) == at(13, 30)  # the break, moved
