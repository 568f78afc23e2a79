"""Lockouts after repeated failures, their log, and lifting them.

* Logins on the form and on ``/api/v1/auth/token/`` share django-axes' counters (in the
  database, so every worker process sees them), per username and address:
  ``LOGIN_FAILURE_LIMIT`` failures lock that pair for ``LOGIN_COOLOFF_MINUTES``; a success
  resets the count. Across usernames (password spraying), ``LOGIN_ADDRESS_FAILURE_LIMIT``
  failures from one address within ``LOGIN_COOLOFF_MINUTES`` lock every login from it
  (``scoring.people.axes_handler`` asks ``address_locked_until``), read from the same rows.
* A signing PIN (``scoring.signoff.pins.check_pin``) is locked for
  ``SIGNING_PIN_COOLOFF_MINUTES`` after ``SIGNING_PIN_FAILURE_LIMIT`` wrong PINs in a row.
* Protocol uploads to the verification page: at most ``VERIFY_UPLOADS_PER_HOUR`` per address
  in a clock hour, counted in the cache (Redis when ``REDIS_URL`` is set); a cache that cannot
  count refuses the upload (the limit fails closed).

Each lockout is written once to ``Lockout``: the organizer's page lists them and lifts one
early (``unlock``).
"""

from __future__ import annotations

import logging
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

logger = logging.getLogger(__name__)

LOGIN_KINDS = (Lockout.Kind.LOGIN, Lockout.Kind.TOKEN)
VERIFY_WINDOW_SECONDS = 3600
TRIED_KEPT = 200
"""At most this many usernames are kept on an address's lockout."""
ADDRESS_LOCKOUTS_SCANNED = 500
"""An organizer sees an address's lockout among the latest this many where his people were tried."""


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
    """The refusal of a locked ``what`` ("login", "address", "pin" or "verify"), with the
    minutes left."""
    minutes = minutes_left(until)
    if what == "address":
        text = ngettext("Too many failed logins from your address, for several usernames: "
                        "try again in %(minutes)s minute.", "Too many failed logins from your "
                        "address, for several usernames: try again in %(minutes)s minutes.",
                        minutes)
    elif what == "pin":
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


def _address_since(address: str) -> datetime:
    """Failures from this address count from here: the cool-off back, or from the moment its
    last lockout was lifted if that is later."""
    since = timezone.now() - login_cooloff()
    lifted = Lockout.objects.filter(kind=Lockout.Kind.ADDRESS, address=address).aggregate(
        at=Max("unlocked_at"))["at"]
    return max(since, lifted) if lifted else since


def _address_attempts(address: str) -> list[tuple[datetime, int, str | None]]:
    """Axes' rows of this address that still count, oldest first: each row is a username (and
    browser) with its failures and the time of its latest one."""
    from axes.models import AccessAttempt

    return list(AccessAttempt.objects.filter(
        ip_address=address, attempt_time__gte=_address_since(address)).order_by(
        "attempt_time").values_list("attempt_time", "failures_since_start", "username"))


def address_locked_until(address: str | None) -> datetime | None:
    """When logins from this address open again after ``LOGIN_ADDRESS_FAILURE_LIMIT``
    failures across usernames (None: they are open; a limit of 0 never locks).

    A row of axes stops counting a cool-off after its latest failure, so the address opens
    when enough of the oldest rows have stopped counting to leave fewer than the limit."""
    limit = settings.LOGIN_ADDRESS_FAILURE_LIMIT
    if not address or not limit:
        return None
    rows = _address_attempts(address)
    left = sum(failures for _at, failures, _name in rows)
    if left < limit:
        return None
    for at, failures, _name in rows:
        left -= failures
        if left < limit:
            return at + login_cooloff()
    return None  # not reached: every row gone leaves none


def login_refusal(username: str | None, address: str | None) -> tuple[str, int]:
    """What a locked login is told (its address's lockout first), and the seconds left (for
    ``Retry-After``)."""
    until = address_locked_until(address)
    what = "address"
    if until is None:
        until, what = login_locked_until(username, address), "login"
    seconds = max(1, int((until - timezone.now()).total_seconds()))
    return retry_message(what, until), seconds


def record_login_lockout(request: Any, username: str | None, address: str | None) -> Lockout:
    """Write a login lockout to the log once (a refused attempt while locked adds nothing)."""
    kind = Lockout.Kind.TOKEN if request.path.startswith("/api/") else Lockout.Kind.LOGIN
    found = _active().filter(kind__in=LOGIN_KINDS, username=username or "",
                             address=address).first()
    if found is not None:
        return found
    return Lockout.objects.create(kind=kind, username=username or "", address=address,
                                  locked_until=login_locked_until(username, address))


