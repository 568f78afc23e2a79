"""iCalendar feeds (the ``icalendar`` package): the calendar of tournaments and one timetable."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from django.utils import timezone
from icalendar import Calendar, Event

from scoring.core.timezones import zone_named
from scoring.models import Tournament
from tournaments.timetable import Entry

PRODID = "-//Domino tournaments//Calendar//EN"
ROUND_HOURS = 2
"""How long a round's event lasts in a calendar app when nothing says (a round has no end)."""


def _calendar(name: str) -> Calendar:
    """An empty feed with its name."""
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", name)
    return cal


def _event(uid: str, summary: str, url: str, stamp: datetime) -> Event:
    """An event with what every event carries."""
    event = Event()
    event.add("uid", uid)
    event.add("summary", summary)
    event.add("url", url)
    event.add("dtstamp", stamp)
    return event


def calendar_feed(tournaments: Iterable[Tournament], base_url: str, name: str) -> bytes:
    """The calendar as iCalendar: one all-day event per tournament, its days and place."""
    cal = _calendar(name)
    stamp = timezone.now().astimezone(UTC)
    host = base_url.split("//", 1)[-1].split("/", 1)[0] or "domino"
    for tournament in tournaments:
        event = _event(f"tournament-{tournament.pk}@{host}", tournament.name,
                       base_url + tournament.get_absolute_url(), stamp)
        event.add("dtstart", tournament.start_date)
        last = tournament.end_date or tournament.start_date
        event.add("dtend", max(last, tournament.start_date) + timedelta(days=1))
        place = ", ".join(p for p in (tournament.venue, tournament.city) if p)
        if place:
            event.add("location", place)
        cal.add_component(event)
    return cal.to_ical()


def timetable_feed(tournament: Tournament, lines: Iterable[Entry], base_url: str) -> bytes:
    """One tournament's timetable as iCalendar: one event per round and per item, its times in
    the tournament's time zone (TZID, with the zone's VTIMEZONE)."""
    cal = _calendar(tournament.name)
    zone = zone_named(tournament.time_zone) or UTC
    stamp = timezone.now().astimezone(UTC)
    host = base_url.split("//", 1)[-1].split("/", 1)[0] or "domino"
    url = base_url + tournament.get_absolute_url()
    place = ", ".join(p for p in (tournament.venue, tournament.city) if p)
    for line in lines:
        event = _event(f"tournament-{tournament.pk}-{line.uid}@{host}",
                       f"{line.label} · {tournament.name}", url, stamp)
        start = line.starts_at.astimezone(zone)
        event.add("dtstart", start)
        if line.ends_at is not None:
            event.add("dtend", line.ends_at.astimezone(zone))
        elif line.kind == "round":
            event.add("dtend", start + timedelta(hours=ROUND_HOURS))
        if place:
            event.add("location", place)
        cal.add_component(event)
    cal.add_missing_timezones()
    return cal.to_ical()
