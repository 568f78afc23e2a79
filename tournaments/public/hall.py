"""The hall screen for a projector: the draw, the running parties, the standings."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse

from scoring.access import permissions
from scoring.core.web import page_or_fragment
from scoring.models import Party
from scoring.ranking.results import standings_table
from scoring.stages.common import stage_state
from tournaments.pages import LIVE
from tournaments.public.bracket import tournament_bracket
from tournaments.public.common import current_round
from tournaments.public.load import public_load
from tournaments.public.table_map import map_tables
from tournaments.public.team_rows import SCORE_ABBRS, round_matches, team_lines
from tournaments.rounds.team_draws import is_team_event
from tournaments.timetable import minutes_until, next_start

HALL_TABLES_PER_PAGE = 12
HALL_LINES_PER_PAGE = 12
HALL_MATCHES_PER_PAGE = 6
HALL_STANDINGS_PAGES = 2
HALL_SECONDS = 15
CLOCK_FIELDS = ("started_at", "paused_at", "paused_seconds", "finished_at")


# -- the hall screen ---------------------------------------------------------------------


@dataclass(frozen=True)
class Panel:
    """One screenful of the hall screen: what it shows and which page of it."""

    kind: str
    page: int = 1
    pages: int = 1

    @property
    def key(self) -> str:
        """The panel's name in the address, e.g. ``draw-2``."""
        return f"{self.kind}-{self.page}"

    def window(self, items: Sequence[Any], size: int) -> Sequence[Any]:
        """The items of this page."""
        return items[(self.page - 1) * size: self.page * size]


def _pages(kind: str, count: int, size: int, most: int | None = None) -> list[Panel]:
    """The panels that show ``count`` items ``size`` at a time (at most ``most`` pages)."""
    pages = math.ceil(count / size)
    if most is not None:
        pages = min(pages, most)
    return [Panel(kind, page, pages) for page in range(1, pages + 1)]


def _hall_seconds(request: HttpRequest) -> int:
    """How long each panel stays (``?seconds=``, 5 to 300)."""
    try:
        seconds = int(request.GET.get("seconds", HALL_SECONDS))
    except ValueError:
        seconds = HALL_SECONDS
    return min(max(seconds, 5), 300)


def hall(request: HttpRequest, slug: str) -> HttpResponse:
    """The hall screen: the draw, the running parties with time left, the finals' bracket and
    the standings (a team event: its team matches and the team standings).

    Each poll (htmx, every few seconds) brings the next panel, with fresh data.
    """
    load = public_load(request, slug, "hall")
    tournament = load.tournament
    user = request.user
    rnd = current_round(tournament, load.rounds)
    live = rnd is not None and rnd.status in LIVE
    show_draw = permissions.can_see_public_page(user, tournament, "draw")
    rows = map_tables(tournament, rnd) if rnd is not None and live and show_draw else []
    running = [row for row in rows if row["status"] == Party.Status.IN_PROGRESS]
    show_standings = permissions.can_see_public_page(user, tournament, "standings")
    teams = is_team_event(tournament)
    # a team event shows its team matches and team standings instead of tables and pairs
    matches = round_matches(tournament, rnd, rows) if teams and rows and rnd else []
    team_table = team_lines(tournament) if teams and show_standings else []
    table = (
        standings_table(tournament, version=load.version)
        if show_standings and not teams
        else None
    )
    lines = table.lines() if table else []
    knockout = show_standings and bool(stage_state(tournament).get("has_knockout"))
    panels = [
        *_pages("draw", 0 if teams else len(rows), HALL_TABLES_PER_PAGE),
        *_pages("matches", len(matches), HALL_MATCHES_PER_PAGE),
        *_pages("running", len(running), HALL_LINES_PER_PAGE),
        *_pages("bracket", int(knockout), 1),
        *_pages("standings", len(lines), HALL_LINES_PER_PAGE, HALL_STANDINGS_PAGES),
        *_pages("teams", len(team_table), HALL_LINES_PER_PAGE, HALL_STANDINGS_PAGES),
    ] or [Panel("welcome")]
    panel = next((p for p in panels if p.key == request.GET.get("panel")), panels[0])
    following = panels[(panels.index(panel) + 1) % len(panels)]
    seconds = _hall_seconds(request)
    for row in panel.window(running, HALL_LINES_PER_PAGE) if panel.kind == "running" else ():
        clock = Party(round=rnd, **{f: row[f] for f in CLOCK_FIELDS})
        left = clock.seconds_left()  # None: the party has no clock
        row["seconds_left"] = None if left is None else int(left)
    bracket = tournament_bracket(tournament)[1] if panel.kind == "bracket" else None
    coming = next_start(load.timetable_lines())
    context = {
        "coming": coming,
        "coming_minutes": minutes_until(coming.starts_at) if coming else None,
        "tournament": tournament,
        "round": rnd,
        "panel": panel,
        "position": panels.index(panel) + 1,
        "dots": range(1, len(panels) + 1),
        "next_url": f"{request.path}?panel={following.key}&seconds={seconds}",
        "live_url": f"{request.path}?panel={panel.key}&seconds={seconds}",
        "seconds": seconds,
        "rows": panel.window(rows, HALL_TABLES_PER_PAGE) if panel.kind == "draw" else [],
        "running": panel.window(running, HALL_LINES_PER_PAGE),
        "table": table,
        "sheet": bracket,
        "lines": panel.window(lines, HALL_LINES_PER_PAGE) if panel.kind == "standings" else [],
        "matches": panel.window(matches, HALL_MATCHES_PER_PAGE)
        if panel.kind == "matches" else [],
        "team_lines": panel.window(team_table, HALL_LINES_PER_PAGE)
        if panel.kind == "teams" else [],
        "score_abbr": SCORE_ABBRS.get(tournament.team_scoring, ""),
    }
    return page_or_fragment(request, "public/hall.html", "public/_hall_panel.html", context)
