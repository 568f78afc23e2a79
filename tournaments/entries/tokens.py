"""The signed links of entries (``django.core.signing``): the sign-up's address confirmation,
the partner's confirmation and the entry's own page. A forged or expired link is refused."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError
from scoring.core.site import site_url

PURPOSES = {"signup": "entries.signup", "partner": "entries.partner", "entry": "entries.entry"}
"""Each link's purpose and its salt: a link of one purpose opens nothing else."""

ROUTES = {"signup": "tournaments:entry_signup_confirm",
          "partner": "tournaments:entry_partner_confirm", "entry": "tournaments:entry_page"}


def make_token(purpose: str, entry_id: int) -> str:
    """A signed token naming the entry for ``purpose``."""
    return signing.dumps({"e": entry_id}, salt=PURPOSES[purpose], compress=True)


def read_token(purpose: str, token: str, max_hours: float | None = None) -> int:
    """The entry id of a token of ``purpose``; ServiceError("token") when forged or expired."""
    hours = settings.ENTRY_LINK_HOURS if max_hours is None else max_hours
    try:
        data = signing.loads(token, salt=PURPOSES[purpose], max_age=timedelta(hours=hours))
    except signing.SignatureExpired as exc:
        raise ServiceError("token", _("This link has expired.")) from exc
    except signing.BadSignature as exc:
        raise ServiceError("token", _("This link is not valid.")) from exc
    if not isinstance(data, dict) or not isinstance(data.get("e"), int):
        raise ServiceError("token", _("This link is not valid."))
    return int(data["e"])


def link(purpose: str, entry_id: int) -> str:
    """The absolute address of the entry's signed link for ``purpose``."""
    return site_url() + reverse(ROUTES[purpose], args=[make_token(purpose, entry_id)])
