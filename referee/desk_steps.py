"""The referee screen's safety steps: asking before an irreversible action, and undoing one.

A page form of an irreversible action posted without ``confirmed=1`` is answered with a
confirmation step that names the consequence (and nothing changes); the panel's forms carry
the same text for the browser's dialog, which adds ``confirmed=1`` to the form before it is
sent. The JSON API never asks. After an action, the undo control is offered for the undo
window; without htmx it survives the redirect in the session.
"""

from __future__ import annotations

import time
from typing import Any

from django.http import HttpRequest

from referee import offline
from referee.consequence_maps import PanelConsequences
from referee.consequences import IRREVERSIBLE, Consequences
from referee.rulings import PenaltyPreset, offender_side
from scoring.models import Deal, Party, Penalty, Ruling
from scoring.rules import RuleError
from scoring.rules import udl as udl_rules

CONFIRMED = "confirmed"
"""The form field that says the referee confirmed the consequence ("1")."""
CONFIRM_HEADER = offline.CONFIRM_HEADER
"""Set on a confirmation step: the action was not performed (for scripts replaying forms)."""
UNDO_SESSION = "referee-undo-%s"
NOT_REPEATED = ("csrfmiddlewaretoken", CONFIRMED)


def _retried(party: Party, client_id: str) -> bool:
    """Whether a request with this client id already made its record (a retry or double tap)."""
    if not client_id:
        return False
    return any(
        model.objects.filter(party_id=party.pk, client_id=client_id).exists()
        for model in (Deal, Penalty, Ruling)
    )


def confirmation_step(
    request: HttpRequest, party: Party, name: str, data: dict[str, Any], input_class: type
) -> dict[str, Any] | None:
    """The confirmation an unconfirmed irreversible page action is answered with (None: act).

    Invalid input, a stale version (the service answers 409) and a retry of a request that
    already made its record go on to the action, which answers them as always.
    """
    if name not in IRREVERSIBLE or request.POST.get(CONFIRMED) == "1":
        return None
    serializer = input_class(data=data, context={"party": party})
    if not serializer.is_valid():
        return None
    valid = serializer.validated_data
    version = valid.get("version")
    if (version is not None and version != party.version) or _retried(
        party, valid.get("client_id", "")
    ):
        return None
    text = Consequences(party).of(name, valid)
    if not text:
        return None
    fields = [
        (key, value)
        for key, values in request.POST.lists()
        if key not in NOT_REPEATED
        for value in values
    ]
    return {"text": text, "action": request.path, "fields": fields, "name": name}


# -- undo --------------------------------------------------------------------------------------


def remember_undo(request: HttpRequest, party_id: int, offer: dict[str, Any] | None) -> None:
    """Keep the undo offer across the redirect of a page without htmx (or forget the old one)."""
    key = UNDO_SESSION % party_id
    if offer is None:
        request.session.pop(key, None)
        return
    request.session[key] = {**offer, "until": time.time() + offer["seconds"]}


def pending_undo(request: HttpRequest, party_id: int) -> dict[str, Any] | None:
    """The undo offer kept for this party's screen, while its time lasts (shown once)."""
    offer = request.session.pop(UNDO_SESSION % party_id, None)
    if not offer:
        return None
    left = int(offer["until"] - time.time())
    if left < 1:
        return None
    return {"record": offer["record"], "id": offer["id"], "seconds": left}


# -- the panel ---------------------------------------------------------------------------------


def _pause_reason(events: list[Any]) -> str:
    """The reason of the pause in progress, as given when pausing or afterwards."""
    for event in events:  # newest first
        if event.kind in ("pause_reason", "clock_paused"):
            return event.reason
    return ""


def _warning_cells(consequences: Consequences, rows: list[dict[str, Any]]) -> None:
    """Each warning button learns what it will do: the fine's points and the question's text."""
    rule_set, cfg = consequences.rule_set, consequences.cfg
    for row in rows:
        for cell in row["cells"]:
            try:
                offender = offender_side(rule_set, cfg, cell["side"], cell["seat"])
            except RuleError:
                continue
            decision = consequences.next_warning(row["code"], offender)
            cell["fine_points"] = decision.points if decision.is_fine else None
            cell["confirm"] = consequences.of(
                "warning", {"category": row["code"], "side": cell["side"], "seat": cell["seat"]}
            )


def panel_safety(context: dict[str, Any]) -> dict[str, Any]:
    """The panel's questions and previews: what each irreversible form says before it acts.

    Adds to the rows of ``context`` (warning cells, seat rows, UDL slow-play rows) and returns
    ``confirm`` (the texts of the other forms) and ``pause_reason``.
    """
    party, state = context["party"], context["s"]
    extra: dict[str, Any] = {"pause_reason": _pause_reason(context.get("events") or [])}
    if state["status"] == Party.Status.FINISHED or party.pair_b_id is None:
        return extra
    desk = context["settings"]
    consequences = PanelConsequences(
        party, state["warnings_by_kind"], state["deal_in_play"],
        PenaltyPreset(code=desk.penalty_preset),
    )
    by_seat = context["by_seat"]
    _warning_cells(consequences, context["warning_rows"])
    per_seat = consequences.seat_texts()
    for row in context["seat_rows"]:
        row["confirm"] = per_seat.get(row["seat"], {})
    disqualify, disqualify_keys = consequences.disqualify_map(by_seat)
    fine, fine_keys = consequences.fine_map(by_seat)
    confirm: dict[str, Any] = {
        "time_up": consequences.of("time-up", {}),
        "game_time_up": consequences.of("game-time-up", {}),
        "no_show": [(side, consequences.of("no-show", {"side": side})) for side in "ab"],
        "disqualify": disqualify,
        "disqualify_keys": disqualify_keys,
        "fine": fine,
        "fine_keys": fine_keys,
        "player_timeout": [
            (seat, consequences.of("player-timeout", {"seat": seat}))
            for seat in consequences.seats()
        ]
        if state.get("kozel")
        else [],
    }
    udl = context.get("udl")
    if udl:
        confirm["udl"], confirm["udl_keys"] = consequences.udl_map()
        for row in udl["slow_play"]:
            row["confirm"] = consequences.of(
                "udl-violation", {"seat": row["seat"], "violation": udl_rules.SLOW_PLAY}
            )
    return {**extra, "confirm": confirm}


def advice_texts(party: Party, seat: str) -> dict[str, str]:
    """The questions of the move-time helper's buttons for the player on ``seat``."""
    if not seat:
        return {}
    consequences = Consequences(party)
    return {
        "false_pass": consequences.of("false-pass", {"seat": seat}),
        "warning": consequences.of(
            "warning", {"category": Penalty.Category.MOVE_TIME, "side": seat[0], "seat": seat}
        ),
    }
