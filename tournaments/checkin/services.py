"""Check-in services: open, change, close a window; check an entrant in (once) or out.

Each runs in one transaction with the window's row locked, refuses with a
:class:`~scoring.core.errors.ServiceError` naming the field, and returns what it did.
Closing a window sends the webhook ``checkin.closed`` with the counts; a window that opens
(at once, or when its ``opens_at`` passes: the beat's sweep) mails "check-in is open" once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError
from scoring.core.timezones import zone_named
from scoring.models import CheckIn, CheckInWindow, Pair, Player, Round, Tournament
from scoring.webhooks.services import emit, tournament_ref
from tournaments.mail import player_addresses, send_mail_to

logger = logging.getLogger(__name__)


def by_players(tournament: Tournament) -> bool:
    """Whether the tournament's entrants are players (an individual event), else pairs."""
    return tournament.format == Tournament.Format.INDIVIDUAL


def entrants(tournament: Tournament) -> QuerySet[Any]:
    """The entrants who may check in: the available players or registered pairs."""
    if by_players(tournament):
        return Player.objects.filter(tournament=tournament, withdrawn=False,
                                     disqualified=False).order_by("name", "pk")
    return (Pair.objects.filter(tournament=tournament, formed_in_round__isnull=True,
                                withdrawn=False, disqualified=False)
            .select_related("player1", "player2").order_by("name", "player1__name", "pk"))


def own_entrant(tournament: Tournament, player: Player | None) -> Pair | Player | None:
    """The entrant a player checks in: himself in an individual event, else his pair."""
    if player is None or player.tournament_id != tournament.pk:
        return None
    if by_players(tournament):
        return player
    return (Pair.objects.filter(tournament=tournament, formed_in_round__isnull=True)
            .filter(Q(player1=player) | Q(player2=player)).first())


def player_of(tournament: Tournament, user: Any) -> Player | None:
    """The logged-in user's player in the tournament, if he plays in it."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(tournament=tournament, user=user).first()


def window_for_round(tournament: Tournament, number: int) -> CheckInWindow | None:
    """The check-in window before round ``number``, if the organizer opened one."""
    return CheckInWindow.objects.filter(tournament=tournament, round_number=number).first()


def current_window(tournament: Tournament) -> CheckInWindow | None:
    """The window a player checks in to now: the earliest open one."""
    now = timezone.now()
    return (CheckInWindow.objects.filter(tournament=tournament, closed=False,
                                         opens_at__lte=now, closes_at__gt=now)
            .order_by("round_number").first())


def checkin_of(window: CheckInWindow, entrant: Pair | Player) -> CheckIn | None:
    """The entrant's check-in to the window, if he has checked in."""
    field = "player" if isinstance(entrant, Player) else "pair"
    return CheckIn.objects.filter(window=window, **{field: entrant}).first()


def checked_in_ids(window: CheckInWindow) -> set[int]:
    """Ids of the entrants checked in to the window (pairs, or players)."""
    rows = CheckIn.objects.filter(window=window).values_list("pair_id", "player_id")
    return {pair or player for pair, player in rows}


def _round_drawn_past_draft(tournament: Tournament, number: int) -> bool:
    """Whether round ``number`` is already published (its draw can no longer change)."""
    return Round.objects.filter(tournament=tournament, number=number).exclude(
        status=Round.Status.DRAFT).exists()


def _check_times(opens_at: datetime, closes_at: datetime) -> None:
    """Refuse a window that closes before it opens."""
    if closes_at <= opens_at:
        raise ServiceError("closes_at", _("The window must close after it opens."))


