"""Lockouts after repeated failures, their log, and lifting them.

* Logins on the form and on ``/api/v1/auth/token/`` share django-axes' counters (in the
  database, so every worker process sees them), per username and address:
  ``LOGIN_FAILURE_LIMIT`` failures lock that pair for ``LOGIN_COOLOFF_MINUTES``; a success
  resets the count.
* A signing PIN (``scoring.signoff.pins.check_pin``) is locked for
  ``SIGNING_PIN_COOLOFF_MINUTES`` after ``SIGNING_PIN_FAILURE_LIMIT`` wrong PINs in a row.
* Protocol uploads to the verification page: at most ``VERIFY_UPLOADS_PER_HOUR`` per address
  in a clock hour, counted in the cache (Redis when ``REDIS_URL`` is set).

Each lockout is written once to ``Lockout``: the organizer's page lists them and lifts one
early (``unlock``).
"""

from __future__ import annotations

import math
import time
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Max, Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.access import permissions
from scoring.core.errors import ServiceError
from scoring.models import Lockout, Player, SigningPin, TournamentRole

LOGIN_KINDS = (Lockout.Kind.LOGIN, Lockout.Kind.TOKEN)
VERIFY_WINDOW_SECONDS = 3600


def client_address(request: HttpRequest) -> str | None:
    """The client's address: ``REMOTE_ADDR``, or behind ``TRUSTED_PROXY_COUNT`` proxies the
    address the outermost of them saw (from ``X-Forwarded-For``). Axes uses it too."""
    meta = getattr(request, "META", {})
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies:
        forwarded = [a.strip() for a in meta.get("HTTP_X_FORWARDED_FOR", "").split(",")
                     if a.strip()]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return meta.get("REMOTE_ADDR") or None


def minutes_left(until: datetime) -> int:
    """Whole minutes (at least 1) until ``until``."""
    return max(1, math.ceil((until - timezone.now()).total_seconds() / 60))


def retry_message(what: str, until: datetime) -> str:
    """The refusal of a locked ``what`` ("login", "pin" or "verify"), with the minutes left."""
    minutes = minutes_left(until)
    if what == "pin":
        text = ngettext("Too many wrong PINs: the PIN is locked, try again in %(minutes)s "
                        "minute.", "Too many wrong PINs: the PIN is locked, try again in "
                        "%(minutes)s minutes.", minutes)
    elif what == "verify":
        text = ngettext("Too many protocol uploads from your address: try again in "
                        "%(minutes)s minute.", "Too many protocol uploads from your address: "
                        "try again in %(minutes)s minutes.", minutes)
    else:
        text = ngettext("Too many failed logins for this username from your address: try "
                        "again in %(minutes)s minute.", "Too many failed logins for this "
                        "username from your address: try again in %(minutes)s minutes.",
                        minutes)
    return text % {"minutes": minutes}


# -- logins (django-axes) ------------------------------------------------------------------


def login_cooloff() -> timedelta:
    """How long a login stays locked after the failure that locked it."""
    return timedelta(minutes=settings.LOGIN_COOLOFF_MINUTES)


def login_locked_until(username: str | None, address: str | None) -> datetime:
    """When the lockout of this username from this address ends (by axes' latest failure)."""
    from axes.models import AccessAttempt

    latest = AccessAttempt.objects.filter(username=username, ip_address=address).aggregate(
        at=Max("attempt_time"))["at"]
    return (latest or timezone.now()) + login_cooloff()


def login_refusal(username: str | None, address: str | None) -> tuple[str, int]:
    """What a locked login is told, and the seconds left (for ``Retry-After``)."""
    until = login_locked_until(username, address)
    seconds = max(1, int((until - timezone.now()).total_seconds()))
    return retry_message("login", until), seconds


def record_login_lockout(request: Any, username: str | None, address: str | None) -> Lockout:
    """Write a login lockout to the log once (a refused attempt while locked adds nothing)."""
    kind = Lockout.Kind.TOKEN if request.path.startswith("/api/") else Lockout.Kind.LOGIN
    found = _active().filter(kind__in=LOGIN_KINDS, username=username or "",
                             address=address).first()
    if found is not None:
        return found
    return Lockout.objects.create(kind=kind, username=username or "", address=address,
                                  locked_until=login_locked_until(username, address))


def log_axes_lockout(sender: Any, request: Any = None, username: str | None = None,
                     ip_address: str | None = None, **kwargs: Any) -> None:
    """Receive axes' ``user_locked_out``: the lockout goes to the log (``/lockouts/``)."""
    if request is not None:
        record_login_lockout(request, username, ip_address)


