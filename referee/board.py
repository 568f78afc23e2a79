"""The provisional scoreboard's data: the rule set's rule data, the confirmed totals, the clock.

Sent with the desk's scoreboard as a JSON script element (``templates/referee/_scoreboard.html``);
``static/js/desk-board.js`` adds the deals queued on the device to the server's confirmed
totals with it, and says the deal number, a target reached and the last deal after time-up
while the queue waits. The rule knowledge comes from the rule set (``RuleSet.board_rules``,
:mod:`scoring.rules.board`): nothing here knows a game.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.urls import reverse

from referee.sides import rules_of
from scoring.models import Party
from scoring.totals.compute import counted_after_time_up, deals_after


def _ms(moment: Any) -> int | None:
    """A moment as milliseconds since the epoch (None stays None)."""
    return None if moment is None else int(moment.timestamp() * 1000)


def board_data(
    party: Party, state: dict[str, Any], totals: Any, deals: list[Any]
) -> dict[str, Any]:
    """What the device needs to show a provisional score (``state``: ``party_state``'s summary,
    ``totals`` the engine's, ``deals`` the party's deals; moments in ms of the server's clock).

    ``rules`` is None where the rule set's deals cannot be scored on the device; the board then
    counts the queued deals and says the score waits for the server.
    """
    rule_set, cfg = rules_of(party)
    clock = state["clock"]
    left = clock["seconds_left"]
    running = clock["started_at"] is not None and not clock["paused"] and left is not None
    expires = _ms(party.time_expired_at)
    if expires is None and running and party.started_at and party.limit_seconds is not None:
        # the clock runs: it runs out the limit and the pauses after the start
        expires = _ms(party.started_at + timedelta(
            seconds=party.limit_seconds + party.paused_seconds))
    return {
        "party": party.pk,
        "version": party.version,
        "status": party.status,
        "deal_url": reverse("referee:action", args=[party.pk, "deal"]),
        "rules": rule_set.board_rules(cfg),
        "names": {row["key"]: row["name"] or row["label"] for row in state.get("sides", [])},
        "confirmed": {
            "points": dict(totals.points),
            "deal_points": dict(totals.deal_points),
            "fine_points": dict(totals.fine_points),
            "carry": totals.carry,
            "deal_in_play": state["deal_in_play"],
            "deals_after_expiry": deals_after(deals, party.time_expired_at),
            "counted_after_time_up": counted_after_time_up(
                deals, party.time_expired_at) is not None,
        },
        "clock": {
            "expires_at": expires,
            "paused": clock["paused"],
            "has_clock": party.limit_seconds is not None,
        },
    }