@transaction.atomic
def open_window(tournament: Tournament, *, round_number: int = 1,
                opens_at: datetime | None = None, closes_at: datetime,
                actor: Any = None) -> CheckInWindow:
    """Open (or plan) the check-in window before a round: one per round, before its draw
    is published."""
    if tournament.format == Tournament.Format.TEAMS:
        raise ServiceError("tournament", _(
            "A team event's draw seats teams: check-in is for pairs and individual events."))
    opens_at = opens_at or timezone.now()
    _check_times(opens_at, closes_at)
    if round_number < 1:
        raise ServiceError("round_number", _("Rounds are numbered from 1."))
    if _round_drawn_past_draft(tournament, round_number):
        raise ServiceError("round_number", _("Round %(number)s is already published.")
                           % {"number": round_number})
    try:
        with transaction.atomic():
            window = CheckInWindow.objects.create(
                tournament=tournament, round_number=round_number, opens_at=opens_at,
                closes_at=closes_at)
    except IntegrityError as err:
        raise ServiceError("round_number", _(
            "There is a check-in window before round %(number)s already.")
            % {"number": round_number}) from err
    announce_window(window)
    logger.info("check-in window opened: tournament=%s round=%s window=%s actor=%s",
                tournament.pk, round_number, window.pk, getattr(actor, "pk", None))
    return window


def _locked(window_id: int) -> CheckInWindow:
    """The window's row, locked for this transaction."""
    window = (CheckInWindow.objects.select_for_update(of=("self",))
              .select_related("tournament").filter(pk=window_id).first())
    if window is None:
        raise ServiceError("window", _("No such check-in window."))
    return window


@transaction.atomic
def change_window(window_id: int, *, opens_at: datetime | None = None,
                  closes_at: datetime | None = None, actor: Any = None) -> CheckInWindow:
    """Move a window's opening or closing (a closed window stays closed)."""
    window = _locked(window_id)
    window.opens_at = opens_at or window.opens_at
    window.closes_at = closes_at or window.closes_at
    _check_times(window.opens_at, window.closes_at)
    window.save(update_fields=["opens_at", "closes_at"])
    announce_window(window)
    logger.info("check-in window changed: window=%s actor=%s", window.pk,
                getattr(actor, "pk", None))
    return window


@dataclass(frozen=True)
class Closed:
    """What closing a window did: the window and its counts (``already``: it was closed)."""

    window: CheckInWindow
    entrants: int
    checked_in: int
    already: bool

    @property
    def missing(self) -> int:
        """Entrants who did not check in."""
        return max(self.entrants - self.checked_in, 0)


def _counts(window: CheckInWindow) -> dict[str, int]:
    """How many checked in each way."""
    found = dict(CheckIn.objects.filter(window=window).values_list("how")
                 .annotate(n=Count("pk")).values_list("how", "n"))
    return {how: found.get(how, 0) for how in CheckIn.How.values}


def closed_payload(done: Closed) -> dict[str, Any]:
    """The ``checkin.closed`` webhook's payload: the window and its counts."""
    window = done.window
    return {
        "tournament": tournament_ref(window.tournament),
        "window": {"id": window.pk, "round_number": window.round_number,
                   "opens_at": window.opens_at.isoformat(),
                   "closes_at": window.closes_at.isoformat(),
                   "closed_at": window.closed_at.isoformat() if window.closed_at else None},
        "counts": {"entrants": done.entrants, "checked_in": done.checked_in,
                   "missing": done.missing, "by": _counts(window)},
    }


@transaction.atomic
def close_window(window_id: int, *, actor: Any = None) -> Closed:
    """Close a window (the organizer, or the sweep at its end); the draw of its round then
    seats only those checked in. Sends ``checkin.closed`` once."""
    window = _locked(window_id)
    count = entrants(window.tournament).count()
    checked = CheckIn.objects.filter(window=window).count()
    if window.closed:
        return Closed(window, count, checked, already=True)
    window.closed = True
    window.closed_at = timezone.now()
    window.save(update_fields=["closed", "closed_at"])
    done = Closed(window, count, checked, already=False)
    emit(window.tournament_id, "checkin.closed", lambda: closed_payload(done))
    logger.info("check-in window closed: window=%s checked_in=%s of %s actor=%s", window.pk,
                checked, count, getattr(actor, "pk", None))
    return done


def close_due_windows() -> int:
    """Close every window past its end (the beat's sweep); the number closed."""
    due = CheckInWindow.objects.filter(closed=False, closes_at__lte=timezone.now())
    return sum(1 for pk in due.values_list("pk", flat=True)
               if not close_window(pk).already)


@dataclass(frozen=True)
class CheckedIn:
    """What a check-in did: the record, and whether it is new (a second tap finds it)."""

    checkin: CheckIn
    created: bool


