"""The one function that derives a party's totals from its deals and fines."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from scoring.core.compiled import CompiledQuery
from scoring.models import Deal, Penalty
from scoring.rules import DealScore, FineFact, RulesConfig, Totals, get_rule_set, plays_games


class DealRow(NamedTuple):
    """The fields of a deal that the totals need (a plain row, no model instance)."""

    number: int
    outcome: str
    winner: str
    points_a: int
    points_b: int
    scores: dict[str, int] | None = None
    carry: int = 0
    game: int = 1
    play_points: dict[str, int] | None = None
    recorded_at: datetime | None = None
    play_ended_before_time_up: bool = False
    entered_at: datetime | None = None

    @classmethod
    def of(cls, deal: Any) -> DealRow:
        """The row of a deal model instance."""
        return cls(*(getattr(deal, name) for name in cls._fields))


DEAL_ROW_FIELDS = DealRow._fields
"""The deal columns a DealRow is loaded from (``values_list(*DEAL_ROW_FIELDS)``)."""


class RecordedDeal(NamedTuple):
    """A recorded deal as a new deal reads it: its totals' row, its leader's fields, its ids."""

    number: int
    outcome: str
    winner: str
    points_a: int
    points_b: int
    scores: dict[str, int] | None
    carry: int
    game: int
    play_points: dict[str, int] | None
    recorded_at: datetime | None
    play_ended_before_time_up: bool
    entered_at: datetime | None
    went_out: str
    fish_by: str
    led: str
    id: int
    client_id: str
    plays: list | None
    recorded_by_id: int | None

    def row(self) -> DealRow:
        """The deal's row for the totals."""
        return DealRow._make(self[:len(DEAL_ROW_FIELDS)])


_RECORDED = CompiledQuery(
    "recorded_deals", Deal,
    lambda party_id: Deal.objects.filter(party_id=party_id).order_by("-number")
    .values_list(*RecordedDeal._fields),
    int,
)


def recorded(party: Any) -> list[RecordedDeal]:
    """A party's deals, last first, as plain rows: the retry, next number, leader, totals."""
    return [RecordedDeal(*row) for row in _RECORDED.rows(party.pk)]


def recorded_deals(party: Any, rows: list[RecordedDeal], added: Deal) -> list[Deal]:
    """The party's deals in order as model instances, from the rows a deal entry read under
    its lock (last first, as ``recorded`` gives them) and the deal it added: the desk page's
    answer shows them without reading them again.

    The instances have the fields the desk shows (``RecordedDeal``); any other field is
    deferred, so reading it still asks the database rather than inventing it.
    """
    # ``from_db`` takes the values in the model's field order, the missing ones deferred
    read = {"party_id", *RecordedDeal._fields}
    attnames = [f.attname for f in Deal._meta.concrete_fields if f.attname in read]
    instances = []
    for row in reversed(rows):
        values = {"party_id": party.pk, **row._asdict()}
        instances.append(Deal.from_db(added._state.db, attnames, [values[n] for n in attnames]))
    return [*instances, added]


@dataclass(frozen=True)
class Evaluated:
    """A party's deal and fine rows as an action read or made them, with the totals made of
    them: the action's answer shows these rather than reading and adding up the party again
    (``rows``: the deals in order, the fines)."""

    rows: tuple[list[Any], list[Any]]
    totals: Totals


class FineRow(NamedTuple):
    """The fields of a penalty that the totals need."""

    side: str
    points: int
    mode: str
    kind: str
    cancelled: bool
    game: int = 1
    deal_number: int | None = None

    @classmethod
    def of(cls, penalty: Any) -> FineRow:
        """A penalty (a model or an object with the same fields) as the totals read it."""
        return cls(*(getattr(penalty, name) for name in cls._fields))


FINE_ROW_FIELDS = FineRow._fields
"""The penalty columns a FineRow is loaded from."""


