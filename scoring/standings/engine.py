"""Compute standings from finished parties: one function, metrics in the regulations' order."""

from __future__ import annotations

import gc
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import groupby, repeat

from .metrics import METRICS, Number
from .types import OwnScore, PartyResult, PlainResult, Side, StandingRow, StandingsConfig

Contribution = tuple[
    Number, int, int, int, Number, int, int, int, tuple[int, ...] | None, int | None
]
"""What one party adds to an entrant in Tally.build: match points, won (0/1), points for,
points against, efectiveness, fines, bye (0/1), game wins difference, the opponents' ids (None
for a bye), and the one opponent's id where a single entrant was met (else None: a bye, a side
of several players), which lets the Buchholz sums look the opponents up in one C-level map."""


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


def plain(r: PartyResult) -> PlainResult:
    """The plain tuple of a result without own accounts: who won and who forfeited, checked."""
    if r.b is None:
        won = offender = None
    else:
        w = r.winner
        if w is None:
            won = None
        elif w == r.a:
            won = 0
        elif w == r.b:
            won = 1
        else:
            won = _which(r, w)
        if not r.forfeit:
            if won is None:
                raise ValueError(f"a party without a forfeit needs a winner: {r!r}")
            offender = None
        elif r.forfeited_by is not None:
            offender = _which(r, r.forfeited_by)
            if offender == won:
                raise ValueError(f"the side that forfeited cannot win: {r!r}")
        else:
            offender = -1 if won is None else 1 - won  # -1: both sides forfeited
    return (
        r.round, r.a, r.b, r.points_a, r.points_b, won, offender, r.ended_by_time,
        r.fines_a, r.fines_b, r.games_a, r.games_b,
    )


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

    def result(
        self, r: PartyResult, cfg: StandingsConfig, per: defaultdict[int, list[Contribution]]
    ) -> None:
        """Add a result that carries own accounts: the ratings are the match points, the Goat
        loses.

        Forfeits too are scored by their ratings (the regulations' forfeit match points do not
        apply). Points for are the entrant's own points, points against the opponents' (with
        ``solo`` the partner of the seat group is an opponent too); there is no efectiveness.
        In a bye the entrant's own score is his match points (without one, the bye's).
        """
        side_a = _members(r.a)
        own = r.own or {}
        if r.b is None:
            target = cfg.target
            half: Number = target // 2 if target % 2 == 0 else target / 2
            for x in side_a:
                earned = self.add(x, own[x]) if x in own else cfg.bye_points
                per[x].append((
                    earned, 1, r.points_a, r.points_b, half, r.fines_a, 1,
                    r.games_a - r.games_b, None, None,
                ))
            return
        side_b = _members(r.b)
        for mine, theirs in ((side_a, side_b), (side_b, side_a)):
            for x in mine:
                score = own.get(x)
                if score is None:
                    continue
                opponents = (*(p for p in mine if p != x), *theirs) if r.solo else theirs
                per[x].append((
                    self.add(x, score), not score.goat, score.points,
                    sum(own[o].points for o in opponents if o in own), 0, score.fines, 0, 0,
                    opponents, None,
                ))


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
        # per entrant who met one single entrant in every party (pairs, no bye): their ids
        self._single: dict[int, tuple[int, ...]] = {}

    @classmethod
    def build(
        cls,
        results: Iterable[PartyResult | PlainResult],
        cfg: StandingsConfig,
        after_round: int | None = None,
    ) -> Tally:
        """Sum ``results`` (only rounds up to ``after_round`` when given) under ``cfg``.

        Results are :class:`PartyResult` s or plain tuples (:data:`PlainResult`, what the
        database layer gives): the same party gives the same sums either way.
        """
        target = cfg.target
        half: Number = target // 2 if target % 2 == 0 else target / 2
        # the match points and efectiveness of (the winner, the loser) by how the party ended:
        # played (efectiveness: the margin), one side forfeited, both forfeited
        win_points, loss_points = cfg.win_points, cfg.loss_points
        forfeit_win = (cfg.forfeit_win_points, half)
        forfeit_loss = (cfg.forfeit_loss_points, -target)
        bye_points = cfg.bye_points
        # per entrant, one contribution per party in the order given
        per: defaultdict[int, list[Contribution]] = defaultdict(list)
        own_games = _OwnGames()
        ef_a: Number
        ef_b: Number

        for r in results:
            if isinstance(r, PartyResult):
                if after_round is not None and r.round > after_round:
                    continue
                if r.own is not None:
                    own_games.result(r, cfg, per)
                    continue
                r = plain(r)
            _round, a, b, pa, pb, won, offender, _by_time, fa, fb, ga, gb = r
            if after_round is not None and _round > after_round:
                continue
            if b is None:
                bye_entry = (bye_points, 1, pa, pb, half, fa, 1, ga - gb, None, None)
                if isinstance(a, tuple):
                    for x in a:
                        per[x].append(bye_entry)
                else:
                    per[a].append(bye_entry)
                continue
            if offender is None:
                if won is None:
                    raise ValueError(f"a party without a forfeit needs a winner: {r!r}")
                if won == 0:
                    margin = (pa if pa < target else target) - pb
                    mp_a, ef_a, win_a, mp_b, ef_b, win_b = (
                        win_points, margin, 1, loss_points, -margin, 0
                    )
                else:
                    margin = (pb if pb < target else target) - pa
                    mp_a, ef_a, win_a, mp_b, ef_b, win_b = (
                        loss_points, -margin, 0, win_points, margin, 1
                    )
            elif offender == 1:
                (mp_a, ef_a), (mp_b, ef_b), win_a, win_b = forfeit_win, forfeit_loss, 1, 0
            elif offender == 0:
                (mp_a, ef_a), (mp_b, ef_b), win_a, win_b = forfeit_loss, forfeit_win, 0, 1
            else:  # both sides forfeited
                (mp_a, ef_a), (mp_b, ef_b), win_a, win_b = forfeit_loss, forfeit_loss, 0, 0
            if isinstance(a, int) and isinstance(b, int):
                per[a].append((mp_a, win_a, pa, pb, ef_a, fa, 0, ga - gb, (b,), b))
                per[b].append((mp_b, win_b, pb, pa, ef_b, fb, 0, gb - ga, (a,), a))
            else:  # the players of the pairs formed for the round
                side_a, side_b = _members(a), _members(b)
                entry = (mp_a, win_a, pa, pb, ef_a, fa, 0, ga - gb, side_b, None)
                for x in side_a:
                    per[x].append(entry)
                entry = (mp_b, win_b, pb, pa, ef_b, fb, 0, gb - ga, side_a, None)
                for x in side_b:
                    per[x].append(entry)
        t = cls()
        t.rating_points = own_games.ratings
        t.goats = own_games.goats
        t.points_taken = own_games.taken
        match_points, wins, points_for = t.match_points, t.wins, t.points_for
        points_against, efectiveness, fines = t.points_against, t.efectiveness, t.fines
        byes, game_wins, parties, single = t.byes, t.game_wins, t.parties, t._single
        for x, contributions in per.items():
            earned, won_, scored, conceded, effect, fined, bye, games, opponents, one = zip(
                *contributions, strict=True
            )
            match_points[x] = sum(earned)
            wins[x] = int(sum(won_))
            points_for[x] = sum(scored)
            points_against[x] = sum(conceded)
            efectiveness[x] = sum(effect)
            fines[x] = sum(fined)
            byes[x] = had_bye = sum(bye)
            game_wins[x] = sum(games)
            if not had_bye:
                parties[x] = list(zip(opponents, earned, strict=True))
                if None not in one:
                    single[x] = one
            elif had_bye < len(bye):
                pairs = zip(opponents, earned, strict=True)
                parties[x] = [(o, e) for o, e in pairs if o is not None]
        return t

    def opponent_strengths(self, entrant: int) -> list[Number]:
        """Per party played, the sum of the opposing players' match points."""
        cached = self._strengths.get(entrant)
        if cached is None and entrant in self._single:
            cached = list(map(self.match_points.get, self._single[entrant], repeat(0)))
            self._strengths[entrant] = cached
        elif cached is None:
            mp = self.match_points.get
            cached = [
                mp(opps[0], 0) if len(opps) == 1 else sum(mp(o, 0) for o in opps)
                for opps, _earned in self.parties.get(entrant, ())
            ]
            self._strengths[entrant] = cached
        return cached


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while standings are built.

    They make hundreds of thousands of small acyclic tuples and lists that reference counting
    frees; every collection the allocations would trigger would scan them all for nothing.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def compute_standings(
    entrants: Sequence[int],
    results: Iterable[PartyResult | PlainResult],
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
    with paused_gc():
        return _rank(ids, Tally.build(results, cfg, after_round), cfg)


def rank_tally(
    entrants: Sequence[int], tally: Tally, cfg: StandingsConfig
) -> list[StandingRow]:
    """Rank ``entrants`` from a tally made elsewhere (a team event's tally over teams, each
    team match one "party"): the same ranking as :func:`compute_standings`."""
    ids = list(entrants)
    if len(set(ids)) != len(ids):
        raise ValueError("an entrant is listed twice")
    return _rank(ids, tally, cfg)


def _rank(ids: list[int], tally: Tally, cfg: StandingsConfig) -> list[StandingRow]:
    """The rows of ``ids`` ranked metric by metric from the tally (see compute_standings)."""
    values: dict[str, dict[int, Number]] = {
        key: metric.compute(tally, ids) for key, metric in METRICS.items() if not metric.needs_group
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
            value = vals.__getitem__
            ordered = sorted(group, key=value, reverse=metric.higher_is_better)
            split.extend(list(run) for _value, run in groupby(ordered, value))
        groups = split
    keys = list(values)
    ranked = [e for group in groups for e in group]
    columns = [list(map(values[k].__getitem__, ranked)) for k in keys]
    rows: list[StandingRow] = []
    append = rows.append
    line = zip(*columns, strict=True)
    position = 1
    for group in groups:
        shared = len(group) > 1
        for e in group:
            append(StandingRow(e, position, dict(zip(keys, next(line), strict=True)), shared))
        position += len(group)
    return rows
