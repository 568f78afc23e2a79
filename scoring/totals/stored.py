"""Stored party totals: written with a party's result, read by the standings, rebuilt on demand.

A finished party's totals (``scoring.totals.compute.compute_party_totals``) and fines are stored
once,
in :class:`~scoring.models.PartyTotals`, stamped with the party's version and a digest of its
rules. The standings read one row per party; a row that is missing or stale (another version,
other rules) is computed again from the deals and written (:func:`fill_totals`), so a stale
row costs time, never a wrong figure.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from django.db.models import QuerySet

from scoring.models import Deal, Party, PartyTotals, Penalty, Tournament
from scoring.rules import Totals, by_party_side, party_side
from scoring.totals.compute import (
    DEAL_ROW_FIELDS,
    FINE_ROW_FIELDS,
    DealRow,
    FineRow,
    compute_party_totals,
    fine_facts,
)

FIGURES = ("points_a", "points_b", "fines_a", "fines_b", "games_a", "games_b")
"""The per-side figures of a stored row, in the order the standings read them."""
SEAT_FIGURES = ("seat_points", "seat_fines")
"""The per-seat figures (Kozel, each for himself)."""
_UPDATED = ("version", "rules", *FIGURES, *SEAT_FIGURES)
_BATCH = 2000


def rules_digest(tournament: Tournament) -> str:
    """A short digest of what the totals depend on besides the party: rule set and settings."""
    parts = (tournament.rule_set, repr(tournament.regulations.rules_config()))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def figures(totals: Totals, fines: Iterable[Any]) -> dict[str, Any]:
    """The stored figures of a party: points, fines and game wins per side, and per seat."""
    points = by_party_side(totals.points)
    games = by_party_side(getattr(totals, "game_wins", None) or {})
    fined = {"a": 0, "b": 0}
    for fine in fine_facts(fines):
        if party_side(fine.side) in fined:
            fined[party_side(fine.side)] += fine.points
    return {
        "points_a": points["a"], "points_b": points["b"],
        "fines_a": fined["a"], "fines_b": fined["b"],
        "games_a": games["a"], "games_b": games["b"],
        "seat_points": dict(totals.points), "seat_fines": dict(totals.fine_points),
    }


def _write(rows: list[PartyTotals]) -> None:
    """Insert the rows, replacing any stored row of the same party (one statement a batch)."""
    PartyTotals.objects.bulk_create(
        rows, batch_size=_BATCH, update_conflicts=True, unique_fields=["party"],
        update_fields=list(_UPDATED),
    )


def store_totals(party: Party, totals: Totals, fines: Iterable[Any], *, version: int) -> None:
    """Store a finished party's totals as of ``version`` (its caller's version after the change).

    Called by ``scoring.party.ending`` where a result is recorded, with the totals it just made.
    """
    row = PartyTotals(
        party_id=party.pk, version=version, rules=rules_digest(party.round.tournament),
        **figures(totals, fines),
    )
    _write([row])


def deal_and_fine_rows(
    deals: QuerySet[Deal], penalties: QuerySet[Penalty]
) -> tuple[dict[int, list[DealRow]], dict[int, list[FineRow]]]:
    """The selected deals and the fines among the selected penalties, as plain rows by party.

    Two queries and no model instances, whatever the number of parties.
    """
    by_party: dict[int, list[DealRow]] = defaultdict(list)
    deal_rows = deals.order_by().values_list("party_id", *DEAL_ROW_FIELDS)
    for party_id, *deal in deal_rows:
        by_party[party_id].append(DealRow(*deal))
    fines: dict[int, list[FineRow]] = defaultdict(list)
    fine_rows = (
        penalties.filter(kind=Penalty.Kind.FINE, cancelled=False)
        .order_by()
        .values_list("party_id", *FINE_ROW_FIELDS)
    )
    for party_id, *fine in fine_rows:
        fines[party_id].append(FineRow(*fine))
    return by_party, fines


def fill_totals(tournament: Tournament, party_ids: Sequence[int]) -> dict[int, PartyTotals]:
    """Compute the totals of the given finished parties from their deals and store them.

    The fallback of the standings for missing or stale rows, and the rebuild command's work:
    a few queries per batch of parties, whatever their number of deals.
    """
    cfg = tournament.regulations.rules_config()
    digest = rules_digest(tournament)
    done: dict[int, PartyTotals] = {}
    for start in range(0, len(party_ids), _BATCH):
        batch = list(party_ids[start : start + _BATCH])
        parties = Party.objects.filter(pk__in=batch, status=Party.Status.FINISHED).order_by()
        if tournament.engine.layout_for(cfg).accounts:
            parties = parties.filter(pair_b__isnull=False)  # a Kozel bye has no totals
        # the versions before the deals: a change committed in between leaves the row stale
        read = list(parties.values_list("id", "version", "end_reason", "winner", "game"))
        deals, fines = deal_and_fine_rows(
            Deal.objects.filter(party_id__in=batch), Penalty.objects.filter(party_id__in=batch)
        )
        rows = []
        for party_id, version, end_reason, winner, game in read:
            totals = compute_party_totals(
                tournament.rule_set, cfg, deals.get(party_id, ()), fines.get(party_id, ()),
                end_reason=end_reason, winner=winner, game=game,
            )
            rows.append(PartyTotals(
                party_id=party_id, version=version, rules=digest,
                **figures(totals, fines.get(party_id, ())),
            ))
        _write(rows)
        done.update((row.party_id, row) for row in rows)
    return done


def rebuild_totals(tournament: Tournament) -> int:
    """Store the totals of every finished party of the tournament afresh; how many."""
    ids = list(
        Party.objects.filter(round__tournament=tournament, status=Party.Status.FINISHED)
        .order_by("id")
        .values_list("id", flat=True)
    )
    return len(fill_totals(tournament, ids))