def connect_axes() -> None:
    """Log every lockout axes announces (called from the app's ``ready``).

    A module-level receiver, connected strongly: a receiver made inside this function and
    connected weakly was collected as soon as it returned (with DEBUG off, lockouts never
    reached the log).
    """
    from axes.signals import user_locked_out

    user_locked_out.connect(log_axes_lockout, weak=False,
                            dispatch_uid="scoring.people.lockouts.axes")


# -- signing PINs --------------------------------------------------------------------------


def record_pin_lockout(pin: SigningPin, locked_until: datetime, address: str | None) -> Lockout:
    """Write a PIN's lockout, until ``locked_until`` (the PIN's new lock), to the log."""
    user = pin.player.user
    return Lockout.objects.create(kind=Lockout.Kind.PIN, player=pin.player,
                                  username=user.get_username() if user else "",
                                  address=address, locked_until=locked_until)


# -- verification uploads ------------------------------------------------------------------


def _verify_key(address: str | None, window: int) -> str:
    return f"lockouts:verify:{address or '-'}:{window}"


def verify_upload_refusal(request: HttpRequest) -> str:
    """Count one protocol upload of this address; the refusal when it is over the hour's limit
    ("" when it is allowed). The count lives in the cache, shared by every process."""
    address = client_address(request)
    window = int(time.time() // VERIFY_WINDOW_SECONDS)
    key = _verify_key(address, window)
    cache.add(key, 0, VERIFY_WINDOW_SECONDS)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, VERIFY_WINDOW_SECONDS)
        count = 1
    limit = settings.VERIFY_UPLOADS_PER_HOUR
    if count <= limit:
        return ""
    until = timezone.make_aware(datetime.fromtimestamp((window + 1) * VERIFY_WINDOW_SECONDS))
    if count == limit + 1:
        Lockout.objects.create(kind=Lockout.Kind.VERIFY, address=address, locked_until=until)
    return retry_message("verify", until)


# -- the log and unlocking -----------------------------------------------------------------


def _active() -> QuerySet[Lockout]:
    return Lockout.objects.filter(unlocked_at__isnull=True, locked_until__gt=timezone.now())


def visible_lockouts(user: Any) -> QuerySet[Lockout]:
    """The lockouts a user may see and lift: all for staff; for an organizer, the PINs of his
    tournaments' players and the logins of his tournaments' people (players, referees,
    organizers) and his own."""
    rows = Lockout.objects.select_related("player__tournament", "unlocked_by")
    if getattr(user, "is_staff", False) or getattr(user, "is_superuser", False):
        return rows
    if not permissions.is_organizer(user):
        return rows.none()
    managed = permissions.managed_tournaments(user)
    usernames = {user.get_username()}
    usernames.update(Player.objects.filter(tournament__in=managed, user__isnull=False)
                     .values_list("user__username", flat=True))
    usernames.update(TournamentRole.objects.filter(tournament__in=managed)
                     .values_list("user__username", flat=True))
    return rows.filter(Q(player__tournament__in=managed)
                       | Q(kind__in=LOGIN_KINDS, username__in=usernames))


@transaction.atomic
def unlock(lockout_id: int, *, actor: Any) -> Lockout:
    """Lift a lockout now: the login's counters, the PIN's lock or the address's upload count
    are cleared, and the log says who lifted it."""
    lockout = visible_lockouts(actor).select_for_update(of=("self",)).filter(
        pk=lockout_id).first()
    if lockout is None:
        raise ServiceError("lockout", _("No such lockout."))
    if not lockout.active:
        return lockout
    if lockout.kind in LOGIN_KINDS:
        from axes.utils import reset

        reset(ip=lockout.address, username=lockout.username or None)
        same = _active().filter(kind__in=LOGIN_KINDS, username=lockout.username,
                                address=lockout.address)
    elif lockout.kind == Lockout.Kind.PIN:
        SigningPin.objects.filter(player=lockout.player_id).update(
            failed_attempts=0, locked_until=None)
        same = _active().filter(kind=lockout.kind, player=lockout.player_id)
    else:
        window = int(lockout.locked_at.timestamp() // VERIFY_WINDOW_SECONDS)
        cache.delete(_verify_key(lockout.address, window))
        same = _active().filter(kind=lockout.kind, address=lockout.address)
    same.update(unlocked_at=timezone.now(), unlocked_by=actor)
    lockout.refresh_from_db()
    return lockout


def reset_login_failures(username: str, address: str | None) -> None:
    """A success: forget this username's failures from this address (as axes does on a
    session login)."""
    from axes.utils import reset

    reset(ip=address, username=username)
