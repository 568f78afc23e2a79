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
from itertools import chain
from typing import Any

import numpy as np
from django.core.cache import cache

from scoring.core.errors import ServiceError
from scoring.models import Player, RatingEntry, RatingList, Tournament
from scoring.ranking.loaders import (
    FORFEIT_REASONS,
    counted_parties,
    load_party_results,
    two_sided,
)
from scoring.ranking.results import results_versions
from scoring.ratings import (
    HistoryColumns,
    HistoryRow,
    RatedParty,
    RatingParameters,
    compute_history,
    parameters_for,
)
from scoring.ratings.kernel import Columns, Ints
from scoring.ratings.periods import Period
from scoring.rules.config import party_side
from scoring.standings.types import Side


@dataclass(frozen=True)
class RatedField:
    """A list's input: its tournaments in period order and the rated parties of each period
    from ``first`` on (``periods[0]`` is period ``first``); a period of two-sided parties of a
    players' list comes as :class:`Columns` of ranks in ``names`` (every subject key that can
    be rated, in string order)."""

    tournaments: list[Tournament]
    periods: list[Period]
    first: int = 1
    names: list[str] | None = None

    def subjects(self) -> set[str]:
        """The subject keys of the parties of the periods read."""
        found: set[str] = set()
        for parties in self.periods:
            if isinstance(parties, Columns):
                assert self.names is not None
                found.update(self.names[i] for i in parties.subjects().tolist())
                continue
            for party in parties:
                for side in party.sides:
                    found.update(side)
        return found


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
                first: int = 1, *, cached: bool = True) -> RatedField:
    """Read the list's input from period ``first`` on (``tournaments``: the list's, in period
    order, when read already): the parties of two sides in one query (or from the cache,
    unless not ``cached``: :func:`party_players`), each tournament of Kozel or each for
    himself as the standings read it."""
    if tournaments is None:
        tournaments = rated_tournaments(rating_list)
    read = tournaments[first - 1:]
    linked = list(Player.objects.filter(tournament__in=read, profile__isnull=False)
                  .order_by().values_list("tournament_id", "id", "profile_id"))
    profile_of = {player: profile for _tournament, player, profile in linked}
    pairs = rating_list.subject == RatingList.Subject.PAIRS
    if pairs:
        read = [t for t in read if t.format != Tournament.Format.INDIVIDUAL]
    plain_ones = [t for t in read if two_sided(t)]
    if pairs:
        plain: dict[int, Period] = dict(_two_sided_parties([t.pk for t in plain_ones],
                                                           profile_of))
        names = None
    else:
        names, ranks = _profile_ranks(linked)
        plain = dict(_two_sided_columns(plain_ones, ranks, cached))
    periods = [
        plain[t.pk] if t.pk in plain else tournament_parties(t, profile_of, pairs=pairs)
        for t in tournaments[first - 1:]
    ]
    return RatedField(tournaments, periods, first, names)


def _party_rows(tournament_ids: list[int]) -> Any:
    """The rated parties of two sides of these tournaments: (tournament, both pairs' players,
    winner) rows, as :func:`tournament_parties` would read them."""
    return (
        counted_parties(tournament_ids, knockout=True)
        .filter(pair_b__isnull=False).exclude(end_reason__in=FORFEIT_REASONS).order_by()
        .values_list("round__tournament_id", "pair_a__player1_id", "pair_a__player2_id",
                     "pair_b__player1_id", "pair_b__player2_id", "winner")
    )


INPUT_CACHE_SECONDS = 7 * 24 * 3600
"""How long a tournament's rated parties stay cached (under its results version)."""


def _profile_ranks(linked: list[tuple[int, int, int]]
                   ) -> tuple[list[str], dict[int, tuple[Ints, Ints]]]:
    """The subject keys of these (tournament, player, profile) links' profiles in string
    order, and by tournament its players' ranks in them: (player ids ascending, ranks)."""
    size = len(linked)
    if not size:
        return [], {}
    tournament, players, profiles = np.fromiter(
        chain.from_iterable(linked), np.int64, 3 * size).reshape(size, 3).T
    unique = np.unique(profiles)
    names = sorted(str(profile) for profile in unique.tolist())
    by_name = np.fromiter((int(name) for name in names), np.int64, len(names))
    rank_of_unique = np.argsort(by_name)  # by_name[rank_of_unique] is ``unique``
    ranks = rank_of_unique[np.searchsorted(unique, profiles)]
    order = np.lexsort((players, tournament))
    tournament, players, ranks = tournament[order], players[order], ranks[order]
    ids, starts = np.unique(tournament, return_index=True)
    ends = [*starts[1:].tolist(), size]
    return names, {pk: (players[start:end], ranks[start:end])
                   for pk, start, end in zip(ids.tolist(), starts.tolist(), ends, strict=True)}


