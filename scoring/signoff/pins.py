"""Players' signing PINs: set one, generate them in bulk for slips, change one's own, check one.

A PIN is stored only as a salted PBKDF2 hash. A PIN is a few digits, so its strength is the
lock after repeated wrong attempts (``settings.SIGNING_PIN_FAILURE_LIMIT``), not the hash's
cost: PINs are hashed with fewer iterations than passwords (``PinHasher``) so that a whole
tournament's PINs are generated in one request. A generated PIN exists in clear only in the
slips' PDF of that request.
"""

from __future__ import annotations

import logging
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher, check_password
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.access import permissions
from scoring.core.errors import LockedOut, ServiceError
from scoring.models import Player, SigningPin, Tournament
from scoring.people import lockouts

PIN_PATTERN = re.compile(r"^\d{4,8}$")
#: Digits of a generated PIN (a player may choose 4 to 8 himself).
GENERATED_DIGITS = 6
logger = logging.getLogger(__name__)


class PinHasher(PBKDF2PasswordHasher):
    """PBKDF2-SHA256 for PINs: salted, ~10 ms (the lock limits guessing, not the hash)."""

    algorithm = "pin_pbkdf2_sha256"
    iterations = 20_000


def hash_pin(pin: str) -> str:
    """The stored form of a PIN (salted PBKDF2)."""
    return PinHasher().encode(pin, PinHasher().salt())


def pin_matches(pin: str, encoded: str) -> bool:
    """Whether ``pin`` is the one hashed in ``encoded`` (a PIN hash, or an older password hash)."""
    if encoded.startswith(PinHasher.algorithm + "$"):
        return PinHasher().verify(pin or "", encoded)
    return check_password(pin or "", encoded)


def _player(player_id: int) -> Player:
    player = Player.objects.select_related("tournament").filter(pk=player_id).first()
    if player is None:
        raise ServiceError("player", _("No such player."))
    return player


def _valid(pin: str) -> str:
    pin = (pin or "").strip()
    if not PIN_PATTERN.match(pin):
        raise ServiceError("pin", _("A PIN is 4 to 8 digits."))
    return pin


def _store(player: Player, pin: str) -> SigningPin:
    found, _created = SigningPin.objects.update_or_create(
        player=player,
        defaults={"pin_hash": hash_pin(pin), "failed_attempts": 0, "locked_until": None},
    )
    return found


def set_signing_pin(player_id: int, pin: str, *, actor: Any, current: str = "") -> SigningPin:
    """Set a player's signing PIN (4 to 8 digits, stored hashed).

    An organizer of the player's tournament sets it as he likes. The player himself sets his
    first PIN on his login; to change one he has, he gives his password or the old PIN (a
    wrong old PIN counts towards the lock, as at the table).
    """
    player = _player(player_id)
    if not permissions.can_set_signing_pin(actor, player):
        raise PermissionDenied
    pin = _valid(pin)
    if not permissions.can_manage(actor, player.tournament) and (
        SigningPin.objects.filter(player=player).exists()
    ):
        _prove_identity(actor, player, current)
    with transaction.atomic():
        logger.info("signing PIN set: player=%s actor=%s", player.pk, getattr(actor, "pk", None))
        return _store(player, pin)


def _prove_identity(actor: Any, player: Player, current: str) -> None:
    """The account's password, or the old PIN (checked and counted like a signing attempt)."""
    current = (current or "").strip()
    refused = ServiceError("current", _("Type your current PIN or your password."))
    if not current:
        raise refused
    if actor.has_usable_password() and actor.check_password(current):
        return
    try:
        check_pin(player, current)
    except ServiceError as err:
        raise refused from err


@dataclass(frozen=True)
class GeneratedPin:
    """A player and the PIN just generated for him (shown once, on his slip)."""

    player: Player
    pin: str


@transaction.atomic
def generate_pins(tournament_id: int, *, actor: Any, only_missing: bool = True
                  ) -> list[GeneratedPin]:
    """New random PINs for the tournament's players (only those without one, or every one).

    Players who withdrew or were disqualified keep theirs. Returns the PINs in clear, by name,
    for the slips; only their hashes are kept.
    """
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise ServiceError("tournament", _("No such tournament."))
    if not permissions.can_manage(actor, tournament):
        raise PermissionDenied
    players = tournament.players.filter(withdrawn=False, disqualified=False).order_by("name", "pk")
    if only_missing:
        players = players.filter(signing_pin__isnull=True)
    made = []
    for player in players:
        pin = "".join(secrets.choice("0123456789") for _digit in range(GENERATED_DIGITS))
        _store(player, pin)
        made.append(GeneratedPin(player, pin))
    logger.info("signing PINs generated: tournament=%s count=%s only_missing=%s actor=%s",
                tournament.pk, len(made), only_missing, getattr(actor, "pk", None))
    return made


def players_without_pin(players: list[Player]) -> list[Player]:
    """Those of ``players`` who have no signing PIN (one query)."""
    with_pin = set(SigningPin.objects.filter(player__in=players).values_list("player_id",
                                                                               flat=True))
    return [player for player in players if player.pk not in with_pin]


def check_pin(player: Player, pin: str, address: str | None = None) -> None:
    """Refuse a wrong PIN; after ``SIGNING_PIN_FAILURE_LIMIT`` wrong ones in a row the PIN is
    locked for ``SIGNING_PIN_COOLOFF_MINUTES`` (even the right one is refused) and the lockout
    is logged with the address it came from.

    The attempt is counted in its own transaction, so that a failure stays counted although
    the refusal rolls back everything else.
    """
    with transaction.atomic():
        error, locked = _pin_error(player, pin, address)
    if locked:
        raise LockedOut("pin", error)
    if error:
        raise ServiceError("pin", error)


def _pin_error(player: Player, pin: str, address: str | None) -> tuple[str, bool]:
    """Check and count one PIN attempt: why it is refused ("" when it is right), and whether
    the PIN is locked."""
    found = SigningPin.objects.select_for_update().filter(player=player).first()
    if found is None:
        return _("%(name)s has no signing PIN: sign when logged in, or ask the organizer for "
                 "a PIN.") % {"name": player.name}, False
    if found.locked_until and found.locked_until > timezone.now():
        return lockouts.retry_message("pin", found.locked_until), True
    if pin_matches(pin, found.pin_hash):
        if found.failed_attempts:
            found.failed_attempts = 0
            found.save(update_fields=["failed_attempts"])
        return "", False
    found.failed_attempts += 1
    if found.failed_attempts >= settings.SIGNING_PIN_FAILURE_LIMIT:
        found.failed_attempts = 0
        locked_until = timezone.now() + timedelta(minutes=settings.SIGNING_PIN_COOLOFF_MINUTES)
        found.locked_until = locked_until
        found.save(update_fields=["failed_attempts", "locked_until"])
        logger.warning("signing PIN of player %s locked after %s wrong PINs", player.pk,
                       settings.SIGNING_PIN_FAILURE_LIMIT)
        lockouts.record_pin_lockout(found, locked_until, address)
        return lockouts.retry_message("pin", locked_until), True
    found.save(update_fields=["failed_attempts", "locked_until"])
    return _("Wrong PIN."), False
