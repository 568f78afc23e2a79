"""Rating lists from the database: the published list, a player's history, seeding ratings.

Reading a list's input is :mod:`scoring.ranking.rating_inputs`; recomputing and storing it
(from scratch, or from a changed tournament's period on) is :mod:`scoring.ranking.rating_updates`.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q, Sum

from scoring.models import Profile, RatingEntry, RatingList
from scoring.ranking.rating_inputs import (
    RatedField,
    compute_list,
    entry_rows,
    list_parameters,
    rated_field,
    rated_tournaments,
    tournament_parties,
)
from scoring.ranking.rating_updates import recompute_rating_list, update_rating_list


@dataclass(frozen=True)
class RatingLine:
    """One line of a list as published: rank, the current row, parties and tournaments rated."""

    rank: int
    entry: RatingEntry
    parties: int
    tournaments: int


def rating_lines(rating_list: RatingList) -> list[RatingLine]:
    """The published list, best first: every subject's current rating (two queries)."""
    totals = {
        row["subject"]: (row["parties"], row["events"])
        for row in RatingEntry.objects.filter(rating_list=rating_list)
        .values("subject").annotate(parties=Sum("games"), events=Count("id")).order_by()
    }
    return [
        RatingLine(rank, entry, *totals.get(entry.subject, (0, 0)))
        for rank, entry in enumerate(current_entries(rating_list), start=1)
    ]


def current_entries(rating_list: RatingList) -> list[RatingEntry]:
    """The list as it stands: each subject's current row, best first (one query)."""
    return list(
        RatingEntry.objects.filter(rating_list=rating_list, current=True)
        .select_related("profile", "partner")
        .order_by("-rating", "subject")
    )


def rating_history(profile: Profile) -> list[RatingEntry]:
    """A player's rating entries in every public list, his own and his fixed pairs', by list,
    subject and period (one query): what his record page plots and tabulates."""
    return list(
        RatingEntry.objects.filter(
            Q(profile=profile) | Q(partner=profile), rating_list__public=True
        )
        .select_related("rating_list", "tournament", "profile", "partner")
        .order_by("rating_list__name", "rating_list_id", "subject", "sequence")
    )


def current_rating_of(rating_list: RatingList) -> dict[int, float]:
    """Each rated profile's current rating in a players' list, by profile id (one query)."""
    return dict(
        RatingEntry.objects.filter(rating_list=rating_list, current=True, partner__isnull=True)
        .values_list("profile_id", "rating")
    )


__all__ = [
    "RatedField", "RatingLine", "compute_list", "current_entries", "current_rating_of",
    "entry_rows", "list_parameters", "rated_field", "rated_tournaments", "rating_history",
    "rating_lines", "recompute_rating_list", "tournament_parties", "update_rating_list",
]
