"""A page of a long rating list: the lines of one page (or of a search by name) with their
ranks, the visitor's own place, and the list's version (what its page's ETag digests).

A federation's list of 20,000 players is read a page at a time: the page's current rows in
rank order (best rating first, then the subject key, as :func:`rating_lines` ranks them), the
parties and tournaments of those subjects only.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models import Count, Max, Q, QuerySet, Subquery, Sum

from scoring.models import Player, RatingEntry, RatingList
from scoring.ranking.rating_runs import RatingLine

ORDER = ("-rating", "subject")
"""The order of a published list: best first, ties by subject key (``current_entries``)."""


def _current(rating_list: RatingList) -> QuerySet[RatingEntry]:
    """The list's current rows (one per subject) in rank order."""
    return RatingEntry.objects.filter(rating_list=rating_list, current=True).order_by(*ORDER)


def list_version(rating_list: RatingList) -> tuple[str, int]:
    """A digest that changes whenever the list's page can change: its settings, its rated
    tournaments, and its current rows (their count, last id, ratings and parties: two
    queries); and how many subjects the list ranks."""
    agg = RatingEntry.objects.filter(rating_list=rating_list, current=True).aggregate(
        n=Count("id"), m=Max("id"), r=Sum("rating"), g=Sum("games"), d=Sum("deviation"))
    tournaments = list(rating_list.tournaments.order_by("pk").values_list(
        "pk", "name", "slug", "start_date"))
    settings = (rating_list.name, rating_list.system, rating_list.subject,
                rating_list.public, repr(rating_list.parameters), rating_list.created_by_id)
    parts = (sorted(agg.items()), tournaments, settings)
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32], agg["n"]


def _lines(rating_list: RatingList, entries: list[RatingEntry], ranks: list[int]
           ) -> list[RatingLine]:
    """The lines of ``entries`` with their ``ranks``: parties and tournaments summed over each
    subject's history (one query, those subjects only)."""
    totals = {
        row["subject"]: (row["parties"], row["events"])
        for row in RatingEntry.objects.filter(
            rating_list=rating_list, subject__in=[e.subject for e in entries])
        .values("subject").annotate(parties=Sum("games"), events=Count("id")).order_by()
    }
    return [RatingLine(rank, entry, *totals.get(entry.subject, (0, 0)))
            for rank, entry in zip(ranks, entries, strict=True)]


def page_lines(rating_list: RatingList, start: int, stop: int) -> list[RatingLine]:
    """The lines ranked ``start + 1`` to ``stop`` (two queries)."""
    page = Subquery(_current(rating_list).values("pk")[start:stop])  # sorted before the joins
    entries = list(_current(rating_list).filter(pk__in=page).select_related("profile", "partner"))
    return _lines(rating_list, entries, list(range(start + 1, start + 1 + len(entries))))


def found(rating_list: RatingList, query: str) -> list[tuple[int, int]]:
    """The subjects whose name (or partner's) holds ``query``, any case: the id of each one's
    current row and its rank in the whole list, in rank order (two queries)."""
    order = _current(rating_list).values_list("pk", flat=True)
    rank_of = {pk: rank for rank, pk in enumerate(order, start=1)}
    return [(pk, rank_of[pk]) for pk in _current(rating_list).filter(
        Q(profile__name__icontains=query) | Q(partner__name__icontains=query)
    ).values_list("pk", flat=True)]


def found_lines(rating_list: RatingList, shown: list[tuple[int, int]]) -> list[RatingLine]:
    """The lines of some of what :func:`found` found (two queries)."""
    by_pk = RatingEntry.objects.select_related("profile", "partner").in_bulk(
        [pk for pk, _rank in shown])
    return _lines(rating_list, [by_pk[pk] for pk, _rank in shown], [r for _pk, r in shown])


def place_of(rating_list: RatingList, user: Any) -> tuple[int, RatingEntry] | None:
    """A logged-in player's best place in the list (his own line, or his pair's: his profile,
    or the profile of a player he entered as) and its row; None for a visitor or a player
    the list does not rank."""
    if not getattr(user, "is_authenticated", False):
        return None
    profiles = Player.objects.filter(user=user, profile__isnull=False).values("profile_id")
    entry = _current(rating_list).filter(
        Q(profile__user=user) | Q(partner__user=user)
        | Q(profile__in=profiles) | Q(partner__in=profiles)).first()
    if entry is None:
        return None
    ahead = _current(rating_list).filter(
        Q(rating__gt=entry.rating) | Q(rating=entry.rating, subject__lt=entry.subject)).count()
    return ahead + 1, entry
