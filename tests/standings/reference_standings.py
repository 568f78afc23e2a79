"""The standings as they were computed before the plain-tuple fast path (commit ffcf38c).

A frozen copy of that engine (``scoring/standings/engine.py``: ``Tally.build`` over
``PartyResult`` objects, ``compute_standings``) and of
``scoring.ranking.loaders.load_party_results``,
kept only as the oracle of ``tests/standings/test_fast_path.py``: the fast path must give
exactly these standings. The metric classes are today's (their per-entrant sums were read
with ``dict.get`` then, as :func:`_compute` does here); do not "fix" this module.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scoring.models import Party, Tournament
from scoring.ranking.loaders import (
    _PLAYERS,
    FORFEIT_REASONS,
    _seat_entrants,
    _sides,
    counted_parties,
    each_for_himself,
    own_scores,
)
from scoring.rules import Totals, party_side
from scoring.standings.metrics import METRICS, Number
from scoring.standings.types import OwnScore, PartyResult, Side, StandingRow, StandingsConfig
from scoring.totals.stored import FIGURES, SEAT_FIGURES, fill_totals, rules_digest


def _compute(metric, tally, ids):
    """A metric's values as the engine read them then (the sums with ``dict.get``)."""
    field = getattr(metric, "field", None)
    if field is not None:
        values = getattr(tally, field)
        return {e: values.get(e, 0) for e in ids}
    return metric.compute(tally, ids)


# The per-entrant sums of Tally.build, by position in its accumulator lists.
_SUMS = 8


def _members(side: Side) -> tuple[int, ...]:
    return side if isinstance(side, tuple) else (side,)


def _which(result: PartyResult, who: Side) -> int:
    """0 if ``who`` names side a (its id, its tuple or a member), 1 for side b."""
    for index, side in enumerate((result.a, result.b)):
        if side is None:
            continue
        if who == side or (isinstance(side, tuple) and not isinstance(who, tuple) and who in side):
            return index
    raise ValueError(f"{who!r} is not a side of the party {result!r}")


class _OwnGames:
    """The sums of games where every player keeps his own account (Kozel), while building."""

    def __init__(self) -> None:
        self.ratings: dict[int, Number] = {}
        self.goats: dict[int, int] = {}
        self.taken: dict[int, int] = {}

    def add(self, entrant: int, score: OwnScore) -> int:
        """Add one game's own score of ``entrant``; return its rating (his match points)."""
        self.ratings[entrant] = self.ratings.get(entrant, 0) + score.rating
        self.goats[entrant] = self.goats.get(entrant, 0) + int(score.goat)
        self.taken[entrant] = self.taken.get(entrant, 0) + score.points
        return score.rating

    def party(
        self,
        r: PartyResult,
        side_a: tuple[int, ...],
        side_b: tuple[int, ...],
        acc: dict[int, list],
        parties: dict[int, list[tuple[tuple[int, ...], Number]]],
    ) -> None:
        """Sum a party of own accounts: the ratings are the match points, the Goat loses.

        Forfeits too are scored by their ratings (the regulations' forfeit match points do not
        apply). Points for are the entrant's own points, points against the opponents' (with
        ``solo`` the partner of the seat group is an opponent too); there is no efectiveness.
        """
        own = r.own or {}
        for mine, theirs in ((side_a, side_b), (side_b, side_a)):
            for x in mine:
                score = own.get(x)
                if score is None:
                    continue
                opponents = (*(p for p in mine if p != x), *theirs) if r.solo else theirs
                st = acc.get(x)
                if st is None:
                    st = acc[x] = [0] * _SUMS
                earned = self.add(x, score)
                st[0] += earned
                st[1] += not score.goat
                st[2] += score.points
                st[3] += sum(own[o].points for o in opponents if o in own)
                st[5] += score.fines
                entry = (opponents, earned)
                lst = parties.get(x)
                if lst is None:
                    parties[x] = [entry]
                else:
                    lst.append(entry)


