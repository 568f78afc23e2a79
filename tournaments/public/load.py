"""What a public page reads of its tournament, loaded once per request.

The conditional GET (``public_views.conditional``) loads the tournament, its rounds and its
results version for the page's ETag; the page then takes that load instead of reading them
again (``public_load``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from django.http import Http404, HttpRequest
from django_htmx.middleware import HtmxDetails

from scoring.access import permissions
from scoring.models import Round, TeamMatch, Tournament
from scoring.ranking.results import results_version
from tournaments.pages import tournament_for
from tournaments.timetable import Entry, timetable


def public_tournament(request: HttpRequest, slug: str, page: str) -> Tournament:
    """A tournament whose ``page`` the visitor may see (404 when hidden or switched off)."""
    tournament = tournament_for(request, slug)
    if not permissions.can_see_public_page(request.user, tournament, page):
        raise Http404
    return tournament


class PublicRequest(HttpRequest):
    """A public page's request: django-htmx's ``htmx``, and ``public_load`` and
    ``public_etag`` once the conditional GET has made that load and the page's ETag (read
    back with ``public_load``)."""

    htmx: HtmxDetails
    public_load: PublicLoad
    public_etag: str


@dataclass
class PublicLoad:
    """What a public page and its ETag read of the tournament, loaded once per request: the
    tournament with its regulations (and its entrants version), its rounds in order and its
    results version (a team event: its team matches' digest too)."""

    tournament: Tournament
    rounds: list[Round]
    version: str
    teams: str = ""

    lines: list[Entry] | None = field(default=None, repr=False)
    """The timetable, read once (``timetable_lines``)."""

    def timetable_lines(self) -> list[Entry]:
        """The tournament's timetable (its items: one query, the first time only)."""
        if self.lines is None:
            self.lines = timetable(self.tournament, self.rounds)
        return self.lines

    @property
    def published(self) -> list[Round]:
        """The rounds the public sees (not the drafts), in order."""
        return [rnd for rnd in self.rounds if rnd.status != Round.Status.DRAFT]


def load_public(request: HttpRequest, slug: str, page: str) -> PublicLoad:
    """Load a public page's tournament (404 when hidden), its rounds and results version
    (three queries); the page passes the version on (``standings_table(version=...)``)."""
    tournament = public_tournament(request, slug, page)
    rounds = list(tournament.rounds.order_by("number"))
    for rnd in rounds:
        rnd.tournament = tournament
    version = results_version(tournament)
    return PublicLoad(tournament, rounds, version, teams_version(tournament))


def teams_version(tournament: Tournament) -> str:
    """A team event's team matches as a digest (who meets whom, at which tables), which its
    pages show besides the results (one query); empty for other events. Its teams, pairs and
    players are the tournament's ``entrants_version`` (``scoring.roster``)."""
    if tournament.format != Tournament.Format.TEAMS:
        return ""
    matches = list(TeamMatch.objects.filter(round__tournament=tournament).order_by("pk")
                   .values_list("pk", "team_a_id", "team_b_id", "first_table"))
    return hashlib.sha256(repr(matches).encode()).hexdigest()[:16]


def public_load(request: HttpRequest, slug: str, page: str) -> PublicLoad:
    """The load the conditional GET already made for this request, else a new one."""
    found = getattr(request, "public_load", None)
    if isinstance(found, PublicLoad) and found.tournament.slug == slug:
        return found
    return load_public(request, slug, page)


def asked_round(request: HttpRequest, load: PublicLoad) -> int | None:
    """The round a standings page is asked for (``?after=``) when it is one of the published
    rounds, else None: the latest (a bad or unknown number is no error, only the default)."""
    try:
        after = int(request.GET["after"]) if request.GET.get("after") else None
    except ValueError:
        return None
    return after if after in {rnd.number for rnd in load.published} else None
