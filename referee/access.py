"""Who may act on what: the party, record or tournament a view acts on, read for a user who
may (404 when hidden or absent, 403 when not his), by the rules of
``scoring.access.permissions``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404

from referee.state import SCREEN_RELATED, SETTINGS_RELATED, party_queryset
from scoring.access import permissions
from scoring.access.permissions import Grants
from scoring.models import Deal, Party, Penalty, Tournament
from scoring.party.row_lock import party_locked_for_action, read_party


def _visible_party(
    user: Any, party_id: int, full: bool = True, screen: bool = False,
    grants: Grants | None = None,
) -> Party:
    """A party of a tournament the user may see (404 otherwise)."""
    try:
        if screen:  # what the screen names, without the records (one query)
            party = Party.objects.select_related(*SCREEN_RELATED, SETTINGS_RELATED).get(
                pk=party_id
            )
        else:
            party = party_queryset().get(pk=party_id) if full else read_party(party_id)
    except Party.DoesNotExist as exc:
        raise Http404 from exc
    return _seen_by(user, party, grants)


def _seen_by(user: Any, party: Party, grants: Grants | None = None) -> Party:
    """The party, if the user may see its tournament (404 otherwise)."""
    if not permissions.can_view(user, party.round.tournament, grants):
        raise Http404
    return party


def _refereed_by(user: Any, party: Party, grants: Grants | None = None) -> Party:
    """The party, if the user referees it (403 otherwise)."""
    if not permissions.can_referee(user, party, grants):
        raise PermissionDenied
    return party


def party_for_referee(
    user: Any, party_id: int, full: bool = True, screen: bool = False,
    grants: Grants | None = None,
) -> Party:
    """The party, if the user referees it: 404 when hidden or absent, 403 when not his.

    ``full`` loads its deals, penalties and rulings too (for showing its state); ``screen``
    loads what the screen names without them, for an action whose answer is the screen
    (``screen_party``). ``grants``: the request's (``permissions.request_grants``).
    """
    grants = permissions.current_grants(grants)
    return _refereed_by(user, _visible_party(user, party_id, full, screen, grants), grants)


@contextmanager
def party_for_action(user: Any, party_id: int, grants: Grants | None = None) -> Iterator[Party]:
    """The party of an API action, if the user referees it (404 / 403 as above), read once:
    within the request's transaction it is locked here and the action's service takes this
    row (``scoring.party.row_lock.party_locked_for_action``), and the user's roles in its
    tournament are read by the same query."""
    grants = permissions.current_grants(grants)
    user_id = user.pk if getattr(user, "is_authenticated", False) else None
    with ExitStack() as stack:
        try:
            party, roles = stack.enter_context(party_locked_for_action(party_id, user_id))
        except Party.DoesNotExist as exc:
            raise Http404 from exc
        if roles is not None:  # read with the party: the checks below read nothing more
            grants.know(user, party.round.tournament_id, *roles)
        yield _refereed_by(user, _seen_by(user, party, grants), grants)


def record_for_correction(
    user: Any, model: type[Deal] | type[Penalty], pk: int, author_field: str,
    grants: Grants | None = None,
) -> tuple[Any, Party]:
    """A deal or penalty with its party, if the user may correct it (404 / 403 as above; the
    rule of pages and API alike: ``permissions.can_correct_record``)."""
    record = model.objects.filter(pk=pk).order_by("pk").first()
    if record is None:
        raise Http404
    grants = permissions.current_grants(grants)
    party = _visible_party(user, record.party_id, full=False, grants=grants)
    if not permissions.can_correct_record(
        user, party, getattr(record, author_field), grants=grants
    ):
        raise PermissionDenied
    return record, party


def tournament_for_referee(user: Any, *, manage: bool = False, **lookup: Any) -> Tournament:
    """A tournament the user referees in (or, with ``manage``, organizes).

    404 when hidden or absent, 403 when the user has no such role in it.
    """
    tournament = Tournament.objects.select_related("regulations").filter(**lookup).first()
    grants = permissions.current_grants()
    if tournament is None or not permissions.can_view(user, tournament, grants):
        raise Http404
    allowed = (
        permissions.can_manage(user, tournament, grants)
        if manage
        else permissions.can_referee_tournament(user, tournament, grants)
    )
    if not allowed:
        raise PermissionDenied
    return tournament
