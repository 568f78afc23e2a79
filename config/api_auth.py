"""The API's token authentication: DRF's, with its one read compiled once per connection."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import router
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

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
    """``Authorization: Token <key>``, as DRF's: the token and its user in one read."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        """The key's active user and token, or ``AuthenticationFailed``."""
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
