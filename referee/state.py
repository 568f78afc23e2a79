"""What the referee sees: a party's state (clock, phase, totals, records, alerts) and the overview.

Read-only: plain dicts built from the models, the rule engine and
``scoring.totals.compute``, shared by
the pages and the API.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db.models import Prefetch, QuerySet, prefetch_related_objects
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from referee.board import board_data
from referee.rulings import scores_by_seat
from referee.screen_rows import deal_row, penalty_row, ruling_row
from referee.services import WARNING_CATEGORIES, no_show_due_at
from referee.sides import (
    layout_extras,
    pairs_of,
    rules_of,
    seat_names,  # noqa: F401  (the views ask ``state.seat_names``)
    side_names,
)
from scoring.models import (
    PARTY_RELATED,
    Deal,
    Party,
    PartyDesk,
    PartyEvent,
    Penalty,
    Protocol,
    Round,
    Ruling,
)
from scoring.party.done import Done
from scoring.party.ending import party_decision
from scoring.rules import (
    CONTINUE,
    NEXT_GAME,
    party_side,
)
from scoring.totals.compute import (
    next_deal_number,
    party_rows,
    party_totals,
    prefetched_rows,
)

PHASE_SCHEDULED = "scheduled"
PHASE_FINISHED = "finished"

SCREEN_RELATED = (*PARTY_RELATED, "desk")
SETTINGS_RELATED = "round__tournament__referee_settings"
"""The tournament's referee settings, read with the party where the panel shows them."""


def _screen_prefetches() -> tuple[Prefetch, ...]:
    """The records the party screen lists with the party."""
    return (
        Prefetch("deals", queryset=Deal.objects.order_by("number")),
        Prefetch("penalties", queryset=Penalty.objects.select_related("player")),
        Prefetch("rulings", queryset=Ruling.objects.select_related("player")),
    )


def party_queryset() -> QuerySet[Party]:
    """Parties with everything the state needs in a few queries."""
    return Party.objects.select_related(*SCREEN_RELATED).prefetch_related(*_screen_prefetches())


def screen_party(
    party_id: int, done: Done[Any] | None = None, read: Party | None = None
) -> tuple[Party, Done[Any] | None]:
    """The party as the screen shows it right after an action, with the action's result when
    the screen shows what it carries (else None).

    ``done``: the result of the action's service. A deal entry's
    (``scoring.party.deals.record_deal``) carries the deals it read under the lock, shown as
    they are, and the totals it made; only the penalties and rulings are read now. ``read``:
    the party as the view read it for the screen before the action
    (``access.party_for_referee(..., screen=True)``): the pairs, players, table, tournament and
    desk notes the screen names are taken from it (a deal changes none of them) with the saved
    party's own row, so the party is not read again. Without it the party is read once more,
    and read whole if somebody changed it since. Else it is loaded whole.
    """
    if done is None or done.party.pk != party_id or done.deals is None:
        return party_queryset().get(pk=party_id), None
    if read is not None and read.pk == party_id:
        party = done.party
        party.round, party.table = read.round, read.table
        party.pair_a, party.pair_b = read.pair_a, read.pair_b
        party._state.fields_cache["desk"] = read._state.fields_cache.get("desk")
    else:
        party = Party.objects.select_related(*SCREEN_RELATED, SETTINGS_RELATED).get(pk=party_id)
        if party.version != done.party.version:  # another change came in between: read it all
            return party_queryset().get(pk=party_id), None
    prefetch_related_objects([party], *_screen_prefetches()[1:])
    return party, done


def screen_deals(party: Party, done: Done[Any] | None = None) -> list[Deal]:
    """The party's deals in order: as the action's result carries them (``screen_party``),
    else as loaded with the party (``party_queryset``)."""
    if done is not None and done.deals is not None:
        return done.deals
    return sorted(party.deals.all(), key=lambda d: d.number)


def desk(party: Party) -> PartyDesk:
    """The party's desk notes (unsaved defaults when none were written)."""
    try:
        return party.desk
    except PartyDesk.DoesNotExist:
        return PartyDesk(party=party)