def _two_sided_columns(tournaments: list[Tournament], ranks: dict[int, tuple[Ints, Ints]],
                       cached: bool) -> dict[int, Columns]:
    """The rated parties of tournaments of two sides (:func:`two_sided`) of a players' list,
    as columns by tournament: each player his profile's rank (``ranks``: by tournament, its
    player ids ascending and their ranks, :func:`_profile_ranks`; −1 without a profile); a
    party where a side has no rated player is left out."""
    out = {t.pk: _no_columns() for t in tournaments}
    if not ranks:  # nobody of these tournaments can be rated: nothing to read
        return out
    played = party_players(tournaments, cached=cached)
    nobody: tuple[Ints, Ints] = (np.zeros(0, np.int64), np.zeros(0, np.int64))

    def lookup(players: Ints, rank: Ints) -> tuple[int, Ints]:
        """A tournament's players' ranks by id − its lowest id (−1: no such player)."""
        low = int(players[0]) if len(players) else 0
        table = np.full(int(players[-1]) - low + 1 if len(players) else 0, -1, np.int64)
        table[players - low] = rank
        return low, table

    def ranks_of(ids: Ints, low: int, table: Ints) -> Ints:
        at = ids - low
        inside = (at >= 0) & (at < len(table))
        return np.where(inside, table[np.where(inside, at, 0)] if len(table) else -1, -1)

    for pk, (a1, a2, b1, b2, won) in played.items():
        here = lookup(*ranks.get(pk, nobody))
        a1, a2, b1, b2 = (ranks_of(ids, *here) for ids in (a1, a2, b1, b2))
        rated = ((a1 >= 0) | (a2 >= 0)) & ((b1 >= 0) | (b2 >= 0))
        out[pk] = Columns(a1[rated], a2[rated], b1[rated], b2[rated], won[rated])
    return out


def party_players(tournaments: list[Tournament], *, cached: bool = True
                  ) -> dict[int, tuple[Any, ...]]:
    """The rated parties of two sides of these tournaments, by tournament: both pairs'
    players as columns of ids (0: no second player) and the winner (0 a, 1 b, −1 a draw).

    A tournament's columns are cached under its results version (every change of a party
    bumps it, :func:`~scoring.ranking.results.results_version`): a run of a federation's list
    reads from the database only the tournaments whose results changed since (all of them
    unless ``cached``: the cache is written again). (A pair whose
    players are replaced after its parties finished is not seen until a party changes: the
    standings' cache has the same contract.)
    """
    if not tournaments:
        return {}
    tournament_ids = [t.pk for t in tournaments]
    versions = results_versions(tournament_ids)
    keys = {t.pk: f"rating-input:v1:{t.pk}:{t.created_at.timestamp() if t.created_at else ''}:"
                  f"{versions[t.pk]}" for t in tournaments}
    found = cache.get_many(list(keys.values())) if cached else {}
    out = {pk: found[key] for pk, key in keys.items() if key in found}
    missing = [pk for pk in tournament_ids if pk not in out]
    if missing:
        read = read_party_players(missing)
        cache.set_many({keys[pk]: read[pk] for pk in missing}, INPUT_CACHE_SECONDS)
        out.update(read)
    return out


def read_party_players(tournament_ids: list[int]) -> dict[int, tuple[Any, ...]]:
    """:func:`party_players` read from the database (one query)."""
    rows = list(_party_rows(tournament_ids))
    empty = np.zeros(0, np.int64)
    out: dict[int, tuple[Any, ...]] = {
        pk: (empty, empty, empty, empty, np.zeros(0, np.int8)) for pk in tournament_ids}
    if not rows:
        return out
    tournament, *sides, winner = zip(*rows, strict=True)
    a1, a2, b1, b2 = (np.fromiter((p or 0 for p in side), np.int64, len(side))
                      for side in sides)
    won_of = {w: {"a": 0, "b": 1}.get(party_side(w), -1) for w in set(winner)}
    won = np.fromiter((won_of[w] for w in winner), np.int8, len(winner))
    by = np.fromiter(tournament, np.int64, len(tournament))
    order = np.argsort(by, kind="stable")
    starts = np.searchsorted(by[order], tournament_ids)
    ends = np.searchsorted(by[order], tournament_ids, side="right")
    for pk, start, end in zip(tournament_ids, starts.tolist(), ends.tolist(), strict=True):
        here = order[start:end]
        out[pk] = (a1[here], a2[here], b1[here], b2[here], won[here])
    return out


