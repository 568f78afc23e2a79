"""A rating list's input from the database: its tournaments in period order and their parties.

The parties' winners come from :func:`scoring.ranking.loaders.load_party_results`, the function the
standings use, so a list rates the results every page shows. One rating period is one
tournament, in date order. A bye is no game; a forfeit is not rated (no game was played);
entrants without a profile are not rated, nor are games against them. Pair lists rate the
fixed pairs of pairs tournaments (an individual tournament's pairs change every round).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.core.errors import ServiceError
from scoring.models import Player, RatingEntry, RatingList, Tournament
from scoring.ranking.loaders import (
    FORFEIT_REASONS,
    counted_parties,
    load_party_results,
    two_sided,
)
from scoring.ratings import (
    HistoryRow,
    RatedParty,
    RatingParameters,
    compute_history,
    parameters_for,
)
from scoring.rules.config import party_side
from scoring.standings.types import Side


@dataclass(frozen=True)
class RatedField:
    """A list's input: its tournaments in period order and the rated parties of each period
    from ``first`` on (``periods[0]`` is period ``first``)."""

    tournaments: list[Tournament]
    periods: list[list[RatedParty]]
    first: int = 1


def list_parameters(rating_list: RatingList) -> RatingParameters:
    """The engine's parameters of the list; bad JSON is a ServiceError on ``parameters``."""
    try:
        return parameters_for(rating_list.system, rating_list.parameters)
    except ValueError as err:
        raise ServiceError("parameters", str(err)) from err


def rated_tournaments(rating_list: RatingList) -> list[Tournament]:
    """The list's tournaments in rating-period order: by start date, then id."""
    return list(
        rating_list.tournaments.select_related("regulations").order_by("start_date", "id")
    )


def _players(side: Side) -> tuple[int, ...]:
    """A side's player ids: results read ``per_player`` name every side by its players."""
    if not isinstance(side, tuple):
        raise TypeError(f"a side of players expected, got {side!r}")
    return side


def _side_index(winner: Side, sides: Sequence[tuple[int, ...]]) -> int | None:
    """The index of the winning side: the standings name it by tuple or by a player in it."""
    for index, side in enumerate(sides):
        if winner == side or winner in side:
            return index
    return None


def _subject_sides(
    sides: Sequence[tuple[int, ...]], profile_of: dict[int, int], pairs: bool
) -> list[tuple[str, ...] | None]:
    """The sides as subject keys; None where a side cannot be rated (a player lacks a profile)."""
    out: list[tuple[str, ...] | None] = []
    for side in sides:
        profiles = [profile_of.get(player) for player in side]
        if pairs:
            if None in profiles or not profiles:
                out.append(None)
            else:
                out.append(("+".join(str(p) for p in sorted(profiles)),))  # type: ignore[type-var]
        else:
            known = tuple(str(p) for p in profiles if p is not None)
            out.append(known or None)
    return out


def tournament_parties(
    tournament: Tournament, profile_of: dict[int, int], *, pairs: bool
) -> list[RatedParty]:
    """The rated parties of one tournament (its counted parties, as the standings read them,
    and its knockout parties)."""
    if pairs and tournament.format == Tournament.Format.INDIVIDUAL:
        return []
    parties: list[RatedParty] = []
    for result in load_party_results(tournament, per_player=True, knockout=True):
        if result.b is None or result.forfeit:
            continue
        if result.solo and result.own:
            sides: list[tuple[int, ...]] = [(entrant,) for entrant in sorted(result.own)]
        else:
            sides = [_players(result.a), _players(result.b)]
        winner = None if result.winner is None else _side_index(result.winner, sides)
        keyed = _subject_sides(sides, profile_of, pairs)
        rated = [(side, i) for i, side in enumerate(keyed) if side is not None]
        if len(rated) < 2 or (winner is not None and keyed[winner] is None):
            continue
        index = {i: n for n, (_side, i) in enumerate(rated)}
        parties.append(RatedParty(
            tuple(side for side, _i in rated), None if winner is None else index[winner]
        ))
    return parties


