"""A tournament's finished parties as the standings engine's plain results, in a few queries.

Party points are the totals stored with each finished party (``scoring.totals.stored``); a
missing or stale row is replayed from the deals and stored again. Sides of one player rank like
pairs; in Kozel every player keeps his own account (:func:`own_scores`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import BooleanField, ExpressionWrapper, F, Q, QuerySet

from scoring.models import Party, Round, Tournament
from scoring.rules import Kozel, RulesConfig, Totals, party_side
from scoring.rules.config import REASON_BYE
from scoring.standings import (
    OwnScore,
    PartyResult,
    PlainResult,
    from_plain,
)
from scoring.totals.stored import FIGURES, SEAT_FIGURES, fill_totals, rules_digest

FORFEIT_REASONS = (Party.EndReason.FORFEIT, Party.EndReason.DISQUALIFICATION)


def _counted(tournament: Tournament | list[int], after_round: int | None,
             prefix: str = "", knockout: bool = False) -> Q:
    """The filter of counted parties (``prefix`` "party__" for rows of a party), joined; of
    one tournament, or of every tournament in a list of ids. The standings never count a
    knockout stage's parties (its bracket places them); ratings do (``knockout``)."""
    where = "round__tournament__in" if isinstance(tournament, list) else "round__tournament"
    q = Q(**{f"{prefix}{where}": tournament, f"{prefix}status": Party.Status.FINISHED})
    q &= ~Q(**{f"{prefix}round__status": Round.Status.DRAFT})
    if after_round is not None:
        q &= Q(**{f"{prefix}round__number__lte": after_round})
    if not knockout:
        q &= Q(**{f"{prefix}round__bracket_round__isnull": True})
    return q


def counted_parties(
    tournament: Tournament | list[int], after_round: int | None = None, knockout: bool = False
) -> QuerySet[Party]:
    """The parties the standings count: finished, in published rounds (up to ``after_round``),
    of one tournament or of a list of tournament ids; a knockout stage's too with
    ``knockout``."""
    return Party.objects.filter(_counted(tournament, after_round, knockout=knockout))


_PLAYERS = 8
"""Where the player ids start in a party row of :func:`load_party_results`."""


def _sides(row: tuple, per_player: bool, at: int = _PLAYERS) -> tuple[Any, Any]:
    """The two sides of a party row: pair ids, or tuples of player ids (from column ``at``)."""
    if not per_player:
        return row[2], row[3]
    a = tuple(p for p in row[at : at + 2] if p is not None)
    b = (
        tuple(p for p in row[at + 2 : at + 4] if p is not None)
        if row[3] is not None
        else None
    )
    return a, b


def _seat_entrants(row: tuple, per_player: bool) -> dict[str, int]:
    """The entrant on each seat of a party row: a1/a2 pair A's players, b1/b2 pair B's."""
    if not per_player:
        pairs = {"a": row[2], "b": row[3]}
        return {f"{side}{n}": pair for side, pair in pairs.items() if pair for n in (1, 2)}
    players = row[_PLAYERS : _PLAYERS + 4]
    seats = ("a1", "a2", "b1", "b2")
    return {seat: player for seat, player in zip(seats, players, strict=True) if player}


def own_scores(
    cfg: RulesConfig,
    totals: Totals | None,
    seat_entrants: dict[str, int],
    *,
    end_reason: str,
    loser: str,
) -> dict[int, OwnScore]:
    """Each entrant's own result of a Kozel party: points, rating points, Goat, fines.

    The ratings are the engine's (``Kozel.party_ratings``: per pair when four play as two
    pairs), as every page shows them. The Goat is the party's ``loser``: a seat, a pair of
    ``kozel_pairs``, or a whole side ("a", "b") that forfeited. A bye (``totals`` None) counts
    as a game without points: (100 − 0) / 10.
    """
    engine = Kozel()
    seats = [seat for seat in engine.sides_for(cfg) if seat in seat_entrants]
    unit_of = {seat: engine.rated_unit(seat, cfg) for seat in seats}
    points = {seat: totals.points.get(seat, 0) if totals else 0 for seat in seats}
    fines = {seat: totals.fine_points.get(seat, 0) if totals else 0 for seat in seats}
    unit_ratings = engine.party_ratings(
        points, cfg, reason=end_reason if totals else REASON_BYE, at_fault=loser
    )
    goats = [unit for unit in unit_ratings if engine.is_at_fault(unit, loser, cfg)]
    scores: dict[int, OwnScore] = {}
    for entrant in dict.fromkeys(seat_entrants[seat] for seat in seats):
        mine = [seat for seat in seats if seat_entrants[seat] == entrant]
        units = dict.fromkeys(unit_of[seat] for seat in mine)
        scores[entrant] = OwnScore(
            points=sum(points[seat] for seat in mine),
            rating=sum(unit_ratings[unit] for unit in units),
            goat=any(unit in goats for unit in units),
            fines=sum(fines[seat] for seat in mine),
        )
    return scores