class PenaltyRow(NamedTuple):
    """A penalty as a new penalty reads it: its fine's fields (``FineRow``), its kind of
    violation and its ids."""

    side: str
    points: int
    mode: str
    kind: str
    cancelled: bool
    game: int
    deal_number: int | None
    category: str
    id: int
    client_id: str

    def fine(self) -> FineRow:
        """The penalty's row for the totals."""
        return FineRow._make(self[:len(FINE_ROW_FIELDS)])


_PENALTIES = CompiledQuery(
    "party_penalties", Penalty,
    lambda party_id: Penalty.objects.filter(party_id=party_id).order_by("-id")
    .values_list(*PenaltyRow._fields),
    int,
)


def penalties_recorded(party: Any) -> list[PenaltyRow]:
    """A party's penalties, newest first, as plain rows: the retry, earlier warnings, fines."""
    return [PenaltyRow(*row) for row in _PENALTIES.rows(party.pk)]


def fines_in_force(rows: Iterable[PenaltyRow]) -> list[FineRow]:
    """The fines among penalty rows that count (not cancelled), as the totals read them."""
    return [row.fine() for row in rows if row.kind == "fine" and not row.cancelled]


def next_deal_number(deals: Iterable[Any]) -> int:
    """The number of the deal in play: one after the last recorded (1 before any), from a
    party's deal rows in any order."""
    return max((deal.number for deal in deals), default=0) + 1


def deal_scores(deals: Iterable[Any]) -> list[DealScore]:
    """Deal rows (models or objects with the same fields) as the engine's plain data."""
    return [
        DealScore(
            outcome=d.outcome,
            winner=d.winner or None,
            points=dict(d.scores) if d.scores else {"a": d.points_a, "b": d.points_b},
            carry=d.carry if d.outcome == "drawn_fish" else 0,
            play_points=d.play_points,
            game=d.game,
            number=d.number,
        )
        for d in sorted(deals, key=lambda d: d.number)
    ]


def fine_facts(penalties: Iterable[Any]) -> list[FineFact]:
    """The fines among penalty rows as the engine's plain data (cancelled ones excluded)."""
    return [
        FineFact(side=p.side, points=p.points, mode=p.mode or "deduct", game=p.game,
                 deal=getattr(p, "deal_number", None))
        for p in penalties
        if p.kind == "fine" and not p.cancelled and p.points
    ]


def forfeit_totals(rule_set_code: str, winner: str, cfg: RulesConfig) -> Totals:
    """Totals of a party decided without play (no-show, bye, disqualification)."""
    return get_rule_set(rule_set_code).forfeit_totals(winner, cfg)


def compute_party_totals(
    rule_set_code: str,
    cfg: RulesConfig,
    deals: Iterable[Any],
    penalties: Iterable[Any],
    *,
    end_reason: str = "",
    winner: str = "",
    game: int = 1,
) -> Totals:
    """Totals of one party from plain rows; every total shown anywhere comes from here.

    ``game`` is the game in play of a match (UDL, All Fives); a decided match's ``winner``
    takes its last game.
    """
    if end_reason in ("forfeit", "bye", "disqualification") and winner:
        return forfeit_totals(rule_set_code, winner, cfg)
    rule_set = get_rule_set(rule_set_code)
    if plays_games(rule_set):
        return rule_set.party_totals(
            deal_scores(deals),
            fine_facts(penalties),
            cfg,
            game_in_play=game,
            match_winner=winner or None,
        )
    return rule_set.party_totals(deal_scores(deals), fine_facts(penalties), cfg)


def party_rows(party: Any) -> tuple[list[DealRow], list[FineRow]]:
    """A party's deals in order and its fines in force, as plain rows (two queries)."""
    return deal_rows(party), fine_rows(party)


def prefetched_rows(party: Any) -> tuple[list[Any], list[Any]]:
    """A party's deals and penalties as loaded with it (``prefetch_related("deals",
    "penalties")``), no query: the totals read the deals in number order and the fines in
    force among the penalties."""
    return list(party.deals.all()), list(party.penalties.all())


