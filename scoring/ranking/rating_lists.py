"""The organizer's services of rating lists: create or edit a list, seed a draw from it."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from scoring.access import permissions
from scoring.core.errors import ServiceError
from scoring.models import Pair, Player, RatingList, Tournament
from scoring.ranking.rating_runs import current_rating_of, list_parameters, recompute_rating_list
from scoring.roster import entrants_changed

logger = logging.getLogger(__name__)

FIELDS = ("name", "slug", "system", "subject", "parameters", "public")


def can_create_list(user: Any) -> bool:
    """Organizers (who may create tournaments) create rating lists."""
    return permissions.can_create_tournament(user)


def can_edit_list(user: Any, rating_list: RatingList) -> bool:
    """Only the list's creator (and superusers) edit it."""
    if getattr(user, "is_superuser", False):
        return True
    return bool(getattr(user, "is_authenticated", False)) and rating_list.created_by_id == user.pk


def can_see_list(user: Any, rating_list: RatingList) -> bool:
    """A public list is open to all; a private one to its creator."""
    return rating_list.public or can_edit_list(user, rating_list)


def visible_lists(user: Any) -> QuerySet[RatingList]:
    """The lists a user may see: the public ones and his own."""
    if getattr(user, "is_superuser", False):
        return RatingList.objects.all()
    q = Q(public=True)
    if getattr(user, "is_authenticated", False):
        q |= Q(created_by=user)
    return RatingList.objects.filter(q)


def ratable_tournaments(user: Any, rating_list: RatingList | None = None
                        ) -> QuerySet[Tournament]:
    """The tournaments a list's creator may rate: public ones, those he organizes, and those
    the list rates already."""
    if getattr(user, "is_superuser", False):
        return Tournament.objects.all()
    q = Q(public=True) | Q(pk__in=permissions.managed_tournaments(user).values("pk"))
    if rating_list is not None:
        q |= Q(pk__in=rating_list.tournaments.values("pk"))
    return Tournament.objects.filter(q)


def save_rating_list(
    *, actor: Any, tournaments: Iterable[Tournament], rating_list: RatingList | None = None,
    **fields: Any,
) -> RatingList:
    """Create (``rating_list`` None) or change a list and its rated tournaments, then
    recompute it; refusals name the field."""
    unknown = set(fields) - set(FIELDS)
    if unknown:
        raise ServiceError(sorted(unknown)[0], _("Not a field of a rating list."))
    if rating_list is None and not can_create_list(actor):
        raise ServiceError("name", _("Only organizers create rating lists."))
    if rating_list is not None and not can_edit_list(actor, rating_list):
        raise ServiceError("name", _("Only the list's creator changes it."))
    chosen = list(dict.fromkeys(tournaments))
    allowed = set(ratable_tournaments(actor, rating_list).filter(pk__in=[t.pk for t in chosen])
                  .values_list("pk", flat=True))
    if any(t.pk not in allowed for t in chosen):
        raise ServiceError("tournaments", _("You may rate only public tournaments or yours."))
    with transaction.atomic():
        if rating_list is None:
            rating_list = RatingList(created_by=actor if actor.is_authenticated else None)
        else:
            rating_list = RatingList.objects.select_for_update().get(pk=rating_list.pk)
        for name, value in fields.items():
            setattr(rating_list, name, value)
        list_parameters(rating_list)  # a ServiceError on "parameters" for a bad one
        slug_taken = RatingList.objects.filter(slug=rating_list.slug).exclude(
            pk=rating_list.pk).exists()
        if slug_taken:
            raise ServiceError("slug", _("This short name is taken."))
        created = rating_list.pk is None
        rating_list.save()
        rating_list.tournaments.set(chosen)
        count = recompute_rating_list(rating_list.pk)
    logger.info("rating list %s: list=%s tournaments=%s entries=%s actor=%s",
                "created" if created else "changed", rating_list.pk, len(chosen), count,
                getattr(actor, "pk", None))
    return rating_list


def take_ratings(tournament: Tournament, rating_list: RatingList, *, actor: Any) -> int:
    """Set each linked player's seeding rating from his current rating in a players' list
    (rounded), and their pairs' from their players (``Pair.seeding_rating``); the players set.

    Players without a profile, or not in the list, keep their rating.
    """
    if not can_see_list(actor, rating_list):
        raise ServiceError("rating_list", _("No such rating list."))
    if rating_list.subject != RatingList.Subject.PLAYERS:
        raise ServiceError("rating_list", _("Take the ratings from a list of players."))
    with transaction.atomic():
        current = current_rating_of(rating_list)
        players = list(Player.objects.select_for_update().filter(tournament=tournament))
        changed = []
        for player in players:
            if player.profile_id in current:
                player.rating = round(current[player.profile_id])
                changed.append(player)
        Player.objects.bulk_update(changed, ["rating"])
        by_id = {player.pk: player for player in players}
        ids = [player.pk for player in changed]
        pairs = list(Pair.objects.select_for_update().filter(
            Q(player1__in=ids) | Q(player2__in=ids),
            tournament=tournament, formed_in_round__isnull=True))
        for pair in pairs:
            second = None if pair.player2_id is None else by_id.get(pair.player2_id)
            pair.rating = Pair.seeding_rating(by_id[pair.player1_id], second)
        Pair.objects.bulk_update(pairs, ["rating"])
        entrants_changed([tournament.pk])
    logger.info("ratings taken: tournament=%s list=%s players=%s pairs=%s actor=%s",
                tournament.pk, rating_list.pk, len(changed), len(pairs),
                getattr(actor, "pk", None))
    return len(changed)