def each_for_himself(
    regulations: Any,
    totals: Totals,
    seat_entrants: dict[str, int],
    *,
    winner: str,
    loser: str,
    end_reason: str,
) -> dict[int, OwnScore]:
    """Each player's own result where three or four play each for himself (Draw, Block,
    Classic): his points, and the regulations' match points for a win (the party's winner),
    a loss, or a forfeit loss (the player who did not show up or was disqualified)."""
    scores: dict[int, OwnScore] = {}
    forfeit = end_reason in FORFEIT_REASONS
    for seat, entrant in seat_entrants.items():
        if seat == winner:
            earned = regulations.forfeit_win_points if forfeit else regulations.win_points
        elif forfeit and loser in (seat, party_side(seat)):
            earned = regulations.forfeit_loss_points
        else:
            earned = regulations.loss_points
        scores[entrant] = OwnScore(
            points=totals.points.get(seat, 0),
            rating=earned,
            goat=seat != winner,
            fines=totals.fine_points.get(seat, 0),
        )
    return scores


def load_party_rows(
    tournament: Tournament, *, per_player: bool, after_round: int | None = None
) -> list[PartyResult | PlainResult]:
    """Every counted party as the standings engine's input (one query, never the deals).

    A party of two sides is a plain tuple (:data:`~scoring.standings.PlainResult`: no
    objects); Kozel and each-for-himself parties are :class:`PartyResult` s with every
    entrant's own score (:func:`own_scores`, :func:`each_for_himself`). Sides are pair ids,
    or with ``per_player`` tuples of the players of each pair (a side of one player in
    singles). Points, fines and game wins are the party's stored totals
    (``scoring.totals.stored``: made by ``compute_party_totals`` when its result was recorded;
    a missing or stale row is computed and stored here). Matches of games (UDL, All Fives)
    carry each side's game wins (a forfeit or a bye counts as a match won by ``games_to_win``
    games to none: the engine's ``forfeit_totals``).
    """
    kozel, free_for_all = _layout(tournament)
    if not (kozel or free_for_all):
        return _two_sided_rows(tournament, per_player=per_player, after_round=after_round)
    fields, tail = party_row_fields(per_player=per_player, seats=True)
    rows = list(counted_parties(tournament, after_round).order_by().values_list(*fields))
    return rows_for_engine(tournament, rows, per_player=per_player, tail=tail)


_LEAN = ["id", "round__number", "pair_a_id", "pair_b_id", "end_reason", "winner"]
"""The party columns of a lean row (:func:`_two_sided_rows`): those ``_plain_results`` reads."""


def _two_sided_rows(
    tournament: Tournament, *, per_player: bool, after_round: int | None
) -> list[PartyResult | PlainResult]:
    """Parties of two sides as plain tuples, from lean rows: only the columns the engine
    reads, the stored totals' freshness decided by the database (one boolean instead of a
    version and a digest per party: at 5,000 pairs × 15 rounds decoding the columns is half
    the load)."""
    fields = list(_LEAN)
    if per_player:
        fields += ["pair_a__player1_id", "pair_a__player2_id"]
        fields += ["pair_b__player1_id", "pair_b__player2_id"]
    fresh_at = len(fields)
    fresh = ExpressionWrapper(
        Q(stored_totals__version=F("version"), stored_totals__rules=rules_digest(tournament)),
        output_field=BooleanField(),
    )
    rows = list(
        counted_parties(tournament, after_round).order_by().annotate(totals_fresh=fresh)
        .values_list(*fields, "totals_fresh", *(f"stored_totals__{n}" for n in FIGURES))
    )
    missing = [row[0] for row in rows if not row[fresh_at]]  # NULL: no stored row
    filled = fill_totals(tournament, missing) if missing else {}
    return _plain_results(rows, filled, per_player, players_at=len(_LEAN),
                          figures_at=fresh_at + 1)


