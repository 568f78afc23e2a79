"""Logins for the people of a tournament, made by its organizer: referees, the chief, players.

An account is made without a password; the person sets his own through an invitation, a
one-time link signed like Django's password reset (``InvitationTokens``): it stops working once
used (the password changes), when access is revoked, or after ``INVITATION_DAYS``. The link is
copied from the page, printed on a slip with its QR code, or mailed when the person has an
address. Only the tournament that made an account invites or revokes it (``IssuedAccount``).
"""

from __future__ import annotations

import logging
import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from referee.services.staffing import assign_referee
from scoring.access import permissions
from scoring.core.errors import ServiceError
from scoring.models import IssuedAccount, Player, Profile, Tournament

logger = logging.getLogger(__name__)

_CYRILLIC = dict(zip(
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r",
     "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya"],
    strict=True,
))


class InvitationTokens(PasswordResetTokenGenerator):
    """One-time invitation tokens (a salt of their own: a reset token is not an invitation)."""

    key_salt = "referee.accounts.InvitationTokens"


invitation_tokens = InvitationTokens()


def username_from(name: str) -> str:
    """A Latin login from a person's name: "Пётр Иванов" → "petr.ivanov"."""
    letters = "".join(_CYRILLIC.get(ch, ch) for ch in name.lower())
    ascii_text = unicodedata.normalize("NFKD", letters).encode("ascii", "ignore").decode()
    return ".".join(re.findall(r"[a-z0-9]+", ascii_text))[:30] or "user"


def _free_username(base: str) -> str:
    users = get_user_model().objects
    candidate, number = base, 1
    while users.filter(username__iexact=candidate).exists():
        number += 1
        candidate = f"{base}{number}"
    return candidate


def _require_manager(actor: Any, tournament: Tournament) -> None:
    if not permissions.can_manage(actor, tournament):
        raise PermissionDenied


def _new_user(tournament: Tournament, actor: Any, full_name: str, email: str = "",
              username: str = "") -> Any:
    """A user without a password, issued by ``tournament``."""
    full_name = " ".join((full_name or "").split())
    if not full_name:
        raise ServiceError("name", _("Type the person's name."))
    User = get_user_model()
    username = (username or "").strip()
    if username:
        try:
            User.username_validator(username)
        except ValidationError as err:
            raise ServiceError("username", err.messages[0]) from err
        if User.objects.filter(username__iexact=username).exists():
            raise ServiceError("username", _("This login is taken: choose another."))
    else:
        username = _free_username(username_from(full_name))
    email = (email or "").strip()
    if email:
        try:
            validate_email(email)
        except ValidationError as err:
            raise ServiceError("email", err.messages[0]) from err
    user = User(username=username, first_name=full_name[:150], email=email)
    user.set_unusable_password()
    user.save()
    IssuedAccount.objects.create(
        user=user, tournament=tournament,
        created_by=actor if getattr(actor, "is_authenticated", False) else None)
    return user


@transaction.atomic
def create_referee_account(tournament: Tournament, *, actor: Any, full_name: str, role: str,
                           tables: list[Any] | None = None, email: str = "",
                           username: str = "") -> Any:
    """Make a login for a new referee (or the chief) and assign him; he is invited next."""
    _require_manager(actor, tournament)
    user = _new_user(tournament, actor, full_name, email, username)
    assign_referee(tournament, user=user, role=role, tables=tables)
    logger.info("referee account made: tournament=%s user=%s role=%s actor=%s",
                tournament.pk, user.pk, role, getattr(actor, "pk", None))
    return user


@dataclass(frozen=True)
class PlayerLogins:
    """What ``make_player_accounts`` did: the players given a new login, and those given the
    login their profile already had."""

    made: list[Player]
    reused: list[Player]


def _profile_login(player: Player) -> Any:
    """The login the player's profile already has: its own, else one of its other entries'."""
    if player.profile_id is None:
        return None
    profile = Profile.objects.select_related("user").get(pk=player.profile_id)
    if profile.user is not None:
        return profile.user
    entry = (Player.objects.filter(profile_id=profile.pk, user__isnull=False)
             .exclude(pk=player.pk).select_related("user").order_by("-pk").first())
    return entry.user if entry is not None else None


def _keep_on_profile(player: Player, user: Any) -> None:
    """The player's profile keeps ``user`` as its login, if it has none and he is no other's."""
    if player.profile_id is not None and not Profile.objects.filter(user=user).exists():
        Profile.objects.filter(pk=player.profile_id, user__isnull=True).update(user=user)