_DEAL_ROWS = CompiledQuery(
    "deal_rows", Deal,
    lambda party_id: Deal.objects.filter(party_id=party_id).order_by("number")
    .values_list(*DEAL_ROW_FIELDS),
    int,
)
_FINE_ROWS = CompiledQuery(
    "fine_rows", Penalty,
    lambda party_id: Penalty.objects.filter(party_id=party_id, kind="fine", cancelled=False)
    .order_by().values_list(*FINE_ROW_FIELDS),
    int,
)


def deal_rows(party: Any) -> list[DealRow]:
    """A party's deals in order as plain rows (one query)."""
    return [DealRow(*row) for row in _DEAL_ROWS.rows(party.pk)]


def fine_rows(party: Any) -> list[FineRow]:
    """A party's fines in force as plain rows (one query)."""
    return [FineRow(*row) for row in _FINE_ROWS.rows(party.pk)]


def party_totals(party: Any, rows: tuple[list[Any], list[Any]] | None = None) -> Totals:
    """Totals of a party model instance (from ``rows`` if given, else loaded)."""
    tournament = party.round.tournament
    deals, fines = party_rows(party) if rows is None else rows
    return compute_party_totals(
        tournament.rule_set,
        tournament.regulations.rules_config(),
        deals,
        fines,
        end_reason=party.end_reason,
        winner=party.winner,
        game=party.game,
    )


def moment_of_play(row: Any) -> datetime | None:
    """When a deal (a row or model) was played, as the referee lived it: the moment he entered
    it on his device (``entered_at``, on the server's clock), else when it arrived
    (``recorded_at``). The one answer to "played before or after the time ran out"."""
    return getattr(row, "entered_at", None) or row.recorded_at


def deals_after(rows: Sequence[Any], moment: Any, game: int | None = None) -> int:
    """Deals (not annulled) among ``rows`` played after ``moment``, of ``game`` when given.

    A deal is played when ``moment_of_play`` says: a deal entered before ``moment`` on a device
    that was offline, which arrives after it, was played in time. The one deal entered after
    ``moment`` whose play ended before it (the time ran out while it was counted or the tiles
    shuffled: ``counted_after_time_up``) does not count either: one more deal is played
    (RULES.md, time). Only one: a second deal so marked counts like any other.
    """
    if moment is None:
        return 0
    counted = counted_after_time_up(rows, moment, game)
    count = 0
    for row in rows:
        if row.outcome == Deal.Outcome.ANNULLED or row.number == counted:
            continue
        if _played_after(row, moment, game):
            count += 1
    return count


def _played_after(row: Any, moment: Any, game: int | None) -> bool:
    """Whether a deal row (of ``game`` when given) was played after ``moment``."""
    played = moment_of_play(row)
    return played is not None and played > moment and (game is None or row.game == game)


def counted_after_time_up(rows: Sequence[Any], moment: Any, game: int | None = None) -> int | None:
    """The number of the deal counted after the time ran out at ``moment`` (of ``game`` when
    given): the first deal, not annulled, played after it and marked
    ``play_ended_before_time_up`` (its play ended in time, the time ran out while it was
    counted or the tiles shuffled), or None. The seeds allow one such deal (000/001: "one
    more deal is played"); ``scoring.party.entry_time.check_counted_after_time_up`` refuses a
    second."""
    if moment is None:
        return None
    numbers = [
        row.number for row in rows
        if row.outcome != Deal.Outcome.ANNULLED
        and getattr(row, "play_ended_before_time_up", False)
        and _played_after(row, moment, game)
    ]
    return min(numbers) if numbers else None


def kozel_ratings(party: Any, totals: Totals) -> dict[str, int] | None:
    """Each seat's rating after a finished Kozel party, as the engine rates it (else None).

    The desk, the party page, the protocol and the API show this; the standings ask the
    engine the same question (``Kozel.party_ratings``) per entrant.
    """
    tournament = party.round.tournament
    rule_set, cfg = tournament.engine, tournament.regulations.rules_config()
    rate = getattr(rule_set, "seat_ratings", None)
    if rate is None or party.status != "finished" or not totals.points:
        return None
    points = {seat: totals.points.get(seat, 0) for seat in rule_set.sides_for(cfg)}
    return rate(points, cfg, reason=party.end_reason, at_fault=party.loser)
