"""Season tables from stored placings: write each tournament's placings, read a season's table.

A tournament's *placings* (``TournamentPlacing``) are its standings per person: the one
standings function (:func:`scoring.ranking.results.standings_table`) ranks the pairs or players, and
every entrant linked to a profile gets his line's place (shared as the standings share it),
his score (the standings' first column: match points, or rating points where the order ranks
by them, as in Kozel) and, in Kozel, his rating points (the standings' figure, made by the
engine's ``Kozel.party_ratings`` as the desk shows it). Both players of a pair get the pair's
line. The services that record a result (``scoring.party.ending.end_party``, ``evaluate_party``
for a change of a finished party) and the round flow (publishing, closing) call
:func:`schedule_refresh`, which sends :func:`refresh_placings_task` once per transaction on
commit; ``manage.py rebuild_placings`` rewrites them all. A season table is then read in a
constant number of queries (:func:`season_page`), whatever its size; pages cache it under
the placings' version (:func:`season_version`).
"""

from __future__ import annotations

import hashlib
import logging
import threading
from dataclasses import dataclass
from typing import Any

from celery import shared_task
from django.db import transaction
from django.db.models import Count, Max
from django.dispatch import Signal

from scoring.core.background import RecordTask
from scoring.models import (
    Pair,
    Player,
    Profile,
    Round,
    Season,
    Tournament,
    TournamentPlacing,
)
from scoring.ranking.loaders import counted_parties
from scoring.ranking.places import final_standings
from scoring.ranking.results import standings_table
from scoring.standings.season import (
    TIE_BREAKS,
    PlacingRow,
    SeasonLine,
    SeasonRule,
    season_table,
)

logger = logging.getLogger(__name__)

placings_refreshed = Signal()
"""Sent by :func:`refresh_placings_task` once a tournament's new placings are stored (with
``tournament_id``): the pages warm the tables of the seasons that count it."""


def _profiles_of(entrant: Pair | Player) -> list[int]:
    """The profiles of an entrant: a player's, or both players' of a pair (linked ones only)."""
    if isinstance(entrant, Player):
        return [entrant.profile_id] if entrant.profile_id else []
    players = (entrant.player1, entrant.player2)
    return [p.profile_id for p in players if p is not None and p.profile_id]


def placings_of(tournament: Tournament) -> list[TournamentPlacing]:
    """The tournament's placings as its standings give them now (unsaved rows): with a
    knockout stage, its bracket's places first, then the qualifying standings.

    A tournament without a counted party has none (its standings would put everyone first).
    A person entered twice keeps his better line.
    """
    if not counted_parties(tournament).exists():
        return []
    table = standings_table(tournament)
    rows = final_standings(tournament, table.rows)
    score_key = table.columns[0].key
    cfg = tournament.regulations.rules_config()
    kozel = tournament.engine.layout_for(cfg).accounts
    found: dict[int, TournamentPlacing] = {}
    for row in rows:
        for profile in _profiles_of(table.entrants[row.entrant]):
            if profile in found:
                continue
            found[profile] = TournamentPlacing(
                tournament=tournament,
                profile_id=profile,
                place=row.rank,
                shared=row.shared,
                score=float(row.metrics[score_key]),
                rating_points=float(row.metrics["rating_points"]) if kozel else None,
            )
    return list(found.values())


@transaction.atomic
def refresh_placings(tournament: Tournament) -> int:
    """Rewrite the tournament's stored placings from its standings; return how many."""
    rows = placings_of(tournament)
    TournamentPlacing.objects.filter(tournament=tournament).delete()
    TournamentPlacing.objects.bulk_create(rows, batch_size=1000)
    logger.info("placings refreshed: tournament=%s lines=%s", tournament.pk, len(rows))
    return len(rows)


@shared_task(base=RecordTask, name="scoring.seasons.refresh_placings_task")
def refresh_placings_task(tournament_id: int | None = None, round_id: int | None = None) -> int:
    """Refresh a tournament's placings if a season counts it (idempotent); return the lines.

    Given a round (a party's change names its round), the round's tournament.
    """
    if tournament_id is None and round_id is not None:
        tournament_id = Round.objects.filter(pk=round_id).values_list(
            "tournament_id", flat=True
        ).first()
    if tournament_id is None or not Season.tournaments.through.objects.filter(
        tournament_id=tournament_id
    ).exists():
        return 0
    tournament = Tournament.objects.select_related("regulations").get(pk=tournament_id)
    lines = refresh_placings(tournament)
    for receiver, error in placings_refreshed.send_robust(sender=Tournament,
                                                          tournament_id=tournament_id):
        if isinstance(error, Exception):  # the placings are stored; a page renders it later
            logger.error("after placings of tournament %s: %s failed: %r", tournament_id,
                         receiver, error)
    return lines