@transaction.atomic
def make_player_accounts(tournament: Tournament, *, actor: Any,
                         player_ids: list[int] | None = None) -> PlayerLogins:
    """Give a login to every player of the tournament who has none (or of ``player_ids``).

    One person, one login: a player whose profile already has a login gets that one (his
    record stays whole); the others get a new login, which their profile keeps for their next
    tournaments.
    """
    _require_manager(actor, tournament)
    players = tournament.players.select_for_update().filter(user__isnull=True)
    if player_ids is not None:
        players = players.filter(pk__in=player_ids)
    made, reused = [], []
    for player in players.order_by("name", "pk"):
        user = _profile_login(player)
        if user is None:
            user = _new_user(tournament, actor, player.name)
            made.append(player)
        else:
            reused.append(player)
        player.user = user
        player.save(update_fields=["user"])
        _keep_on_profile(player, user)
    logger.info("player accounts made: tournament=%s made=%s reused=%s actor=%s", tournament.pk,
                len(made), len(reused), getattr(actor, "pk", None))
    return PlayerLogins(made=made, reused=reused)


def issued_account(tournament: Tournament, user_id: Any) -> IssuedAccount:
    """The account ``user_id`` if this tournament made it; a service error otherwise."""
    found = (IssuedAccount.objects.select_related("user")
             .filter(tournament=tournament, user_id=user_id).first())
    if found is None:
        raise ServiceError("user", _("This account was not made by this tournament: its "
                                     "owner manages it."))
    return found


def invitation_expires() -> datetime:
    """When an invitation made now stops working."""
    return timezone.now() + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT)


def invitation_path(user: Any) -> str:
    """The path of a fresh invitation link for ``user`` (valid until used or expired)."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return reverse("invitation", args=[uid, invitation_tokens.make_token(user)])


def invitable(account: IssuedAccount) -> bool:
    """Whether the account waits for its password (made, not yet set, not revoked)."""
    return account.user.is_active and not account.user.has_usable_password()


@transaction.atomic
def invite(tournament: Tournament, user_id: Any, *, actor: Any) -> IssuedAccount:
    """Open an account for its invitation again: after a revoke, or for a forgotten password.

    The old password stops working; the person sets a new one through the new link.
    """
    _require_manager(actor, tournament)
    account = issued_account(tournament, user_id)
    user = account.user
    user.is_active = True
    user.set_unusable_password()
    user.save(update_fields=["is_active", "password"])
    account.invited_at, account.revoked_at = timezone.now(), None
    account.save(update_fields=["invited_at", "revoked_at"])
    logger.info("invitation reopened: tournament=%s user=%s actor=%s", tournament.pk, user.pk,
                getattr(actor, "pk", None))
    return account


def mail_invitation(tournament: Tournament, user_id: Any, link: str, *, actor: Any) -> None:
    """Mail the invitation link to the person's address (the site's mail backend)."""
    _require_manager(actor, tournament)
    account = issued_account(tournament, user_id)
    if not account.user.email:
        raise ServiceError("email", _("This person has no e-mail address: print the slip or "
                                      "copy the link."))
    if not invitable(account):
        raise ServiceError("user", _("This person has already set a password."))
    body = _("%(name)s, you are invited to the tournament “%(tournament)s”.\n\nYour login: "
             "%(username)s\nSet your password here (the link works once, until %(until)s):\n"
             "%(link)s\n") % {
        "name": account.user.first_name or account.user.username,
        "tournament": tournament.name, "username": account.user.username,
        "until": invitation_expires().strftime("%Y-%m-%d"), "link": link}
    send_mail(_("Invitation: %(tournament)s") % {"tournament": tournament.name}, body, None,
              [account.user.email])
    IssuedAccount.objects.filter(pk=account.pk).update(invited_at=timezone.now())


@transaction.atomic
def revoke_access(tournament: Tournament, user_id: Any, *, actor: Any) -> IssuedAccount:
    """The person can no longer log in: his password, sessions and invitations stop working.

    His roles and registration stay (a player's personal link keeps working); ``invite`` gives
    the access back.
    """
    _require_manager(actor, tournament)
    account = issued_account(tournament, user_id)
    user = account.user
    if user.pk == getattr(actor, "pk", None):
        raise ServiceError("user", _("You cannot revoke your own access."))
    user.is_active = False
    user.set_unusable_password()
    user.save(update_fields=["is_active", "password"])
    account.revoked_at = timezone.now()
    account.save(update_fields=["revoked_at"])
    logger.info("access revoked: tournament=%s user=%s actor=%s", tournament.pk, user.pk,
                getattr(actor, "pk", None))
    return account