def party_phase(party: Party, totals: Any, deal_rows: list[Any] | None = None) -> str:
    """scheduled, continue, last_deal, extra_deal or finished (the rule set decides)."""
    if party.status == Party.Status.FINISHED:
        return PHASE_FINISHED
    if party.status == Party.Status.SCHEDULED:
        return PHASE_SCHEDULED
    state = party_decision(party, deal_rows, totals).state
    games = getattr(totals, "games", None)
    if state == CONTINUE and games and games[-1].number > 1 and not games[-1].hands:
        return NEXT_GAME  # a game was just won: the next one begins
    return state


PHASE_LABELS = {
    PHASE_SCHEDULED: gettext_lazy("Not started"),
    "continue": gettext_lazy("In play"),
    "last_deal": gettext_lazy("Time is up: the deal in play is the last one"),
    "extra_deal": gettext_lazy("Scores level: one more deal"),
    "next_game": gettext_lazy("Game won: the next game of the match is in play"),
    "overtime": gettext_lazy("Scores level at the end of the game: overtime until one scores"),
    PHASE_FINISHED: gettext_lazy("Finished"),
}
PAUSED_LABEL = gettext_lazy("Paused: the clock is stopped")
"""The phase's label while play goes on but the clock is paused (not "In play")."""


def alerts(party: Party, phase: str, party_desk: PartyDesk) -> list[dict[str, str]]:
    """What needs the referee's attention at this party."""
    found: list[dict[str, str]] = []
    if party.is_bye:
        return found
    if phase == PHASE_SCHEDULED and party.round.status != Round.Status.DRAFT:
        found.append({"code": "not_started", "message": _("The party has not started.")})
    if phase in ("last_deal", "extra_deal"):
        found.append({"code": "time_expired", "message": str(PHASE_LABELS[phase])})
    elif phase in ("next_game", "overtime"):
        found.append({"code": phase, "message": str(PHASE_LABELS[phase])})
    elif phase == "continue" and party.time_is_out():
        found.append({"code": "time_expired", "message": _("Time is up.")})
    if party.paused_at and phase != PHASE_FINISHED:
        found.append({"code": "paused", "message": _("The clock is paused.")})
    absent = party_desk.absent_sides
    if party_desk.no_show_raised_at and absent and phase != PHASE_FINISHED:
        names = ", ".join(
            pair.display_name if (pair := party.pair(side)) else side.upper() for side in absent
        )
        found.append(
            {"code": "no_show", "message": _("No-show candidate: %(pairs)s.") % {"pairs": names}}
        )
    if phase == PHASE_FINISHED and awaiting_signatures(party):
        found.append(
            {"code": "awaiting_signatures", "message": _("Finished: waiting for signatures.")}
        )
    return found


def awaiting_signatures(party: Party) -> bool:
    """A finished party waits for the protocol's signatures until a version is signed."""
    if party.status != Party.Status.FINISHED:
        return False
    return not party.protocols.filter(status=Protocol.Status.SIGNED).exists()


def counts(penalties: list[Penalty]) -> dict[str, dict[str, Any]]:
    """Active warnings per side and kind, and fines per side.

    Per party side ("a", "b"); where a penalty belongs to a player (his seat, in games where
    every player keeps his own score) ``warnings_by_kind`` has his seat's counts too.
    """
    warnings: dict[str, Counter[str]] = {"a": Counter(), "b": Counter()}
    players: dict[str, Counter[str]] = {}
    fines: Counter[str] = Counter()
    for penalty in penalties:
        if penalty.cancelled:
            continue
        side = party_side(penalty.side)
        if penalty.kind == Penalty.Kind.WARNING:
            warnings[side][penalty.category] += 1
            if penalty.side != side:
                players.setdefault(penalty.side, Counter())[penalty.category] += 1
        elif penalty.kind == Penalty.Kind.FINE:
            fines[side] += 1
    return {
        "warnings": {side: sum(c.values()) for side, c in warnings.items()},
        "warnings_by_kind": {
            key: {str(k): c[k] for k in WARNING_CATEGORIES}
            for key, c in {**warnings, **players}.items()
        },
        "fines": {side: fines[side] for side in ("a", "b")},
    }