def schedule_refresh(*, tournament_id: int | None = None, round_id: int | None = None) -> None:
    """Refresh the placings after the current transaction commits, once per transaction.

    No query here: the task itself looks whether a season counts the tournament.
    """
    marker = ("placings", tournament_id, round_id)
    sent = _sent_after_commit()
    # The callbacks of the last commit have all run by now (they run as it commits): what
    # they sent no longer holds this transaction's back.
    sent.discard(marker)

    def send() -> None:
        if marker in sent:  # an earlier callback of the same commit sent it
            return
        sent.add(marker)
        refresh_placings_task.send_quietly((), {"tournament_id": tournament_id,
                                                "round_id": round_id})

    transaction.on_commit(send)


_THREAD = threading.local()


def _sent_after_commit() -> set[tuple[str, int | None, int | None]]:
    """The refreshes this thread's commit callbacks sent since a refresh was last scheduled."""
    found = getattr(_THREAD, "placings_sent", None)
    if found is None:
        found = _THREAD.placings_sent = set()
    return found


def season_rule(season: Season) -> SeasonRule:
    """The season's rule as the plain engine takes it (unknown tie-breaks left out)."""
    tie_breaks = tuple(key for key in (season.tie_breaks or TIE_BREAKS) if key in TIE_BREAKS)
    return SeasonRule(
        scoring=season.scoring,
        best_n=season.best_n,
        place_points=tuple(float(p) for p in season.place_points or ()),
        tie_breaks=tie_breaks,
    )


@dataclass(frozen=True)
class SeasonPage:
    """A season table ready for a page or the API: its tournaments, lines and people."""

    tournaments: list[dict[str, Any]]
    lines: list[SeasonLine]
    people: dict[int, tuple[str, str]]


def season_tournaments(season: Season, *, everything: bool = False) -> list[dict[str, Any]]:
    """The season's tournaments in date order (one query), as plain rows.

    Only those whose standings the public may see, unless ``everything`` (the season's
    organizer): a season does not show a hidden tournament's results.
    """
    qs = season.tournaments.all()
    if not everything:
        qs = qs.filter(public=True, public_standings=True)
    rows = qs.order_by("start_date", "id").values("id", "name", "slug", "start_date")
    return [dict(row) for row in rows]


def season_version(season: Season, tournament_ids: list[int]) -> str:
    """A digest that changes when any placing of these tournaments or the season's rule does."""
    agg = TournamentPlacing.objects.filter(tournament_id__in=tournament_ids).aggregate(
        n=Count("id"), m=Max("id"), t=Max("updated_at")
    )
    parts = (
        season.pk, season.scoring, season.best_n, season.place_points, season.tie_breaks,
        tournament_ids, agg["n"], agg["m"], agg["t"].isoformat() if agg["t"] else "",
    )
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def _placing_rows(ids: list[int]) -> list[PlacingRow]:
    """The placings of these tournaments as plain tuples in the engine's ``Placing`` order
    (one query: 50,000 rows as tuples, no model instances)."""
    qs = TournamentPlacing.objects.filter(tournament_id__in=ids).values_list(
        "tournament_id", "profile_id", "place", "score", "rating_points")
    return list(qs)


def season_page(season: Season, tournaments: list[dict[str, Any]] | None = None) -> SeasonPage:
    """The season's table from the stored placings: two queries (three without
    ``tournaments``): the placings, their people.

    Every person with a result under the season's rule, ranked; people sharing a place in
    name order.
    """
    if tournaments is None:
        tournaments = season_tournaments(season)
    ids = [t["id"] for t in tournaments]
    rule = season_rule(season)
    lines = season_table(_placing_rows(ids) if ids else [], rule, ids)
    people = {
        pk: (name, club) for pk, name, club in Profile.objects.filter(
            pk__in=[line.profile for line in lines]).values_list("id", "name", "club")
    } if lines else {}
    # People sharing a place in name order: lines equal on every key keep the order they
    # come in (both sorts are stable), so put them in name order, then rank them again.
    lines.sort(key=lambda line: (people[line.profile][0], line.profile))
    lines.sort(key=lambda line: line.key(rule.tie_breaks), reverse=True)
    return SeasonPage(tournaments, lines, people)
