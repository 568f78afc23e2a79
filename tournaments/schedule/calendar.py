"""The public calendar of tournaments: which ones it lists, its filters and its sections.

Only public tournaments are listed, for every visitor alike (what an anonymous visitor may see:
``permissions.visible_tournaments``); the page, the iCalendar feed and the API share the
filters (``filter_calendar``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Any, cast

from django import forms
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, QuerySet
from django.urls import reverse
from django.utils.dates import MONTHS_ALT
from django.utils.encoding import iri_to_uri
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from scoring.access import permissions
from scoring.models import Season, Tournament
from scoring.models.tournament import registered_rule_sets
from scoring.people.entries import entry_states

WHEN = {
    "upcoming": Tournament.Status.REGISTRATION,
    "running": Tournament.Status.RUNNING,
    "finished": Tournament.Status.FINISHED,
}
"""The calendar's sections, each the tournaments of one status."""

WHEN_CHOICES = [
    ("upcoming", _("Upcoming")),
    ("running", pgettext_lazy("calendar", "Running")),
    ("finished", pgettext_lazy("calendar", "Finished")),
]
FILTERS = ("when", "city", "rule_set", "format", "season")
"""The calendar's filters, the same GET parameters on the page, the feed and the API."""


def public_calendar() -> QuerySet[Tournament]:
    """The tournaments the calendar may list: those an anonymous visitor may see."""
    return permissions.visible_tournaments(AnonymousUser())


def public_seasons() -> QuerySet[Season]:
    """The seasons the calendar filters by: the public ones."""
    return Season.objects.filter(public=True).order_by("name")


def filter_calendar(qs: QuerySet[Tournament], chosen: dict[str, Any]) -> QuerySet[Tournament]:
    """The tournaments matching the chosen filters (an empty value filters nothing)."""
    if chosen.get("when"):
        qs = qs.filter(status=WHEN[chosen["when"]])
    if chosen.get("city"):
        qs = qs.filter(city=chosen["city"])
    if chosen.get("rule_set"):
        qs = qs.filter(rule_set=chosen["rule_set"])
    if chosen.get("format"):
        qs = qs.filter(format=chosen["format"])
    if chosen.get("season"):
        qs = qs.filter(seasons__slug=chosen["season"], seasons__public=True)
    return qs


def calendar_queryset(chosen: dict[str, Any]) -> QuerySet[Tournament]:
    """The listed tournaments with their rounds counted (``rounds_count``), soonest first:
    one query whatever their number."""
    qs = filter_calendar(public_calendar(), chosen).annotate(rounds_count=Count("rounds"))
    return qs.order_by("start_date", "name", "pk")


def calendar_rows(chosen: dict[str, Any]) -> list[Tournament]:
    """The listed tournaments (the feed's and the API's), as ``calendar_queryset``."""
    return list(calendar_queryset(chosen))


LINE_FIELDS = ("pk", "slug", "name", "status", "start_date", "end_date", "city", "venue",
               "rule_set", "format", "rounds_count")
"""What the page reads of each listed tournament (plain values: no model per row)."""


def page_rows(chosen: dict[str, Any]) -> list[dict[str, Any]]:
    """The calendar page's rows: ``LINE_FIELDS`` of each listed tournament (one query)."""
    return list(calendar_queryset(chosen).values(*LINE_FIELDS))


@dataclass(frozen=True)
class Line:
    """One tournament as the calendar page shows it, its words made once (200 rows of template
    lookups, date formats and plurals would cost the page most of its time)."""

    url: str
    name: str
    days: str
    place: str
    kind: str
    entry: str = "off"
    entry_label: str = ""


@dataclass(frozen=True)
class Section:
    """One part of the calendar page: its key, its heading and its lines."""

    key: str
    title: Any
    lines: list[Line]


