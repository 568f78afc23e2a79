"""What the referee's party screen shows: the panel's context, built for one rendering.

Names come with every side and seat (``names``: the pairs and players by "a", "b", "a1" …),
so buttons, rows and messages say who; ``flash_at`` says which section answers the action
that just ran, so its message appears next to the control that caused it.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from referee import desk_steps, services, state
from referee.corrections import deal_entry
from referee.rulings import SLOW_PLAY, PenaltyPreset, paid_slow_play, scores_by_seat
from referee.sides import who_names
from scoring.access import permissions
from scoring.core.timezones import activate_tournament_zone
from scoring.models import Party, Penalty, Ruling
from scoring.party.done import Done
from scoring.rules import RulesConfig, RuleSet
from scoring.rules.moves import MAX_OPEN_ENDS
from scoring.signoff.content import party_players
from scoring.signoff.pins import players_without_pin

RULING_BUTTONS = ("continue", "reshuffle", "fits", "misfit", "false_pass")
"""The one-tap ruling buttons per seat (each its own form and client id)."""

FLASH_PLACES = {
    "start": "clock-controls",
    "pause": "clock-controls",
    "pause-reason": "clock-controls",
    "resume": "clock-controls",
    "time-up": "clock-controls",
    "game-time-up": "clock-controls",
    "check-in": "clock-controls",
    "deal": "deal-entry",
    "warning": "warnings",
    "fine": "rulings",
    "out-of-turn": "rulings",
    "false-pass": "rulings",
    "touched-tile": "rulings",
    "no-show": "rulings",
    "disqualify": "rulings",
    "player-timeout": "rulings",
    "redeal": "rulings",
    "first-mover": "top",
    "udl-violation": "rulings",
    "correct": "records",
}
"""The panel's section that answers each action (its message shows there); else the top."""

SECTIONS_BY_STATUS: dict[str, set[str]] = {
    Party.Status.SCHEDULED: {"clock-controls", "rulings", "records"},
    Party.Status.IN_PROGRESS: {"clock-controls", "deal-entry", "warnings", "rulings", "records"},
    Party.Status.FINISHED: {"records"},
}


class FreshIds(dict):
    """Client ids for the forms of one rendering: a new one for every name asked."""

    def __missing__(self, key: str) -> str:
        self[key] = uuid.uuid4().hex
        return self[key]


def flash_place(action: str, party: Party) -> str:
    """Where the panel shows the answer to ``action``: its section, if the panel still shows
    it (a deal that ends the party answers at the top)."""
    place = FLASH_PLACES.get(action, "top")
    shown = SECTIONS_BY_STATUS.get(party.status, set())
    if place == "clock-controls" and party.pair_b_id is None:
        return "top"
    return place if place in shown else "top"


def seat_names(party: Party) -> list[tuple[str, str]]:
    """(seat, "A1 · name") of the players at the table under the rule set, in playing order."""
    rule_set, cfg = state.rules_of(party)
    return state.seat_names(party, rule_set, cfg)


def _warning_cells(
    code: str, by_kind: dict[str, dict[str, int]], seats: list[tuple[str, str]], by_seat: bool,
    ids: FreshIds,
) -> list[dict[str, Any]]:
    """The warning buttons of one kind: one per pair, or one per player where he keeps his own
    score (the warnings then escalate per player)."""
    keys = [(seat, seat[0]) for seat, _label in seats] if by_seat else [("a", "a"), ("b", "b")]
    return [
        {"side": side, "seat": key if by_seat else "", "key": key,
         "count": by_kind.get(key, {}).get(code, 0), "id": ids[f"warning-{code}-{key}"]}
        for key, side in keys
    ]


