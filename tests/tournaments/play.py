"""Helpers for round-flow tests: play a party to its end through the services."""

from __future__ import annotations

from scoring.models import Party
from scoring.party.deals import record_deal

# A domino by a1 (or b1) with 20 pips in each other hand: 60 points to the side that went out.
DOMINO = {
    "a": {"went_out": "a1", "pips": {"a1": 0, "a2": 20, "b1": 20, "b2": 20}},
    "b": {"went_out": "b1", "pips": {"a1": 20, "a2": 20, "b1": 0, "b2": 20}},
}


def play(party: Party | int, winner: str = "a", loser_deals: int = 1) -> Party:
    """Record deals in a started party until ``winner`` reaches the target (60 a deal).

    The loser first wins ``loser_deals`` deals, so the final score is 240 : 60 × loser_deals.
    """
    pk = party if isinstance(party, int) else party.pk
    loser = "b" if winner == "a" else "a"
    for _ in range(loser_deals):
        record_deal(pk, outcome="domino", **DOMINO[loser])
    while Party.objects.get(pk=pk).status != Party.Status.FINISHED:
        record_deal(pk, outcome="domino", **DOMINO[winner])
    return Party.objects.get(pk=pk)


def play_round(round_id: int, winner: str = "a") -> None:
    """Finish every started party of a round: the given side wins each (240 : 60)."""
    started = Party.objects.filter(round_id=round_id, status=Party.Status.IN_PROGRESS)
    for pk in started.values_list("pk", flat=True):
        play(pk, winner)
