"""My tables: the referee's home, his parties of the live round of every tournament he referees.

The rows come from ``referee.overview.round_overview`` (the same state, clocks and alerts as the
overview of a round and the API); this module only picks the live rounds and lays the rows out
by name: the two sides' names with their points (each player's where every player keeps his
own score), never "Pair A".
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from referee import overview
from scoring.access import permissions
from scoring.core.web import page_or_fragment
from scoring.models import Party, Round

LIVE_ROUND = (Round.Status.PUBLISHED, Round.Status.IN_PROGRESS)
"""A round is live from its publication until it is closed."""


def live_rounds(user: Any) -> list[Round]:
    """The live round of every tournament the user referees, by tournament name."""
    rounds = (
        Round.objects.filter(
            tournament__in=permissions.refereed_tournaments(user), status__in=LIVE_ROUND
        )
        .select_related("tournament__regulations")
        .order_by("tournament__name", "tournament_id", "number")
    )
    latest: dict[int, Round] = {}
    for rnd in rounds:
        latest[rnd.tournament_id] = rnd  # the highest number of a tournament wins
    return list(latest.values())


def clock_text(seconds: int | None) -> str:
    """Seconds left as the clocks show them: "12:05", "−0:40" after the limit."""
    if seconds is None:
        return ""
    sign = "−" if seconds < 0 else ""
    minutes, rest = divmod(abs(seconds), 60)
    return f"{sign}{minutes}:{rest:02d}"


def _side(row: dict[str, Any], key: str) -> dict[str, Any]:
    """One side of a party row: its name and points, its players' points where they score."""
    pair = row["pairs"][key]
    points = row["totals"]["points"]
    by_seat = row["scored_by"] == "seat"
    winner, match = row["winner"] or "", row["match"]
    return {
        "key": key,
        "name": pair["name"],
        "points": None if by_seat else points.get(key, 0),
        "games": match["game_wins"].get(key, 0) if match and row["clock"]["started_at"] else None,
        "players": [
            {"seat": player["seat"], "name": player["name"],
             "points": points.get(player["seat"], 0)}
            for player in pair["players"]
        ] if by_seat else [],
        "won": bool(winner) and winner[0] == key,
    }


def table_row(row: dict[str, Any]) -> dict[str, Any]:
    """A row of ``overview.round_overview`` as My tables shows it (sides by name, the clock's
    text)."""
    seconds = row["clock"]["seconds_left"]
    running = (
        row["clock"]["started_at"] is not None
        and seconds is not None  # None: the party has no clock
        and row["status"] != Party.Status.FINISHED
    )
    return {
        "id": row["id"],
        "table_number": row["table_number"],
        "status": row["status"],
        "status_label": Party.Status(row["status"]).label,
        "sides": [_side(row, "a"), _side(row, "b")],
        "clock": {
            "running": running,
            "seconds_left": seconds,
            "text": clock_text(seconds),
            "paused": row["clock"]["paused"],
        },
        "alerts": row["alerts"],
    }


def my_tables(user: Any) -> list[dict[str, Any]]:
    """Per tournament the user referees with a live round: its parties he runs (no byes)."""
    found = []
    for rnd in live_rounds(user):
        tournament = rnd.tournament
        data = overview.round_overview(user, tournament, rnd.number)
        parties = [table_row(row) for row in data["parties"] if row["pairs"]["b"] is not None]
        found.append(
            {
                "tournament": tournament,
                "round": rnd,
                "every_table": permissions.referee_table_ids(user, tournament) is None,
                "parties": parties,
                "alert_count": sum(len(row["alerts"]) for row in parties),
            }
        )
    return found


@login_required
@require_GET
def my_tables_page(request: HttpRequest) -> HttpResponse:
    """The referee's home: his tables of the live rounds, refreshed in place by htmx."""
    return page_or_fragment(
        request,
        "referee/my_tables.html",
        "referee/_my_tables.html",
        {"groups": my_tables(request.user)},
    )