def _udl_context(
    rule_set: RuleSet, cfg: RulesConfig, seats: list[tuple[str, str]], ids: FreshIds
) -> dict[str, Any] | None:
    """The UDL violations block: each violation and its consequence, the slow-play buttons."""
    if not rule_set.violations:
        return None
    violations = [
        (code, _(label), _(rule_set.consequences[code]) % {"points": cfg.udl_slow_play_points})
        for code, label in rule_set.violations.items()
    ]
    penalty_for = getattr(rule_set, "penalty_for", None)
    return {
        "violations": violations,
        "breaks_minutes": getattr(rule_set, "no_breaks_last_minutes", None),
        "disqualifying": [
            text for code, _label, text in violations
            if penalty_for is not None and penalty_for(code, 0, cfg).ends_match
        ],
        "slow_play": [
            {"seat": seat, "label": label, "id": ids[f"udl-slow-{seat}"]} for seat, label in seats
        ],
    }


def without_pin(party: Party) -> list[Any]:
    """The party's players who have no signing PIN (they sign on their own login only)."""
    if party.is_bye:
        return []
    return players_without_pin([player for _seat, player in party_players(party)])


def panel_context(
    request: HttpRequest, party: Party, result: Done[Any] | None = None, **extra: Any
) -> dict[str, Any]:
    """Everything the party screen's panel shows, with fresh client ids for its forms.

    ``result``: the result of the action just made, whose deals, totals and protocol check
    the panel shows (``state.screen_party``); else the party is loaded with ``party_queryset``.
    """
    activate_tournament_zone(party.round.tournament)
    data = state.party_state(party, result)
    deals = state.screen_deals(party, result)
    ids = FreshIds()
    by_kind = data["warnings_by_kind"]
    seats = seat_names(party)
    rule_set, cfg = state.rules_of(party)
    by_seat = scores_by_seat(rule_set, cfg)
    names = who_names(party)
    context = {
        "party": party,
        "tournament": party.round.tournament,
        "regulations": party.round.tournament.regulations,
        "settings": (desk_settings := services.referee_settings(party.round.tournament)),
        "udl_slow_play": paid_slow_play(
            rule_set, PenaltyPreset(code=desk_settings.penalty_preset), SLOW_PLAY
        ),
        "s": data,
        "names": names,
        "events": state.events(party, limit=30),
        "seats": seats,
        "side_choices": [
            (key, f"{key.upper()} · {name}") for key, name in state.side_names(party, rule_set, cfg)
        ],
        "seat_rows": [
            {
                "seat": seat,
                "label": label,
                "ids": {name: ids[f"{name}-{seat}"] for name in RULING_BUTTONS},
            }
            for seat, label in seats
        ],
        "ends": range(7),
        "helper": rule_set.helper_for(cfg),
        "scores_during_play": getattr(rule_set, "scores_during_play", False),
        "end_slots": range(1, MAX_OPEN_ENDS + 1),
        "warning_rows": [
            {
                "code": c.value,
                "label": c.label,
                "cells": _warning_cells(c.value, by_kind, seats, by_seat, ids),
            }
            for c in services.WARNING_CATEGORIES
        ],
        "entry": deal_entry(party, rule_set, cfg, deals=deals),
        "correctable": permissions.correctable(
            request.user, party, deals, locked=result.locked if result else None,
            grants=permissions.request_grants(request),
        ),
        "rule_set": rule_set,
        "cfg": cfg,
        "by_seat": by_seat,
        "fine_to_account": rule_set.layout_for(cfg).accounts,
        "udl": _udl_context(rule_set, cfg, seats, ids),
        "redeal_reasons": [
            (code, _(label))  # noqa: INT001 - the rule set's reasons are marked for translation
            for code, label in rule_set.redeal_reasons.items()
        ],
        "fine_kinds": Penalty.Category.choices,
        "check_in_rows": list(data["check_in"]["seats"].items()),
        "no_pin": without_pin(party) if party.status == Party.Status.SCHEDULED else [],
        "singles": party.pair_a.player2_id is None,
        "Choice": Ruling.Choice,
        "cid": ids,
        "flash_at": "top",
        **extra,
    }
    context.update(desk_steps.panel_safety(context))
    return context
