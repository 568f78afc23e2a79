"""A home for every role: where a user lands after login, and the header's links to it.

``home`` (``LOGIN_REDIRECT_URL``) sends each user to his home by role: an organizer (or a
superuser) to his tournaments, a referee with a live round to My tables, a player to his next
table, anyone else to the list of tournaments. The error pages offer the same way back.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django.db.models import Case, IntegerField, Q, Value, When
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from referee.home import LIVE_ROUND, live_rounds
from scoring.access import permissions
from scoring.models import Party, Player


def next_party(user: Any) -> Party | None:
    """The user's next party as a player: not finished, in a live round (one in play first)."""
    if not getattr(user, "is_authenticated", False):
        return None
    mine = Q()
    for side in ("pair_a", "pair_b"):
        for seat in ("player1", "player2"):
            mine |= Q(**{f"{side}__{seat}__user": user})
    return (
        Party.objects.filter(mine, round__status__in=LIVE_ROUND)
        .exclude(status=Party.Status.FINISHED)
        .select_related("round__tournament")
        .order_by(
            Case(
                When(status=Party.Status.IN_PROGRESS, then=Value(0)),
                default=Value(1),
                output_field=IntegerField(),
            ),
            "round__published_at",
            "round__number",
            "pk",
        )
        .first()
    )


def home_for(user: Any) -> tuple[str, str]:
    """The address of the user's home and its name (the list of tournaments for anyone else)."""
    if permissions.is_organizer(user):
        return f"{reverse('tournaments:list')}?mine=1", _("My tournaments")
    if getattr(user, "is_authenticated", False):
        if live_rounds(user):
            return reverse("referee:my_tables"), _("My tables")
        party = next_party(user)
        if party is not None:
            slug = party.round.tournament.slug
            return f"{reverse('tournaments:player_area', args=[slug])}#next", _("My next table")
        if Player.objects.filter(user=user).exists():
            return reverse("tournaments:my_area"), _("My games")
    return reverse("tournaments:list"), _("Tournaments")


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Send the user to his home (where the login form leads)."""
    return redirect(home_for(request.user)[0])


class NavRoles:
    """Which of the header's home links a user sees; each is asked once, when shown."""

    def __init__(self, user: Any) -> None:
        self.user = user

    @cached_property
    def organizes(self) -> bool:
        """He organizes tournaments (his tournaments)."""
        return permissions.is_organizer(self.user)

    @cached_property
    def referees(self) -> bool:
        """He referees in a tournament (My tables)."""
        return permissions.refereed_tournaments(self.user).exists()

    @cached_property
    def plays(self) -> bool:
        """He plays in a tournament (My games)."""
        return Player.objects.filter(user=self.user).exists()

    @cached_property
    def my_games(self) -> bool:
        """The "My games" link: for players, and for users of no role (it says how to be linked)."""
        return self.plays or not (self.referees or self.organizes)


def nav_roles(request: HttpRequest) -> dict[str, Any]:
    """Template context: ``nav_roles`` of the logged-in user (nothing asked until shown)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"nav_roles": NavRoles(user)}
