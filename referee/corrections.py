"""The one deal correction stack of the pages: who may correct a record, and the deal form.

The party page's correct and annul links, the referee desk's editor and the API share one
rule, ``scoring.access.permissions.can_correct_record``: a referee corrects the records he made (the
chief referee anyone's), and a party locked by its signed protocol is changed only by the
chief referee's amendment, with a reason (``scoring.party.protocol_lock``).
``deal_entry`` is how the
deal form looks for a rule set.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from referee import access, state
from referee.rulings import scores_by_seat
from scoring.models import Deal, Party
from scoring.party.entry_time import counted_deal
from scoring.party.leaders import expected_leader
from scoring.rules import DEAL_FORM_PAIRS, RulesConfig, RuleSet
from scoring.rules.allfives import MAX_PLAY_POINTS

PLAY_VALUES = range(5, MAX_PLAY_POINTS + 1, 5)
"""The buttons of a scoring play (All Fives, UDL): +5 … +45."""


def record_to_correct(user: Any, model: type, pk: int, author_field: str) -> tuple[Any, Party]:
    """A deal or penalty the user may correct (``permissions.can_correct_record``), with its
    party (404 hidden, 403 refused)."""
    return access.record_for_correction(user, model, pk, author_field)


def deal_entry(
    party: Party, rule_set: RuleSet, cfg: RulesConfig, deal: Deal | None = None,
    deals: Sequence[Deal] | None = None,
) -> dict[str, Any]:
    """How the deal form looks for the party's rule set (filled in with ``deal``'s values).

    ``deals``: the party's deals in any order, when the caller has read them (the leader of
    the next deal is named from them; else they are read).

    ``kind``: "pairs" (sport, Latin: a pair wins, quick points or pips per player), "match"
    (UDL, All Fives: scoring plays during the hand, the end count, a stopped hand), "seats"
    (the Draw, Block and Classic games: a player wins) or "kozel" (each player's deal total).
    A correction enters the points of every side (the referee may also have ended the deal).
    """
    seats = state.seat_names(party, rule_set, cfg)
    sides = state.side_names(party, rule_set, cfg)
    by_seat = scores_by_seat(rule_set, cfg)
    layout = rule_set.layout_for(cfg)
    kind = layout.deal_form(bool(by_seat))
    outcomes = [("domino", _("Domino")), ("fish", _("Fish"))]
    if rule_set.plays_games:
        outcomes.append(("stopped", _("Stopped: the game ended during the hand")))
    if kind == DEAL_FORM_PAIRS:
        winners = [("a", _("Pair A won")), ("b", _("Pair B won"))]
    else:
        winners = [
            (key, _("%(side)s · %(name)s won") % {"side": key.upper(), "name": name})
            for key, name in sides
        ]
    pips = (deal.pips if deal is not None else None) or {}
    point_rows: list[tuple[str, str, int | None]] = []
    accounts = layout.accounts  # each player's deal total, no winner to choose
    if accounts or deal is not None:
        rows = seats if accounts else [
            (key, f"{key.upper()} · {name}") for key, name in sides
        ]
        point_rows = [(key, label, _deal_points(deal, key)) for key, label in rows]
    if deal is not None:
        outcomes.append(("referee", _("Ended by the referee")))
    return {
        "kind": kind,
        "accounts": accounts,
        "seats": seats,
        "sides": sides,
        "point_rows": point_rows,
        "pip_rows": [(seat, label, pips.get(seat)) for seat, label in seats],
        "initial": _initial(deal),
        "outcomes": outcomes,
        "winners": winners,
        "plays": rule_set.plays_games,
        "play_values": PLAY_VALUES,
        "play_rows": [(seat, label) for seat, label in seats],
        "led": True,
        "led_tie_break": rule_set.uses_led,
        "next_led": "" if deal is not None else expected_leader(
            party, None if deals is None else sorted(deals, key=lambda d: d.number, reverse=True)
        ),
        "fish_by": accounts and deal is None,
        # the box "time ran out during counting": one deal of a party may be marked so
        "time_box": deal is None and counted_deal(
            party, list(party.deals.all()) if deals is None else deals) is None,
        "max_points": cfg.max_deal_points,
        "step": 5 if rule_set.plays_games else 1,
    }


def _deal_points(deal: Deal | None, key: str) -> int | None:
    """What a recorded deal gave ``key`` (a side or seat), without the points made in play."""
    if deal is None:
        return None
    scores = deal.scores or {"a": deal.points_a, "b": deal.points_b}
    return scores.get(key, 0) - (deal.play_points or {}).get(key, 0)


def _initial(deal: Deal | None) -> dict[str, Any]:
    """A recorded deal's values as the deal form shows them (nothing for a new deal)."""
    if deal is None:
        return {}
    outcome = "fish" if deal.outcome == Deal.Outcome.DRAWN_FISH else deal.outcome
    return {
        "outcome": outcome,
        "winner": deal.winner,
        "went_out": deal.went_out,
        "led": deal.led,
        "pips": deal.pips or {},
        "plays": " ".join(f"{who}:{points}" for who, points in deal.plays or []),
    }