def rated_field(rating_list: RatingList, tournaments: list[Tournament] | None = None,
                first: int = 1) -> RatedField:
    """Read the list's input from period ``first`` on (``tournaments``: the list's, in period
    order, when read already): the parties of two sides in one query, each tournament of
    Kozel or each for himself as the standings read it."""
    if tournaments is None:
        tournaments = rated_tournaments(rating_list)
    read = tournaments[first - 1:]
    profile_of = dict(
        Player.objects.filter(tournament__in=read, profile__isnull=False)
        .values_list("id", "profile_id")
    )
    pairs = rating_list.subject == RatingList.Subject.PAIRS
    if pairs:
        read = [t for t in read if t.format != Tournament.Format.INDIVIDUAL]
    plain = _two_sided_parties([t for t in read if two_sided(t)], profile_of, pairs)
    periods = [
        plain[t.pk] if t.pk in plain else tournament_parties(t, profile_of, pairs=pairs)
        for t in tournaments[first - 1:]
    ]
    return RatedField(tournaments, periods, first)


def _two_sided_parties(tournaments: list[Tournament], profile_of: dict[int, int], pairs: bool
                       ) -> dict[int, list[RatedParty]]:
    """The rated parties of tournaments of two sides (:func:`two_sided`) in one query, by
    tournament: as :func:`tournament_parties` reads them, the winner from the winner field."""
    out: dict[int, list[RatedParty]] = {t.pk: [] for t in tournaments}
    if not tournaments:
        return out
    key_of = {} if pairs else {player: str(profile) for player, profile in profile_of.items()}
    rows = (
        counted_parties([t.pk for t in tournaments], knockout=True)
        .filter(pair_b__isnull=False).exclude(end_reason__in=FORFEIT_REASONS).order_by()
        .values_list("round__tournament_id", "pair_a__player1_id", "pair_a__player2_id",
                     "pair_b__player1_id", "pair_b__player2_id", "winner")
    )
    won_of: dict[str, int | None] = {}
    for tournament_id, a1, a2, b1, b2, winner in rows:
        side_a: tuple[str, ...] | None
        side_b: tuple[str, ...] | None
        if pairs:
            side_a = _pair_key(a1, a2, profile_of)
            side_b = _pair_key(b1, b2, profile_of)
        else:
            side_a = tuple(key_of[p] for p in (a1, a2) if p in key_of) or None
            side_b = tuple(key_of[p] for p in (b1, b2) if p in key_of) or None
        if side_a is None or side_b is None:
            continue
        won = won_of.get(winner, -2)
        if won == -2:
            won = won_of[winner] = {"a": 0, "b": 1}.get(party_side(winner))
        out[tournament_id].append(RatedParty((side_a, side_b), won))
    return out


def _pair_key(first: int | None, second: int | None, profile_of: dict[int, int]
              ) -> tuple[str] | None:
    """A fixed pair's subject key (its profiles, ascending, joined by "+"); None unless both
    of its players have a profile."""
    profiles = [profile_of.get(player) for player in (first, second) if player is not None]
    if not profiles or None in profiles:
        return None
    return ("+".join(str(p) for p in sorted(profiles)),)  # type: ignore[type-var]


def compute_list(rating_list: RatingList) -> tuple[RatedField, list[HistoryRow]]:
    """The list's history computed from scratch from the stored results (nothing written)."""
    parameters = list_parameters(rating_list)
    field = rated_field(rating_list)
    return field, compute_history(rating_list.system, parameters, field.periods)


VALUES = ("sequence", "rating", "deviation", "volatility", "games", "score", "mu", "phi",
          "current")
"""A stored row's values (its key: the subject and the tournament)."""


def entry_values(row: HistoryRow, last: dict[str, int]) -> tuple[Any, ...]:
    """A history row's :data:`VALUES` (``last``: each subject's last period, his current)."""
    return (row.period, row.rating, row.deviation, row.volatility, row.games, row.score,
            row.mu, row.phi, last[row.subject] == row.period)


def entry_fields(list_id: int, subject: str, tournament_id: int, values: tuple[Any, ...]
                 ) -> dict[str, Any]:
    """A ``RatingEntry``'s fields: the subject is a profile, or two ("12+34", lower first)."""
    ids = subject.split("+")
    fields: dict[str, Any] = dict(zip(VALUES, values, strict=True))
    fields.update(rating_list_id=list_id, subject=subject, profile_id=int(ids[0]),
                  partner_id=int(ids[1]) if len(ids) > 1 else None, tournament_id=tournament_id)
    return fields


def entry_rows(rating_list: RatingList, field: RatedField, rows: list[HistoryRow]
               ) -> list[RatingEntry]:
    """The history rows as unsaved ``RatingEntry`` objects; each subject's last is current."""
    last = {row.subject: row.period for row in rows}
    return [
        RatingEntry(**entry_fields(rating_list.pk, row.subject,
                                   field.tournaments[row.period - 1].pk, entry_values(row, last)))
        for row in rows
    ]
