"""Season pages: the public season table, the list of seasons, the organizer's season form."""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.formats import date_format
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring.access import permissions
from scoring.core.errors import ServiceError
from scoring.models import Season
from scoring.ranking.seasons import season_page, season_tournaments, season_version
from tournaments.ranking.season_forms import TIE_BREAK_NAMES, SeasonForm
from tournaments.ranking.season_services import create_season, update_season
from tournaments.ranking.season_table import season_rows_html

TABLE_SECONDS = 15 * 60
"""How long a rendered table is kept (in the shared cache and in the process) under its key.

The key names the placings' version and the tournaments, read from the database on every
request, so a changed result shows at once (and the refresh renders it anew); only a
profile's renamed name or club waits for the kept table to expire: at most a quarter of an
hour, one cold rendering per season and language in that time."""

_RECENT: dict[str, tuple[float, SafeString]] = {}
"""The last tables this process rendered: a table of 50 tournaments × 1,000 players is a
megabyte that the shared cache need not send on every request."""
RECENT_TABLES = 8


def table_key(season: Season, tournaments: list[dict], version: str, organizer: bool) -> str:
    """The cache key of a season's rendered table: its placings' version, the tournaments
    shown, the language, the organizer's view or the public's."""
    shown = hashlib.sha256(repr((version, tournaments)).encode()).hexdigest()[:32]
    return f"season-table:{season.pk}:{shown}:{get_language()}:{organizer}"


def warm_tables(tournament_id: int) -> int:
    """Render the public table of every season counting the tournament, in every language,
    into the shared cache under its placings' new version; return how many were made.

    Called when a tournament's placings were refreshed, so that the first visitor after a
    result changed finds the table made."""
    made = 0
    for season in Season.objects.filter(tournaments__pk=tournament_id).distinct():
        tournaments = season_tournaments(season)
        version = season_version(season, [t["id"] for t in tournaments])
        for language, _name in settings.LANGUAGES:
            with translation.override(language):
                key = table_key(season, tournaments, version, False)
                if cache.get(key) is None:
                    shown = [dict(t) for t in tournaments]  # the rendering adds url and date
                    cache.set(key, season_table_html(season, shown), TABLE_SECONDS)
                    made += 1
    return made


def forget_recent_tables() -> None:
    """Drop the tables this process keeps (a cold rendering follows: the bench measures it)."""
    _RECENT.clear()


def _table(season: Season, tournaments: list[dict], key: str) -> SafeString:
    """The season's table: kept in this process, else in the shared cache, else rendered."""
    now = time.monotonic()
    kept = _RECENT.get(key)
    if kept is not None and kept[0] > now:
        return kept[1]
    table = cache.get(key)
    if table is None:
        table = season_table_html(season, tournaments)
        cache.set(key, table, TABLE_SECONDS)
    if len(_RECENT) >= RECENT_TABLES:
        _RECENT.pop(next(iter(_RECENT)))
    _RECENT[key] = (now + TABLE_SECONDS, table)
    return table


def season_list(request: HttpRequest) -> HttpResponse:
    """Public seasons, and the visitor's own (private ones too) when he organizes."""
    visible = Q(public=True)
    if request.user.is_authenticated:
        visible |= Q(created_by=request.user)
    seasons = Season.objects.all() if request.user.is_superuser else Season.objects.filter(
        visible)
    return render(request, "tournaments/seasons.html", {
        "seasons": seasons.order_by("-created_at", "name"),
        "can_create": permissions.can_create_season(request.user),
    })


def season_table(request: HttpRequest, slug: str) -> HttpResponse:
    """A season's public table, answered 304 while its placings and rule are unchanged.

    A constant number of queries: the season, its tournaments, the placings' version, and
    (when the table is not kept under that version) the placings and their people.
    """
    season = get_object_or_404(Season, slug=slug)
    if not permissions.can_see_season(request.user, season):
        raise Http404
    organizer = permissions.can_edit_season(request.user, season)
    tournaments = season_tournaments(season, everything=organizer)
    version = season_version(season, [t["id"] for t in tournaments])
    parts = (version, tournaments, season.name, season.public, organizer, request.user.pk,
             get_language(), request.get_full_path())
    etag = '"' + hashlib.sha256(repr(parts).encode()).hexdigest()[:32] + '"'
    response = get_conditional_response(request, etag=etag)
    if response is None:
        table = _table(season, tournaments, table_key(season, tournaments, version, organizer))
        response = render(request, "tournaments/season.html", {
            "season": season,
            "table": table,
            "can_edit": organizer,
            "tie_breaks": [TIE_BREAK_NAMES[k] for k in season.tie_breaks or []
                           if k in TIE_BREAK_NAMES],
            "place_points": ", ".join(f"{p:g}" for p in season.place_points or []),
        })
    if response.status_code in (200, 304):
        response["ETag"] = etag
        patch_cache_control(response, no_cache=True, private=True)
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


def season_table_html(season: Season, tournaments: list[dict]) -> SafeString:
    """The table and the list of tournaments, rendered once per placings' version."""
    page = season_page(season, tournaments)
    for t in tournaments:
        t["url"] = reverse("tournaments:standings", args=[t["slug"]])
        t["date"] = date_format(t["start_date"])
    return render_to_string("tournaments/_season_table.html", {
        "tournaments": tournaments, "rows": season_rows_html(page), "count": len(page.lines),
    })


def _form_page(request: HttpRequest, form: SeasonForm, title: str,
               season: Season | None = None) -> HttpResponse:
    """The season form's page."""
    return render(request, "tournaments/season_form.html",
                  {"form": form, "title": title, "season": season})


def _error(form: SeasonForm, err: ServiceError) -> None:
    """A service's refusal on the field it names (above the form otherwise)."""
    field = {"tie_breaks": "tie_break_1"}.get(err.field, err.field)
    form.add_error(field if field in form.fields else None, err.message)


@login_required
def season_create(request: HttpRequest) -> HttpResponse:
    """An organizer's new season of his tournaments."""
    if not permissions.can_create_season(request.user):
        raise PermissionDenied
    form = SeasonForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            season = create_season(actor=request.user, **form.service_fields())
        except ServiceError as err:
            _error(form, err)
        else:
            messages.success(request, _("The season was created."))
            return redirect(season.get_absolute_url())
    return _form_page(request, form, _("New season"))


@login_required
def season_edit(request: HttpRequest, slug: str) -> HttpResponse:
    """Change a season's rule, tie-breaks and tournaments (its organizer only)."""
    season = get_object_or_404(Season, slug=slug)
    if not permissions.can_edit_season(request.user, season):
        raise PermissionDenied
    form = SeasonForm(request.POST or None, user=request.user, season=season)
    if request.method == "POST" and form.is_valid():
        try:
            season = update_season(season.pk, actor=request.user, **form.service_fields())
        except ServiceError as err:
            _error(form, err)
        else:
            messages.success(request, _("The season was saved."))
            return redirect(season.get_absolute_url())
    return _form_page(request, form, _("Season: %(name)s") % {"name": season.name}, season)