def _no_columns() -> Columns:
    """A period without a rated party."""
    empty = np.zeros(0, np.int64)
    return Columns(empty, empty, empty, empty, np.zeros(0, np.int8))


def _two_sided_parties(tournament_ids: list[int], profile_of: dict[int, int]
                       ) -> dict[int, list[RatedParty]]:
    """The rated parties of tournaments of two sides (:func:`two_sided`) of a pairs' list in
    one query, by tournament: as :func:`tournament_parties` reads them, the winner from the
    winner field."""
    out: dict[int, list[RatedParty]] = {pk: [] for pk in tournament_ids}
    if not tournament_ids:
        return out
    won_of: dict[str, int | None] = {}
    for tournament_id, a1, a2, b1, b2, winner in _party_rows(tournament_ids):
        side_a = _pair_key(a1, a2, profile_of)
        side_b = _pair_key(b1, b2, profile_of)
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
    """The list's history computed from scratch from the stored results, every one read from
    the database (nothing written)."""
    parameters = list_parameters(rating_list)
    field = rated_field(rating_list, cached=False)
    return field, compute_history(rating_list.system, parameters, field.periods,
                                  names=field.names)


VALUES = ("sequence", "rating", "deviation", "volatility", "games", "score", "mu", "phi",
          "current")
"""A stored row's values: what a run compares and updates (its key: subject, tournament)."""

COLUMNS = ("subject", "tournament_id", "profile_id", "partner_id", *VALUES)
"""The fields of a stored row (but its list), in the order :func:`stored_rows` gives them."""


@dataclass(frozen=True)
class StoredColumns:
    """A run's rows as the list stores them, column by column: ``values`` by the names of
    :data:`COLUMNS` (None: a column of NULLs), the subject as a rank in ``names``."""

    names: list[str]
    values: dict[str, Any]

    def __len__(self) -> int:
        """The number of rows."""
        return len(self.values["sequence"])

    def rows(self) -> list[tuple[Any, ...]]:
        """The rows as tuples of :data:`COLUMNS`."""
        size = len(self.values["sequence"])
        names = self.names
        columns = [[names[i] for i in self.values["subject"].tolist()]]
        for name in COLUMNS[1:]:
            column = self.values[name]
            columns.append([None] * size if column is None else column.tolist())
        return list(zip(*columns, strict=True))


def stored_columns(tournaments: list[Tournament], history: HistoryColumns) -> StoredColumns:
    """A run's history as the list stores it: each subject's last row is his current one; a
    pair's subject ("12+34", lower first) names both profiles."""
    names = history.names
    ids = [name.split("+") for name in names]
    profile = np.fromiter((int(i[0]) for i in ids), np.int64, len(ids))
    pairs = {len(i) for i in ids} == {2}
    partner = np.fromiter((int(i[-1]) for i in ids), np.int64, len(ids)) if pairs else None
    if not pairs and any(len(i) > 1 for i in ids):
        raise ValueError("a list rates either players or pairs")
    subject, period = history.subject, history.period
    last = np.full(len(names), -1, np.int64)
    np.maximum.at(last, subject, period)
    by_period = np.fromiter((t.pk for t in tournaments), np.int64, len(tournaments))
    return StoredColumns(names, {
        "subject": subject, "tournament_id": by_period[period - 1], "profile_id": profile[subject],
        "partner_id": None if partner is None else partner[subject], "sequence": period,
        "rating": history.rating, "deviation": history.deviation,
        "volatility": history.volatility, "games": history.games, "score": history.score,
        "mu": history.mu, "phi": history.phi, "current": period == last[subject],
    })


def entry_rows(rating_list: RatingList, field: RatedField, rows: list[HistoryRow]
               ) -> list[RatingEntry]:
    """The history rows as unsaved ``RatingEntry`` objects; each subject's last is current."""
    stored = stored_columns(field.tournaments, HistoryColumns.of_rows(rows))
    return [RatingEntry(rating_list_id=rating_list.pk, **dict(zip(COLUMNS, row, strict=True)))
            for row in stored.rows()]
