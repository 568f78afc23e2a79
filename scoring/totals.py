"""The one function that derives a party's totals from its deals and fines."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from scoring.rules import DealScore, FineFact, RulesConfig, Totals, get_rule_set


def deal_scores(deals: Iterable[Any]) -> list[DealScore]:
    """Deal rows (models or objects with the same fields) as the engine's plain data."""
    return [
        DealScore(
            outcome=d.outcome,
            winner=d.winner or None,
            points={"a": d.points_a, "b": d.points_b},
            carry=sum((d.pips or {}).values()) if d.outcome == "drawn_fish" else 0,
        )
        for d in sorted(deals, key=lambda d: d.number)
    ]


def fine_facts(penalties: Iterable[Any]) -> list[FineFact]:
    """The fines among penalty rows as the engine's plain data (cancelled ones excluded)."""
    return [
        FineFact(side=p.side, points=p.points, mode=p.mode or "deduct")
        for p in penalties
        if p.kind == "fine" and not p.cancelled and p.points
    ]


def forfeit_totals(rule_set_code: str, winner: str, cfg: RulesConfig) -> Totals:
    """Totals of a party decided without play (no-show, bye, disqualification)."""
    points = get_rule_set(rule_set_code).forfeit(winner, cfg)
    zero = {side: 0 for side in points}
    return Totals(points=points, deal_points=dict(points), fine_points=zero, running=[], carry=0)


def compute_party_totals(
    rule_set_code: str,
    cfg: RulesConfig,
    deals: Iterable[Any],
    penalties: Iterable[Any],
    *,
    end_reason: str = "",
    winner: str = "",
) -> Totals:
    """Totals of one party from plain rows; every total shown anywhere comes from here."""
    if end_reason in ("forfeit", "bye", "disqualification") and winner:
        return forfeit_totals(rule_set_code, winner, cfg)
    rule_set = get_rule_set(rule_set_code)
    return rule_set.party_totals(deal_scores(deals), fine_facts(penalties), cfg)


def party_totals(party: Any) -> Totals:
    """Totals of a party model instance (loads its deals and penalties)."""
    tournament = party.round.tournament
    return compute_party_totals(
        tournament.rule_set,
        tournament.regulations.rules_config(),
        party.deals.all(),
        party.penalties.all(),
        end_reason=party.end_reason,
        winner=party.winner,
    )