class Tally:
    """Per-entrant sums over the counted parties (one pass over the results)."""

    def __init__(self) -> None:
        self.match_points: dict[int, Number] = {}
        self.wins: dict[int, int] = {}
        self.points_for: dict[int, int] = {}
        self.points_against: dict[int, int] = {}
        self.efectiveness: dict[int, Number] = {}
        self.fines: dict[int, int] = {}
        self.byes: dict[int, int] = {}
        self.game_wins: dict[int, int] = {}
        # games where every player keeps his own account (Kozel)
        self.rating_points: dict[int, Number] = {}
        self.goats: dict[int, int] = {}
        self.points_taken: dict[int, int] = {}
        # per entrant, one (opponent ids, match points earned) per party played (byes excluded)
        self.parties: dict[int, list[tuple[tuple[int, ...], Number]]] = {}
        self._strengths: dict[int, list[Number]] = {}

    @classmethod
    def build(
        cls, results: Iterable[PartyResult], cfg: StandingsConfig, after_round: int | None = None
    ) -> Tally:
        """Sum ``results`` (only rounds up to ``after_round`` when given) under ``cfg``."""
        target = cfg.target
        half: Number = target // 2 if target % 2 == 0 else target / 2
        # one list per entrant: match points, wins, for, against, efectiveness, fines, byes,
        # game wins difference
        acc: dict[int, list] = {}
        parties: dict[int, list[tuple[tuple[int, ...], Number]]] = {}
        own_games = _OwnGames()

        for r in results:
            if after_round is not None and r.round > after_round:
                continue
            a, b, w = r.a, r.b, r.winner
            side_a = (a,) if type(a) is int else _members(a)
            if b is None:
                for x in side_a:
                    st = acc.get(x)
                    if st is None:
                        st = acc[x] = [0] * _SUMS
                    st[1] += 1
                    st[2] += r.points_a
                    st[3] += r.points_b
                    st[4] += half
                    st[5] += r.fines_a
                    st[6] += 1
                    st[7] += r.games_a - r.games_b
                    if r.own is not None and x in r.own:
                        st[0] += own_games.add(x, r.own[x])
                    else:
                        st[0] += cfg.bye_points
                continue
            side_b = (b,) if type(b) is int else _members(b)
            if r.own is not None:
                own_games.party(r, side_a, side_b, acc, parties)
                continue
            if w is None:
                won = None
            elif w == a:
                won = 0
            elif w == b:
                won = 1
            else:
                won = _which(r, w)
            if r.forfeit:
                if r.forfeited_by is not None:
                    offender = _which(r, r.forfeited_by)
                    if offender == won:
                        raise ValueError(f"the side that forfeited cannot win: {r!r}")
                elif won is None:
                    offender = -1  # both sides forfeited
                else:
                    offender = 1 - won
            elif won is None:
                raise ValueError(f"a party without a forfeit needs a winner: {r!r}")
            else:
                offender = None
            scores = (r.points_a, r.points_b)
            margin = 0
            if offender is None:
                margin = min(scores[won], target) - scores[1 - won]
            for index, own, other in ((0, side_a, side_b), (1, side_b, side_a)):
                if offender is None:
                    is_win = index == won
                    points = cfg.win_points if is_win else cfg.loss_points
                    effect: Number = margin if is_win else -margin
                elif offender == index or offender == -1:
                    is_win = False
                    points = cfg.forfeit_loss_points
                    effect = -target
                else:
                    is_win = True
                    points = cfg.forfeit_win_points
                    effect = half
                scored, conceded = scores[index], scores[1 - index]
                fine = r.fines_b if index else r.fines_a
                games = r.games_b - r.games_a if index else r.games_a - r.games_b
                entry = (other, points)
                for x in own:
                    st = acc.get(x)
                    if st is None:
                        st = acc[x] = [0] * _SUMS
                    st[0] += points
                    st[1] += is_win
                    st[2] += scored
                    st[3] += conceded
                    st[4] += effect
                    st[5] += fine
                    st[7] += games
                    lst = parties.get(x)
                    if lst is None:
                        parties[x] = [entry]
                    else:
                        lst.append(entry)
        t = cls()
        for x, (points, win, scored, conceded, effect, fine, bye, games) in acc.items():
            t.match_points[x] = points
            t.wins[x] = int(win)
            t.points_for[x] = scored
            t.points_against[x] = conceded
            t.efectiveness[x] = effect
            t.fines[x] = fine
            t.byes[x] = bye
            t.game_wins[x] = games
        t.parties = parties
        t.rating_points = own_games.ratings
        t.goats = own_games.goats
        t.points_taken = own_games.taken
        return t

    def opponent_strengths(self, entrant: int) -> list[Number]:
        """Per party played, the sum of the opposing players' match points."""
        cached = self._strengths.get(entrant)
        if cached is None:
            mp = self.match_points
            cached = [
                mp.get(opps[0], 0) if len(opps) == 1 else sum(mp.get(o, 0) for o in opps)
                for opps, _earned in self.parties.get(entrant, ())
            ]
            self._strengths[entrant] = cached
        return cached


