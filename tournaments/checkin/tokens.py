"""The signed tokens of the check-in QR codes (``django.core.signing``, a salt of their own).

A door token names the tournament and the window: a logged-in player who scans it checks
himself in. An entrant's token names one entrant too (a card the organizer prints): whoever
scans it checks that entrant in. A forged, expired or other tournament's token is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.utils.translation import gettext as _

from scoring.models import CheckInWindow, Tournament

SALT = "tournaments.checkin.qr"


class TokenRefused(Exception):
    """A check-in code that cannot be used, with the reason to show."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Scanned:
    """What a valid token opens: the window, and the entrant for an entrant's card."""

    window: CheckInWindow
    entrant_id: int | None


def max_age() -> int:
    """How long a printed code stays valid, in seconds."""
    return int(settings.CHECKIN_QR_MAX_AGE_HOURS) * 3600


def door_token(window: CheckInWindow) -> str:
    """The token of the door's QR code of a window."""
    return signing.dumps({"t": window.tournament_id, "w": window.pk}, salt=SALT, compress=True)


def entrant_token(window: CheckInWindow, entrant_id: int) -> str:
    """The token of one entrant's card (a pair, or a player of an individual event)."""
    return signing.dumps({"t": window.tournament_id, "w": window.pk, "e": entrant_id},
                         salt=SALT, compress=True)


def read_token(token: str, tournament: Tournament) -> Scanned:
    """The window (and entrant) a token opens in this tournament, or :class:`TokenRefused`."""
    try:
        data = signing.loads(token, salt=SALT, max_age=max_age())
    except signing.SignatureExpired as err:
        raise TokenRefused(_("This check-in code has expired: ask the organizer for a new "
                             "one.")) from err
    except signing.BadSignature as err:
        raise TokenRefused(_("This check-in code is not valid: it was not issued by this "
                             "site or was damaged.")) from err
    if not isinstance(data, dict) or data.get("t") != tournament.pk:
        raise TokenRefused(_("This check-in code belongs to another tournament."))
    window_id = data.get("w")
    window = (CheckInWindow.objects.filter(pk=window_id, tournament=tournament).first()
              if isinstance(window_id, int) else None)
    if window is None:
        raise TokenRefused(_("The check-in window of this code no longer exists."))
    entrant = data.get("e")
    return Scanned(window, entrant if isinstance(entrant, int) else None)