def _entrant_fields(window: CheckInWindow, entrant: Pair | Player) -> dict[str, Any]:
    """The check-in's entrant field, refused when not an entrant of the window's tournament."""
    kind = "player" if by_players(window.tournament) else "pair"
    wanted = Player if kind == "player" else Pair
    if not isinstance(entrant, wanted) or entrant.tournament_id != window.tournament_id:
        raise ServiceError(kind, _("Not an entrant of this tournament."))
    if not entrant.available or getattr(entrant, "formed_in_round_id", None):
        raise ServiceError(kind, _("%(name)s does not take part in the draws.")
                           % {"name": entrant})
    return {kind: entrant}


@transaction.atomic
def check_in(window_id: int, entrant: Pair | Player, *, how: str, by: Any = None
             ) -> CheckedIn:
    """Check an entrant in to an open window, once: a repeated tap returns the first record."""
    window = _locked(window_id)
    fields = _entrant_fields(window, entrant)
    found = checkin_of(window, entrant)
    if found is not None:
        return CheckedIn(found, created=False)
    if not window.is_open():
        raise ServiceError("window", _("Check-in is closed.") if window.has_opened()
                           else _("Check-in has not opened yet."))
    user = by if getattr(by, "is_authenticated", False) else None
    try:
        with transaction.atomic():
            record = CheckIn.objects.create(window=window, how=how, by=user,
                                            at=timezone.now(), **fields)
    except IntegrityError:  # another request won the race (the window lock makes it rare)
        return CheckedIn(CheckIn.objects.get(window=window, **fields), created=False)
    logger.info("checked in: window=%s entrant=%s how=%s by=%s", window.pk,
                record.entrant_id, how, getattr(user, "pk", None))
    return CheckedIn(record, created=True)


@transaction.atomic
def undo_check_in(checkin_id: int, *, actor: Any = None) -> CheckIn:
    """Take back a check-in (the organizer ticked the wrong entrant), before the draw."""
    found = CheckIn.objects.select_related("window").filter(pk=checkin_id).first()
    if found is None:
        raise ServiceError("checkin", _("No such check-in."))
    window = _locked(found.window_id)
    if _round_drawn_past_draft(window.tournament, window.round_number):
        raise ServiceError("checkin", _("Round %(number)s is already published.")
                           % {"number": window.round_number})
    found.delete()
    logger.info("check-in taken back: window=%s checkin=%s actor=%s", window.pk, checkin_id,
                getattr(actor, "pk", None))
    return found


def _entrant_players(window: CheckInWindow) -> set[int]:
    """The players of the entrants who may check in to the window."""
    if by_players(window.tournament):
        return set(entrants(window.tournament).values_list("pk", flat=True))
    found: set[int] = set()
    for pair in entrants(window.tournament):
        found.update(pk for pk in (pair.player1_id, pair.player2_id) if pk)
    return found


def announce_window(window: CheckInWindow) -> bool:
    """Mail "check-in is open" for an open window not yet announced (once, marked on the
    window; inside the caller's transaction); whether a mail goes out."""
    if window.announced_at is not None or not window.is_open():
        return False
    window.announced_at = timezone.now()
    window.save(update_fields=["announced_at"])
    tournament = window.tournament
    addresses = player_addresses(tournament.pk)
    to = [addresses[pk] for pk in _entrant_players(window) if pk in addresses]
    closes = timezone.localtime(window.closes_at, zone_named(tournament.time_zone or ""))
    return send_mail_to(tournament, "checkin_open", to, {
        "round": window.round_number, "closes_at": closes.strftime("%H:%M"),
        "area_path": reverse("tournaments:player_area", args=[tournament.slug])})


def announce_due_windows() -> int:
    """Announce every window that has opened and was not announced (the beat's sweep); how
    many were mailed."""
    now = timezone.now()
    due = CheckInWindow.objects.filter(closed=False, announced_at__isnull=True,
                                       opens_at__lte=now, closes_at__gt=now)
    sent = 0
    for pk in due.values_list("pk", flat=True):
        with transaction.atomic():
            sent += announce_window(_locked(pk))
    return sent
