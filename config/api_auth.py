"""The API's token authentication: DRF's, with its one read compiled once per connection, and
the organizers' read-only tokens (``ro_…``: reads only, every write 403)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import router
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request

from scoring.access import api_tokens
from scoring.core.compiled import CompiledQuery


def _user_attnames() -> list[str]:
    """The user model's columns, as its instances are loaded from them."""
    return [f.attname for f in get_user_model()._meta.concrete_fields]


_TOKEN = CompiledQuery(
    "api_token", Token,
    lambda key: Token.objects.filter(key=key).values_list(
        "created", *(f"user__{name}" for name in _user_attnames())
    ),
    str,
)


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, as DRF's: the token and its user in one read; a
    read-only token's user may only read."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        """The user and token of the request's key; a write with a read-only token is 403."""
        found = super().authenticate(request)
        if found is not None and api_tokens.read_only(found[0]) \
                and request.method not in SAFE_METHODS:
            raise exceptions.PermissionDenied(api_tokens.READ_ONLY_REFUSAL)
        return found

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        """The key's active user and token, or ``AuthenticationFailed``."""
        if key.startswith(api_tokens.KEY_PREFIX):
            return self._read_only(key)
        row = _TOKEN.first(key)
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        db = router.db_for_read(Token)
        user = get_user_model().from_db(db, _user_attnames(), list(row[1:]))
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        token = Token.from_db(db, ["key", "user_id", "created"], [key, user.pk, row[0]])
        token.user = user
        return user, token

    def _read_only(self, key: str) -> tuple[Any, Any]:
        """A read-only token's user, marked read-only; unknown or revoked: refused."""
        token = api_tokens.active_token(key)
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return api_tokens.as_read_only(token.user, token), token
