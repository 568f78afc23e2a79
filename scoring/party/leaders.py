"""Who leads a deal (RULES.md): the start-of-party draw gives deal 1; in Kozel whoever went
out or made the fish opens the next one, in Latin the player after the last leader. The rule
set says it; the deal records it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError
from scoring.models import Deal, Party

LEADER_FIELDS = ("number", "outcome", "went_out", "fish_by", "led")
"""The deal fields ``expected_leader`` reads."""


def expected_leader(party: Party, deals: Sequence[Any] | None = None) -> str:
    """The seat that leads the party's next deal by the rules, or "" when they do not say.

    Deal 1: the winner of the start-of-party draw (``Party.first_mover``), if recorded. Later
    deals: the rule set's ``next_leader`` of the last deal (Kozel, Latin); an annulled deal is
    started again by the player who had the right, so it passes its own leader on.
    ``deals``: the party's deals, last first, when the caller has read them (``LEADER_FIELDS``).
    """
    tournament = party.round.tournament
    rule_set = tournament.engine
    if deals is None:
        deals = list(
            Deal.objects.filter(party_id=party.pk).order_by("-number").only(*LEADER_FIELDS)
        )
    if not deals:
        return party.first_mover
    follow = getattr(rule_set, "next_leader", None)
    for deal in deals:
        if deal.outcome == Deal.Outcome.ANNULLED:
            if deal.led:
                return deal.led
            continue
        if follow is None:
            return ""
        cfg = tournament.regulations.rules_config()
        return follow(deal.outcome, deal.went_out, deal.fish_by, deal.led, cfg) or ""
    return party.first_mover


def _seat(party: Party, seat: str, field: str) -> str:
    """``seat`` if a player of the party's game sits there ("" stays "")."""
    if not seat:
        return ""
    tournament = party.round.tournament
    if seat not in tournament.engine.seats_for(tournament.regulations.rules_config()):
        raise ServiceError(
            field, _("Nobody sits on %(seat)s in this game.") % {"seat": str(seat).upper()}
        )
    return seat


def settle_leader(party: Party, outcome: str, led: Any, fish_by: Any,
                  deals: Sequence[Any] | None = None) -> tuple[str, str]:
    """The deal's leader and fish maker as recorded: checked seats, the rules' leader by default.

    A leader other than the one the rules name (the draw's winner for deal 1, Kozel's player
    who went out or made the fish, Latin's player after the last leader) is refused.
    ``fish_by`` is kept for a fish only. Deal 1's leader, where no draw was recorded, is the
    draw's winner: the locked party keeps him. ``deals`` as for ``expected_leader``.
    """
    led = _seat(party, led or "", "led")
    fish_by = _seat(party, fish_by or "", "fish_by") if outcome == "fish" else ""
    expected = expected_leader(party, deals)
    if expected and led and led != expected:
        raise ServiceError(
            "led",
            _("%(seat)s leads this deal by the rules, not %(other)s.")
            % {"seat": expected.upper(), "other": led.upper()},
        )
    first = not deals if deals is not None else not Deal.objects.filter(party_id=party.pk).exists()
    if led and not expected and not party.first_mover and first:
        party.first_mover = led
        party.save(update_fields=["first_mover"])
    return led or expected, fish_by
