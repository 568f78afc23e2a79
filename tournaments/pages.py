"""What the pages of every wing share: loading a tournament a visitor may see or manage,
showing a service's refusal on a form or as a message, the live round statuses, a party's
players to load with it, and one address to append ids to."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse

from scoring.access import permissions
from scoring.core.errors import ServiceError
from scoring.core.timezones import activate_tournament_zone
from scoring.models import Round, Tournament
from scoring.stages.common import with_stage_state


def tournament_for(request: HttpRequest, slug: str, manage: bool = False) -> Tournament:
    """Load a tournament the user may see (or manage); 404 for a hidden one. It carries its
    stages' state (``scoring.stages.common.with_stage_state``): the tabs of its finals, and
    its public pages' ETags follow its matches."""
    tournament = get_object_or_404(
        with_stage_state(Tournament.objects.select_related("regulations")), slug=slug)
    if not permissions.can_view(request.user, tournament):
        raise Http404
    if manage and not permissions.can_manage(request.user, tournament):
        raise PermissionDenied
    activate_tournament_zone(tournament)
    return tournament


def show_refusal(form: Any, err: ServiceError) -> None:
    """Show a service's refusal on the form field it names (above the form otherwise)."""
    form.add_error(err.field if err.field in form.fields else None, err.message)


LIVE = (Round.Status.PUBLISHED, Round.Status.IN_PROGRESS)
"""The statuses of a round being played: its pages refresh themselves."""

PARTY_PLAYERS = (
    "table",
    "pair_a__player1",
    "pair_a__player2",
    "pair_b__player1",
    "pair_b__player2",
)
"""What a page of parties ``select_related``s: the table and both sides' players."""


def url_root(name: str, *args: Any) -> str:
    """The address of ``name`` without its last (id) argument, to append ids to.

    One ``reverse`` for a whole list instead of one per line (hundreds on a big field).
    """
    path = reverse(name, args=[*args, 0])
    if not path.endswith("/0/"):
        raise ValueError(f"{name} does not end with an id")
    return path[:-2]


def run_service(
    request: HttpRequest, action: Any, *args: Any, success: str = "", **kwargs: Any
) -> Any:
    """Run a service for the organizer; show its error (or ``success``) as a message.

    Returns the service's result (``True`` for a service that returns nothing), or ``None``
    when it refused.
    """
    try:
        result = action(*args, actor=request.user, **kwargs)
    except ServiceError as err:
        messages.error(request, err.message)
        return None
    if success:
        messages.success(request, success)
    return True if result is None else result