def load_party_results(
    tournament: Tournament, *, per_player: bool, after_round: int | None = None,
    knockout: bool = False,
) -> list[PartyResult]:
    """Every counted party as a :class:`PartyResult` (:func:`load_party_rows`, objects made);
    a knockout stage's too with ``knockout``."""
    kozel, free_for_all = _layout(tournament)
    fields, tail = party_row_fields(per_player=per_player, seats=kozel or free_for_all)
    rows = list(counted_parties(tournament, after_round, knockout).order_by()
                .values_list(*fields))
    return results_from_rows(tournament, rows, per_player=per_player, tail=tail)


def two_sided(tournament: Tournament) -> bool:
    """Whether a party's result is its winner field alone: two sides, neither Kozel nor each
    for himself (:func:`rows_for_engine` reads no totals to tell its winner)."""
    return _layout(tournament) == (False, False)


def _layout(tournament: Tournament) -> tuple[bool, bool]:
    """Whether the tournament plays Kozel, and whether three or four play each for himself."""
    cfg = tournament.regulations.rules_config()
    kozel = tournament.engine.layout_for(cfg).accounts
    free_for_all = (
        not kozel
        and tournament.engine.side_size(cfg) == 1
        and len(tournament.engine.seats_for(cfg)) > 2
    )
    return kozel, free_for_all


def party_row_fields(*, per_player: bool, seats: bool) -> tuple[list[str], int]:
    """The ``values_list`` fields of a party row of :func:`results_from_rows`, and where its
    stored totals begin (``tail``); ``seats`` adds the per-seat figures (Kozel, each for
    himself). Fields appended after these are ignored by :func:`results_from_rows`."""
    fields = [
        "id", "round__number", "pair_a_id", "pair_b_id", "end_reason", "winner", "loser", "game"
    ]
    if per_player:
        fields += ["pair_a__player1_id", "pair_a__player2_id"]
        fields += ["pair_b__player1_id", "pair_b__player2_id"]
    tail = len(fields)
    fields += ["version", "stored_totals__version", "stored_totals__rules"]
    fields += [f"stored_totals__{name}" for name in (*FIGURES, *SEAT_FIGURES) if seats or
               name in FIGURES]
    return fields, tail


def results_from_rows(
    tournament: Tournament, rows: Sequence[tuple], *, per_player: bool, tail: int
) -> list[PartyResult]:
    """The tournament's counted party rows (:func:`party_row_fields`) as :class:`PartyResult` s
    (:func:`rows_for_engine`, objects made)."""
    return [
        result if isinstance(result, PartyResult) else from_plain(result)
        for result in rows_for_engine(tournament, rows, per_player=per_player, tail=tail)
    ]


def rows_for_engine(
    tournament: Tournament, rows: Sequence[tuple], *, per_player: bool, tail: int
) -> list[PartyResult | PlainResult]:
    """The tournament's counted party rows (:func:`party_row_fields`) as the engine's input.

    Plain tuples for parties of two sides, :class:`PartyResult` s with own scores for Kozel
    and each for himself. Missing or stale stored totals are computed from the deals and
    stored (a few queries).
    """
    kozel, free_for_all = _layout(tournament)
    own = kozel or free_for_all
    stored = (*FIGURES, *SEAT_FIGURES) if own else FIGURES
    digest = rules_digest(tournament)
    missing = [
        row[0] for row in rows
        if (row[tail] != row[tail + 1] or row[tail + 2] != digest) and not (kozel and not row[3])
    ]  # a Kozel bye needs no totals
    filled = fill_totals(tournament, missing) if missing else {}
    if own:
        return _own_results(tournament, rows, filled, per_player, tail, stored)
    return _plain_results(rows, filled, per_player, players_at=_PLAYERS, figures_at=tail + 3)