def compute_standings(
    entrants: Sequence[int],
    results: Iterable[PartyResult],
    cfg: StandingsConfig | None = None,
    after_round: int | None = None,
) -> list[StandingRow]:
    """Rank ``entrants`` (pairs, or players of an individual event) from finished parties.

    Entrants are sorted metric by metric in ``cfg.order``; head-to-head is computed within
    exactly the group still tied when it is reached. Entrants equal on every metric share a
    rank (1, 2, 2, 4) and keep the order they were given in. ``after_round`` counts only the
    parties of rounds up to it. Results may involve entrants not listed (e.g. withdrawn ones):
    they count for their opponents' Buchholz but get no row. Every metric of ``METRICS`` is in
    each row's ``metrics`` (head-to-head only when it is in the order: 0 outside a tie).
    """
    cfg = cfg or StandingsConfig()
    ids = list(entrants)
    if len(set(ids)) != len(ids):
        raise ValueError("an entrant is listed twice")
    tally = Tally.build(results, cfg, after_round)
    values: dict[str, dict[int, Number]] = {
        key: _compute(metric, tally, ids) for key, metric in METRICS.items()
        if not metric.needs_group
    }
    groups: list[list[int]] = [ids]
    for key in cfg.order:
        metric = METRICS[key]
        if metric.needs_group:
            values[key] = dict.fromkeys(ids, 0)
        split: list[list[int]] = []
        for group in groups:
            if len(group) <= 1:
                if group:
                    split.append(group)
                continue
            vals = metric.compute(tally, group) if metric.needs_group else values[key]
            if metric.needs_group:
                values[key].update(vals)
            # sorted() is stable even with reverse=True: equal entrants keep the given order
            ordered = sorted(group, key=vals.__getitem__, reverse=metric.higher_is_better)
            run = [ordered[0]]
            for e in ordered[1:]:
                if vals[e] == vals[run[-1]]:
                    run.append(e)
                else:
                    split.append(run)
                    run = [e]
            split.append(run)
        groups = split
    rows: list[StandingRow] = []
    position = 1
    keys = list(values)
    for group in groups:
        shared = len(group) > 1
        for e in group:
            rows.append(StandingRow(e, position, {k: values[k][e] for k in keys}, shared))
        position += len(group)
    return rows


def load_party_results(
    tournament: Tournament, *, per_player: bool, after_round: int | None = None
) -> list[PartyResult]:
    """Every counted party as the standings engine's plain data (one query, never the deals).

    Sides are pair ids, or with ``per_player`` tuples of the players of each pair (a side of
    one player in singles). Points, fines and game wins are the party's stored totals
    (``scoring.totals.stored``: made by ``compute_party_totals`` when its result was recorded;
    a missing or stale row is computed and stored here). Matches of games (UDL, All Fives)
    carry each side's game wins (a forfeit or a bye counts as a match won by ``games_to_win``
    games to none: the engine's ``forfeit_totals``); Kozel parties carry every entrant's own
    score (:func:`own_scores`).
    """
    regulations = tournament.regulations
    cfg = regulations.rules_config()
    kozel = tournament.engine.layout_for(cfg).accounts
    free_for_all = (
        not kozel
        and tournament.engine.side_size(cfg) == 1
        and len(tournament.engine.seats_for(cfg)) > 2
    )
    stored = (*FIGURES, *SEAT_FIGURES) if kozel or free_for_all else FIGURES
    fields = [
        "id", "round__number", "pair_a_id", "pair_b_id", "end_reason", "winner", "loser", "game"
    ]
    if per_player:
        fields += ["pair_a__player1_id", "pair_a__player2_id"]
        fields += ["pair_b__player1_id", "pair_b__player2_id"]
    tail = len(fields)
    fields += ["version", "stored_totals__version", "stored_totals__rules"]
    fields += [f"stored_totals__{name}" for name in stored]
    rows = list(counted_parties(tournament, after_round).order_by().values_list(*fields))
    digest = rules_digest(tournament)
    missing = [
        row[0] for row in rows
        if (row[tail] != row[tail + 1] or row[tail + 2] != digest) and not (kozel and not row[3])
    ]  # a Kozel bye needs no totals
    filled = fill_totals(tournament, missing) if missing else {}

    results: list[PartyResult] = []
    forfeits, by_time = frozenset(map(str, FORFEIT_REASONS)), str(Party.EndReason.TIME)
    side_of: dict[str, str] = {}
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
            [getattr(fresh, name) for name in stored] if fresh is not None else row[tail + 3 :]
        )
        points_a, points_b, fines_a, fines_b, games_a, games_b = values[:6]
        forfeit = end_reason in forfeits
        if kozel or free_for_all:
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
                    forfeit=forfeit,
                    ended_by_time=end_reason == by_time,
                    fines_a=fines_a,
                    fines_b=fines_b,
                    own=own,
                    solo=free_for_all or not cfg.kozel_pairs,
                )
            )
            continue
        side = side_of.get(winner)
        if side is None:
            side = side_of[winner] = party_side(winner)
        lost = {"a": b, "b": a}.get(side)
        results.append(
            PartyResult(
                round=number,
                a=a,
                b=b,
                points_a=points_a,
                points_b=points_b,
                winner={"a": a, "b": b}.get(side),
                forfeit=forfeit and b is not None,
                forfeited_by=lost if forfeit and b is not None else None,
                ended_by_time=end_reason == by_time,
                fines_a=fines_a,
                fines_b=fines_b,
                games_a=games_a,
                games_b=games_b,
            )
        )
    return results