ENTRY_LABELS = {
    "open": pgettext_lazy("calendar", "Entries open"),
    "waiting_list": pgettext_lazy("calendar", "Waiting list"),
    "not_yet": pgettext_lazy("calendar", "Entries open soon"),
    "closed": pgettext_lazy("calendar", "Entries closed"),
}
"""The calendar row's word for each entry state (``EntryState.summary``; "off" says nothing)."""


def _lines(rows: list[dict[str, Any]], entries: dict[int, str]) -> list[Line]:
    """The page's lines of these rows (each word translated and each month named once), with
    the entry states (``entries``: id → ``EntryState.summary``)."""
    labels = {key: str(label) for key, label in ENTRY_LABELS.items()}
    page = reverse("tournaments:detail", args=["-"])[:-2]
    games = {code: str(name) for code, name in registered_rule_sets()}
    kinds = {code: str(name) for code, name in Tournament.Format.choices}
    months = {number: str(name) for number, name in MONTHS_ALT.items()}

    def day(value: date) -> str:  # "j E Y": 14 декабря 2026
        return f"{value.day} {months[value.month]} {value.year}"

    @cache
    def counted(rounds: int) -> str:
        return ngettext("%(rounds)s round", "%(rounds)s rounds", rounds) % {"rounds": rounds}

    lines = []
    for row in rows:
        days = day(row["start_date"])
        if row["end_date"] and row["end_date"] != row["start_date"]:
            days += " – " + day(row["end_date"])
        kind = [games.get(row["rule_set"], row["rule_set"]), kinds.get(row["format"], "")]
        if row["rounds_count"]:
            kind.append(counted(row["rounds_count"]))
        entry = entries.get(row["pk"], "off")
        lines.append(Line(iri_to_uri(f"{page}{row['slug']}/"), row["name"], days,
                          " · ".join(p for p in (row["city"], row["venue"]) if p),
                          " · ".join(kind), entry, labels.get(entry, "")))
    return lines


def sections(rows: list[dict[str, Any]], when: str = "") -> list[Section]:
    """The rows (``page_rows``) split into upcoming (soonest first), running and finished
    (latest first); with ``when`` only that section. The upcoming and running rows show
    their entry state, read for all of them at once (as the "How to enter" card reads it)."""
    taking = [row["pk"] for row in rows if row["status"] != Tournament.Status.FINISHED]
    entries = {pk: found.summary for pk, found in entry_states(taking).items()}
    parts = []
    for key, title in WHEN_CHOICES:
        if when and key != when:
            continue
        found = [row for row in rows if row["status"] == WHEN[key]]
        parts.append(Section(key, title, _lines(found[::-1] if key == "finished" else found,
                                                 entries)))
    return parts


class CalendarFilterForm(forms.Form):
    """The calendar's filters (GET); each choice lists what the calendar holds."""

    when = forms.ChoiceField(label=_("When"), required=False,
                             choices=[("", _("All"))] + WHEN_CHOICES)
    city = forms.ChoiceField(label=_("City"), required=False)
    rule_set = forms.ChoiceField(label=_("Game"), required=False)
    format = forms.ChoiceField(label=_("Format"), required=False,
                               choices=[("", _("Any"))] + list(Tournament.Format.choices))
    season = forms.ChoiceField(label=_("Season"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cities = (public_calendar().exclude(city="").order_by("city")
                  .values_list("city", flat=True).distinct())
        choices = {
            "city": [("", _("Any")), *((c, c) for c in cities)],
            "rule_set": [("", _("Any")), *registered_rule_sets()],
            "season": [("", _("Any")), *public_seasons().values_list("slug", "name")],
        }
        for name, offered in choices.items():
            cast(forms.ChoiceField, self.fields[name]).choices = offered

    def chosen(self) -> dict[str, Any]:
        """The valid filters chosen (an unknown value is dropped, not an error)."""
        self.is_valid()
        return {name: self.cleaned_data.get(name, "") for name in FILTERS
                if name not in self.errors}