@transaction.atomic
def record_address_lockout(username: str | None, address: str | None) -> Lockout:
    """Write an address's lockout to the log once, with the usernames tried from it; a username
    refused while it holds joins them (at most ``TRIED_KEPT``)."""
    found = _active().select_for_update().filter(kind=Lockout.Kind.ADDRESS,
                                                 address=address).first()
    if found is None:
        rows = _address_attempts(address) if address else []
        tried = sorted({name for _at, _failures, name in rows if name} | (
            {username} if username else set()))
        until = address_locked_until(address) or timezone.now() + login_cooloff()
        return Lockout.objects.create(kind=Lockout.Kind.ADDRESS, address=address,
                                      locked_until=until, tried=tried[:TRIED_KEPT])
    if username and username not in found.tried and len(found.tried) < TRIED_KEPT:
        found.tried = [*found.tried, username]
        found.save(update_fields=["tried"])
    return found


def log_axes_lockout(sender: Any, request: Any = None, username: str | None = None,
                     ip_address: str | None = None, **kwargs: Any) -> None:
    """Receive axes' ``user_locked_out``: the lockout goes to the log (``/lockouts/``) — the
    address's when the handler found the address locked, else the username's."""
    if request is None:
        return
    if getattr(request, "axes_address_locked", False):
        record_address_lockout(username, ip_address)
    else:
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


def _count_upload(key: str) -> int:
    """Add one to the window's count in the cache; raises when the cache cannot count (down,
    or a cache that answers a miss for everything, as the resilient Redis cache does)."""
    cache.add(key, 0, VERIFY_WINDOW_SECONDS)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr, or the cache is unreachable
        if cache.add(key, 1, VERIFY_WINDOW_SECONDS):
            return 1
        return cache.incr(key)  # another process added it meanwhile; ValueError when down


def verify_upload_refusal(request: HttpRequest) -> tuple[str, int]:
    """Count one protocol upload of this address: ``("", 200)`` when it is allowed, else the
    refusal and its status — 429 over the hour's limit, 503 when the count cannot be kept (the
    cache is down: the limit fails closed). The count lives in the cache, shared by every
    process."""
    address = client_address(request)
    window = int(time.time() // VERIFY_WINDOW_SECONDS)
    try:
        count = _count_upload(_verify_key(address, window))
    except Exception as exc:  # noqa: BLE001 -- whatever the cache raises, the upload waits
        logger.warning("verify upload refused: the cache cannot count uploads: %r", exc)
        return _("Protocol uploads are paused: the upload limit cannot be checked right now. "
                 "Try again in a few minutes, or type the protocol's short code."), 503
    limit = settings.VERIFY_UPLOADS_PER_HOUR
    if count <= limit:
        return "", 200
    until = timezone.make_aware(datetime.fromtimestamp((window + 1) * VERIFY_WINDOW_SECONDS))
    if count == limit + 1:
        Lockout.objects.create(kind=Lockout.Kind.VERIFY, address=address, locked_until=until)
    return retry_message("verify", until), 429


# -- the log and unlocking -----------------------------------------------------------------


def _active() -> QuerySet[Lockout]:
    return Lockout.objects.filter(unlocked_at__isnull=True, locked_until__gt=timezone.now())


def _addresses_that_tried(usernames: set[str]) -> list[int]:
    """The address lockouts (among the latest ``ADDRESS_LOCKOUTS_SCANNED``) where one of these
    usernames was tried."""
    rows = Lockout.objects.filter(kind=Lockout.Kind.ADDRESS).order_by("-locked_at").values_list(
        "pk", "tried")[:ADDRESS_LOCKOUTS_SCANNED]
    return [pk for pk, tried in rows if usernames.intersection(tried or [])]


def visible_lockouts(user: Any) -> QuerySet[Lockout]:
    """The lockouts a user may see and lift: all for staff; for an organizer, the PINs of his
    tournaments' players, the logins of his tournaments' people (players, referees,
    organizers) and his own, and the addresses locked after trying one of these logins."""
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
                       | Q(kind__in=LOGIN_KINDS, username__in=usernames)
                       | Q(pk__in=_addresses_that_tried(usernames)))


@transaction.atomic
def unlock(lockout_id: int, *, actor: Any) -> Lockout:
    """Lift a lockout now: the login's counters, the address's failures across usernames (but
    not a username's own lockout from it), the PIN's lock or the address's upload count are
    cleared, and the log says who lifted it."""
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
    elif lockout.kind == Lockout.Kind.ADDRESS:
        from axes.models import AccessAttempt

        # the failures before now stop counting for the address (``_address_since``); a
        # username locked on its own from there stays locked, the others start from zero
        AccessAttempt.objects.filter(ip_address=lockout.address,
                                     failures_since_start__lt=settings.AXES_FAILURE_LIMIT).delete()
        same = _active().filter(kind=lockout.kind, address=lockout.address)
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