def summary(party: Party) -> dict[str, Any]:
    """The party's version, status, phase, clock and totals (a party loaded with
    ``party_queryset``: its deals and penalties are read with it)."""
    rows = prefetched_rows(party)
    return _summary(party, party_totals(party, rows), rows[0])[0]


def fresh_summary(party_id: int, done: Done[Any] | None = None) -> dict[str, Any]:
    """The summary of a party as it is now (light rows, for every action).

    ``done``: the result of the action's service, if the caller has it: its party as saved,
    and the rows and totals it made after its last change (then not read again).
    """
    if done is None or done.party.pk != party_id:
        party = Party.objects.select_related("round__tournament__regulations").get(pk=party_id)
        evaluated = None
    else:
        party, evaluated = done.party, done.evaluated
    if evaluated is not None:  # the service's own evaluation, after its last change
        return _summary(party, evaluated.totals, evaluated.rows[0])[0]
    rows = party_rows(party)
    return _summary(party, party_totals(party, rows), rows[0])[0]


def _summary(party: Party, totals: Any, deal_rows: list[Any]) -> tuple[dict[str, Any], Any]:
    """The summary and the engine's totals it was made from (``deal_rows``: its deals).

    ``totals`` are per side of the rule set: the pairs (or singles) "a" and "b", or the seats
    where every player keeps his own score (``scored_by``); never sums of players' accounts.
    ``match`` (UDL, All Fives) and ``kozel`` are None for the other rule sets.
    """
    rule_set, cfg = rules_of(party)
    phase = party_phase(party, totals, deal_rows)
    left = party.seconds_left() if party.started_at else None
    seconds_left = None if left is None else int(left)
    return {
        "id": party.pk,
        "version": party.version,
        "status": party.status,
        "phase": phase,
        "phase_label": str(
            PAUSED_LABEL if phase == CONTINUE and party.paused_at
            else PHASE_LABELS.get(phase, phase)
        ),
        "end_reason": party.end_reason,
        "winner": party.winner,
        "loser": party.lost_by,
        "rule_set": rule_set.code,
        "clock": {
            "started_at": party.started_at,
            "paused": party.paused_at is not None,
            "seconds_left": seconds_left,
            "limit_seconds": party.limit_seconds,
            "time_expired_at": party.time_expired_at,
        },
        "scored_by": "seat" if scores_by_seat(rule_set, cfg) else "side",
        "totals": {
            "points": dict(totals.points),
            "deal_points": dict(totals.deal_points),
            "fine_points": dict(totals.fine_points),
            "floored_points": {key: totals.floored.get(key, 0) for key in totals.points},
            "carry": totals.carry,
        },
        **layout_extras(party, rule_set, cfg, totals),
    }, totals


def _side_rows(party: Party, state: dict[str, Any], totals: Any) -> list[dict[str, Any]]:
    """The engine's sides as the screen shows them: name, points and the rule set's extras."""
    rule_set, cfg = rules_of(party)
    kozel, match = state["kozel"], state["match"]
    current = match["games"][-1]["points"] if match else {}
    rows = []
    for key, name in side_names(party, rule_set, cfg):
        row: dict[str, Any] = {
            "key": key,
            "label": key.upper(),
            "name": name,
            "points": totals.points.get(key, 0),
            "deal_points": totals.deal_points.get(key, 0),
            "fine_points": totals.fine_points.get(key, 0),
            "won": bool(party.winner) and party.winner in (key, party_side(key)),
            "lost": bool(party.loser) and party.loser in (key, party_side(key)),
        }
        if match:
            row["game_wins"] = match["game_wins"].get(key, 0)
            row["game_points"] = current.get(key, 0)
        if kozel:
            row["memorized"] = kozel["memorized"].get(key, 0)
            row["open"] = kozel["open"].get(key, False)
            row["rating"] = (kozel["ratings"] or {}).get(key)
        rows.append(row)
    return rows


