"""The questions of the costly buttons of the roles and people pages, naming what each costs.

A question is asked before a referee's removal, a password reset (a new invitation for a login
whose password is set), a revoke, and new PINs for every player; an empty question means the
action costs nothing that could be lost, and it is done at once. The buttons carry the same
text for the browser's dialog (``scoring.core.asking``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from referee.accounts import issued_account
from scoring.models import SigningPin, Tournament, TournamentRole


def _name(user: Any) -> str:
    return user.get_full_name() or user.username


def remove_question(role: TournamentRole) -> str:
    """What removing this referee (or the chief) from the tournament does."""
    return _("%(name)s (%(role)s) is removed from this tournament: the referee screens of its "
             "tables close for this login at once.") % {
        "name": _name(role.user), "role": role.get_role_display()}


def reset_question(user: Any) -> str:
    """What a new invitation does to a login (empty: no password to lose)."""
    if not user.is_active or not user.has_usable_password():
        return ""
    return _("%(name)s: the password stops working at once; logging in again needs the new "
             "invitation (print it or mail it).") % {"name": _name(user)}


def revoke_question(user: Any) -> str:
    """What revoking a login's access does."""
    return _("%(name)s can no longer log in: the password, open sessions and invitations stop "
             "working at once.") % {"name": _name(user)}


def pins_question(tournament: Tournament) -> str:
    """What new PINs for every player do (empty: nobody has a PIN to lose)."""
    count = SigningPin.objects.filter(player__tournament=tournament).count()
    if not count:
        return ""
    return ngettext(
        "The %(count)d printed PIN slip stops working: every player gets a new PIN and signs "
        "only with the new slips.",
        "All %(count)d printed PIN slips stop working: every player gets a new PIN and signs "
        "only with the new slips.", count) % {"count": count}


def account_question(tournament: Tournament, post: Any) -> str:
    """The question of the posted account action of ``tournament`` (empty: ask nothing)."""
    if "revoke" in post:
        return revoke_question(issued_account(tournament, post["revoke"]).user)
    if "invite" in post:
        return reset_question(issued_account(tournament, post["invite"]).user)
    return ""
