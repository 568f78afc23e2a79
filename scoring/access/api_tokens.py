"""Read-only API tokens: an organizer issues one that reads his tournaments and changes nothing.

A key is ``ro_`` and 40 random hex digits (160 bits), shown once when issued; only its SHA-256
is kept. Sent as any token (``Authorization: Token ro_…``), it authenticates its organizer marked
read-only (``config.api_auth``): every write is refused with 403, and the permission checks
(``scoring.access.permissions``) give him only his organizer roles — the tournaments he
organizes and the public ones, never a hidden one where he is only a referee or a player, nor
everything as a superuser.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.core.errors import ServiceError
from scoring.models import ReadOnlyToken, TournamentRole

logger = logging.getLogger(__name__)

KEY_PREFIX = "ro_"
SHOWN = 8
"""Characters of a key kept to tell tokens apart (the ``ro_`` and five more)."""
READ_ONLY_REFUSAL = gettext_lazy(
    "This API token is read-only: it reads its organizer's tournaments and changes nothing. "
    "Use your own login or API token to make changes.")
ORGANIZER_ROLES = frozenset({TournamentRole.Role.ORGANIZER.value})


def key_hash(key: str) -> str:
    """The SHA-256 a key is stored as."""
    return hashlib.sha256(key.encode()).hexdigest()


@transaction.atomic
def issue_token(user: Any, name: str) -> tuple[ReadOnlyToken, str]:
    """A new read-only token of the user (the caller checked he organizes): it and its key."""
    name = (name or "").strip()
    if not name:
        raise ServiceError("name", _("Name the token: what or who will use it."))
    key = KEY_PREFIX + secrets.token_hex(20)
    token = ReadOnlyToken.objects.create(user=user, name=name[:100], prefix=key[:SHOWN],
                                         key_hash=key_hash(key))
    logger.info("read-only API token %s issued to user %s", token.pk, user.pk)
    return token, key


@transaction.atomic
def revoke_token(token: ReadOnlyToken) -> ReadOnlyToken:
    """Revoke a token: from now on its key is refused (403) like any unknown one."""
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        logger.info("read-only API token %s revoked", token.pk)
    return token


def tokens_of(user: Any) -> QuerySet[ReadOnlyToken]:
    """The user's read-only tokens, the newest first (revoked ones too)."""
    return ReadOnlyToken.objects.filter(user=user)


def active_token(key: str) -> ReadOnlyToken | None:
    """The token of a key with its user, unless it is unknown or revoked."""
    if not key.startswith(KEY_PREFIX):
        return None
    return (ReadOnlyToken.objects.select_related("user")
            .filter(key_hash=key_hash(key), revoked_at__isnull=True).first())


def as_read_only(user: Any, token: ReadOnlyToken) -> Any:
    """The token's user, marked read-only for this request: no superuser or staff rights."""
    user.read_only_token = token
    user.is_superuser = user.is_staff = False
    return user


def read_only(user: Any) -> bool:
    """Whether the request's user came with a read-only token."""
    return getattr(user, "read_only_token", None) is not None


def scoped(user: Any, grants: tuple[set[str], set[int]]) -> tuple[set[str], set[int]]:
    """A user's roles in a tournament and his tables, as a read-only token sees them: only
    the organizer's role."""
    if not read_only(user):
        return grants
    return grants[0] & ORGANIZER_ROLES, set()


def own_tournaments(user: Any) -> Q:
    """The tournaments a logged-in user reads besides the public ones: those where he holds a
    role or plays; with a read-only token, those he organizes."""
    if read_only(user):
        return Q(roles__user=user, roles__role=TournamentRole.Role.ORGANIZER)
    return Q(roles__user=user) | Q(players__user=user)


def roles_of(user: Any) -> QuerySet[TournamentRole]:
    """The user's roles (a read-only token's: the organizer's only)."""
    roles = TournamentRole.objects.filter(user=user)
    return roles.filter(role=TournamentRole.Role.ORGANIZER) if read_only(user) else roles