def _plain_results(
    rows: Sequence[tuple], filled: dict[int, Any], per_player: bool, *, players_at: int,
    figures_at: int,
) -> list[PartyResult | PlainResult]:
    """Rows of parties of two sides as plain tuples: the party's id, round number, pairs, end
    reason and winner first, the players from ``players_at`` (``per_player``), the stored
    figures from ``figures_at``; ``filled``: the totals computed for the stale rows."""
    results: list[PartyResult | PlainResult] = []
    append = results.append
    forfeits, by_time = frozenset(map(str, FORFEIT_REASONS)), str(Party.EndReason.TIME)
    won_of: dict[str, int | None] = {}
    end = figures_at + len(FIGURES)
    for row in rows:
        party_id, number, a, b, end_reason, winner = row[:6]
        if per_player:
            a, b = _sides(row, per_player, players_at)
        points_a, points_b, fines_a, fines_b, games_a, games_b = row[figures_at:end]
        fresh = filled.get(party_id) if filled else None  # only stale rows were filled
        if fresh is not None:
            points_a, points_b = fresh.points_a, fresh.points_b
            fines_a, fines_b = fresh.fines_a, fresh.fines_b
            games_a, games_b = fresh.games_a, fresh.games_b
        won = won_of.get(winner, -2)
        if won == -2:
            won = won_of[winner] = {"a": 0, "b": 1}.get(party_side(winner))
        forfeited = None
        if b is not None and end_reason in forfeits:
            forfeited = -1 if won is None else 1 - won  # the loser; -1: both sides forfeited
        append((
            number, a, b, points_a, points_b, won, forfeited, end_reason == by_time,
            fines_a, fines_b, games_a, games_b,
        ))
    return results


def _own_results(
    tournament: Tournament,
    rows: Sequence[tuple],
    filled: dict[int, Any],
    per_player: bool,
    tail: int,
    stored: tuple[str, ...],
) -> list[PartyResult | PlainResult]:
    """The results of Kozel or each-for-himself parties (rows of :func:`rows_for_engine`)."""
    regulations = tournament.regulations
    cfg = regulations.rules_config()
    kozel, free_for_all = _layout(tournament)
    results: list[PartyResult | PlainResult] = []
    forfeits, by_time = frozenset(map(str, FORFEIT_REASONS)), str(Party.EndReason.TIME)
    for row in rows:
        party_id, number, _a, _b, end_reason, winner, loser, _game = row[:_PLAYERS]
        a, b = _sides(row, per_player)
        if kozel and b is None:
            own = own_scores(
                cfg, None, _seat_entrants(row, per_player), end_reason=end_reason, loser=loser
            )
            results.append(PartyResult(number, a, None, 0, 0, winner=a, own=own))
            continue
        fresh = filled.get(party_id)
        values = (
            [getattr(fresh, name) for name in stored] if fresh is not None
            else row[tail + 3 : tail + 3 + len(stored)]
        )
        points_a, points_b, fines_a, fines_b, _games_a, _games_b = values[:6]
        totals = Totals(values[6], {}, values[7])
        seats = _seat_entrants(row, per_player)
        if kozel:
            own = own_scores(cfg, totals, seats, end_reason=end_reason, loser=loser)
        else:
            own = each_for_himself(
                regulations, totals, seats, winner=winner, loser=loser, end_reason=end_reason
            )
        results.append(
            PartyResult(
                round=number,
                a=a,
                b=b,
                points_a=points_a,
                points_b=points_b,
                winner=seats.get(winner) or {"a": a, "b": b}.get(winner),
                forfeit=end_reason in forfeits,
                ended_by_time=end_reason == by_time,
                fines_a=fines_a,
                fines_b=fines_b,
                own=own,
                solo=free_for_all or not cfg.kozel_pairs,
            )
        )
    return results