def party_state(party: Party, done: Done[Any] | None = None) -> dict[str, Any]:
    """Everything the party screen shows (load the party with ``party_queryset``, or take
    ``screen_party``'s: ``done`` is the action's result, whose deals and totals are shown
    rather than read and added up again)."""
    deals = screen_deals(party, done)
    penalties = list(party.penalties.all())
    evaluated = done.evaluated if done is not None else None
    totals = evaluated.totals if evaluated else party_totals(party, (deals, penalties))
    state, totals = _summary(party, totals, deals)
    rule_set, cfg = rules_of(party)
    rulings = list(party.rulings.all())
    running, uncollected = iter(totals.running), iter(totals.uncollected)
    in_play = next_deal_number(deals)
    party_desk = desk(party)
    due = no_show_due_at(party)
    state.update(
        {
            "tournament": {
                "id": party.round.tournament.pk,
                "slug": party.round.tournament.slug,
                "name": party.round.tournament.name,
            },
            "round": party.round_id,
            "round_number": party.round.number,
            "table": party.table_id,
            "table_number": party.table.number if party.table else None,
            "pairs": pairs_of(party),
            "sides": _side_rows(party, state, totals),
            "by_seat": scores_by_seat(rule_set, cfg),
            "deal_in_play": in_play,
            "deals": [deal_row(deal, next(running, None), next(uncollected, None))
                      for deal in deals],
            "penalties": [penalty_row(p) for p in penalties],
            "rulings": [ruling_row(r) for r in rulings],
            "exposed": [
                {"seat": r.seat, "tile": r.details.get("tile")}
                for r in rulings
                if r.kind == Ruling.Kind.OUT_OF_TURN
                and r.choice == Ruling.Choice.CONTINUE
                and r.deal_number == in_play
                and not r.details.get("undone")
            ],
            "check_in": {
                "a": party_desk.present("a"),
                "b": party_desk.present("b"),
                "seats": {seat: party_desk.seat_present(seat) for seat in party.seat_players()},
                "no_show_due_at": due,
                "no_show_candidate": party_desk.no_show_sides
                if party_desk.no_show_raised_at
                else "",
            },
            **counts(penalties),
            "alerts": alerts(party, state["phase"], party_desk),
        }
    )
    keys = [row["key"] for row in state["sides"]]
    for row in state["deals"]:  # the screen's columns: one per side of the rule set
        totals_after = row["running"] or {}
        row["cells"] = [
            {"key": key, "points": row["points"].get(key, 0), "total": totals_after.get(key),
             "uncollected": row["uncollected"].get(key, 0)}
            for key in keys
        ]
    state["total_row"] = _total_row(keys, totals, state["deals"])
    state["uncollected"] = any(totals.uncollected)
    state["board"] = board_data(party, state, totals, deals)
    return state


def _total_row(keys: list[str], totals: Any, deals: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The deals table's closing row: each side's fines (and what the floor at zero gave
    back) and the totals the scoreboard shows (the same ``party_totals``), unless the last
    deal's running total already is them."""
    points = {key: totals.points.get(key, 0) for key in keys}
    fines = {key: totals.fine_points.get(key, 0) for key in keys}
    floored = {key: totals.floored.get(key, 0) for key in keys}
    last = (deals[-1]["running"] or {}) if deals else {}
    if not any(fines.values()) and (not deals or {key: last.get(key) for key in keys} == points):
        return None
    return {
        "fines": any(fines.values()),
        "floored": any(floored.values()),
        "cells": [{"key": key, "points": fines[key], "floored": floored[key],
                   "total": points[key]} for key in keys],
    }


def events(party: Party, limit: int | None = None) -> list[PartyEvent]:
    """The party's event log, newest first."""
    qs = party.events.select_related("actor").order_by("-seq")
    return list(qs[:limit] if limit else qs)
