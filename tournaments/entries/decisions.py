"""The organizer's decisions on entries (accept, refuse, withdraw, edit), a player's own
withdrawal, the waiting list moving up, and the sweep that expires unconfirmed entries."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError
from scoring.models import Entry, EntrySettings, Profile, Tournament
from scoring.people import entries as rules
from tournaments.entries import notify
from tournaments.entries.admit import admit_entry
from tournaments.entries.services import lock_tournament
from tournaments.registration.services import withdraw_pair, withdraw_player
from tournaments.setup.services import actor_id

logger = logging.getLogger(__name__)

DECISIONS = ("accept", "refuse", "withdraw")
"""What the organizer decides on an entry."""

EDITABLE = ("name", "email", "club", "city", "birth_year", "partner_name", "partner_email",
            "note")
"""The fields of an entry the organizer changes (and the profiles: ``profile``,
``partner_profile``: a profile id or "new")."""


def _locked_entry(entry_id: int) -> tuple[Entry, Tournament, EntrySettings]:
    """The entry, its tournament's row locked first (the order every change takes)."""
    entry = Entry.objects.filter(pk=entry_id).only("tournament_id").first()
    if entry is None:
        raise ServiceError("entry", _("No such entry."))
    tournament, conf = lock_tournament(entry.tournament_id)
    entry = Entry.objects.select_for_update().get(pk=entry_id)
    entry.tournament = tournament
    return entry, tournament, conf


def fill_places(tournament: Tournament, conf: EntrySettings) -> list[Entry]:
    """Move the first waiting entries up while places are free; mail each one moved up."""
    promoted: list[Entry] = []
    free = conf.capacity - rules.places_taken(tournament, conf)
    waiting = Entry.objects.filter(tournament=tournament, status=Entry.Status.WAITING)
    for entry in waiting.order_by("queued_at", "pk")[:max(free, 0)]:
        entry.tournament = tournament
        entry.status = (Entry.Status.PARTNER if entry.partner_name
                        and entry.partner_confirmed_at is None else Entry.Status.RECEIVED)
        entry.save(update_fields=["status"])
        notify.mail_entry(entry, "entry_promoted")
        promoted.append(entry)
        logger.info("entry moved up: tournament=%s entry=%s", tournament.pk, entry.pk)
    return promoted


def _withdraw_entrants(entry: Entry) -> None:
    """Withdraw the pair or player an accepted entry became (its results stay)."""
    if entry.pair_id is not None:
        withdraw_pair(entry.pair_id)
    elif entry.player_id is not None:
        withdraw_player(entry.player_id)


def _close(entry: Entry, status: str, actor: Any) -> None:
    """End an entry (refused, withdrawn, expired), freeing what it held."""
    if entry.status == Entry.Status.ACCEPTED:
        _withdraw_entrants(entry)
    entry.status, entry.decided_at = status, timezone.now()
    entry.decided_by = actor if getattr(actor, "pk", None) else None
    entry.save(update_fields=["status", "decided_at", "decided_by"])


@transaction.atomic
def decide_entry(entry_id: int, decision: str, *, actor: Any = None,
                 note: str = "") -> tuple[Entry, list[Entry]]:
    """Accept (its pair or player registered), refuse or withdraw an entry; the entry and the
    waiting entries moved up into the place it freed."""
    if decision not in DECISIONS:
        raise ServiceError("decision", _("Accept, refuse or withdraw."))
    entry, tournament, conf = _locked_entry(entry_id)
    closed = (Entry.Status.REFUSED, Entry.Status.WITHDRAWN, Entry.Status.EXPIRED)
    if entry.status in closed:
        raise ServiceError("decision", _("This entry is closed already (%(status)s).")
                           % {"status": entry.get_status_display()})
    if note:
        entry.note = note[:300]
        entry.save(update_fields=["note"])
    if decision == "accept":
        _accept(entry, actor)
    else:
        _close(entry, Entry.Status.REFUSED if decision == "refuse" else Entry.Status.WITHDRAWN,
               actor)
        if decision == "refuse":
            notify.mail_entry(entry, "entry_refused", note=entry.note)
    promoted = fill_places(tournament, conf)
    notify.entry_event(entry, "entry.decided")
    logger.info("entry %s: tournament=%s entry=%s actor=%s promoted=%s", decision,
                tournament.pk, entry.pk, actor_id(actor), [e.pk for e in promoted])
    return entry, promoted


def _accept(entry: Entry, actor: Any) -> None:
    """Accept an entry holding a place whose partner confirmed."""
    if entry.status == Entry.Status.ACCEPTED:
        raise ServiceError("decision", _("This entry is accepted already."))
    if entry.status == Entry.Status.WAITING:
        raise ServiceError("decision", _("No place is free: the entry is on the waiting list."))
    if entry.status == Entry.Status.SIGNUP:
        raise ServiceError("decision", _("The player has not confirmed his address yet."))
    if entry.status == Entry.Status.PARTNER:
        raise ServiceError("decision", _("The partner has not confirmed yet."))
    admit_entry(entry)
    entry.status, entry.decided_at = Entry.Status.ACCEPTED, timezone.now()
    entry.decided_by = actor if getattr(actor, "pk", None) else None
    entry.save(update_fields=["status", "decided_at", "decided_by"])
    notify.mail_entry(entry, "entry_accepted")


@transaction.atomic
def withdraw_own_entry(entry_id: int) -> tuple[Entry, list[Entry]]:
    """The player withdraws his entry (by his entry's link or his login): the first waiting
    entry moves up into its place."""
    entry, tournament, conf = _locked_entry(entry_id)
    if entry.status not in Entry.LIVE:
        raise ServiceError("entry", _("This entry is closed already (%(status)s).")
                           % {"status": entry.get_status_display()})
    _close(entry, Entry.Status.WITHDRAWN, None)
    promoted = fill_places(tournament, conf)
    notify.entry_event(entry, "entry.decided")
    logger.info("entry withdrawn by the player: tournament=%s entry=%s", tournament.pk, entry.pk)
    return entry, promoted


def _choose_profile(entry: Entry, field: str, choice: Any) -> None:
    """The organizer's choice of a profile for a doubtful match: a profile id or "new"."""
    if choice in (None, ""):
        return
    if str(choice) == "new":
        setattr(entry, field, None)
    else:
        profile = Profile.objects.filter(pk=int(choice), merged_into__isnull=True).first()
        if profile is None:
            raise ServiceError(field, _("No such profile."))
        rules.check_not_entered(entry.tournament, field, profile=profile, exclude=entry.pk)
        setattr(entry, field, profile)
    entry.doubts.pop(field, None)


@transaction.atomic
def edit_entry(entry_id: int, *, actor: Any = None, **changes: Any) -> Entry:
    """Change an entry's names, addresses, note, or choose its doubtful profiles."""
    entry, tournament, _conf = _locked_entry(entry_id)
    if entry.status == Entry.Status.ACCEPTED and set(changes) - {"note"}:
        raise ServiceError("entry", _("The entry is accepted: change its pair or player "
                                      "instead."))
    for field in ("profile", "partner_profile"):
        _choose_profile(entry, field, changes.pop(field, None))
    for name, value in changes.items():
        if name not in EDITABLE:
            raise ServiceError(name, _("This field cannot be changed."))
        setattr(entry, name, value if value is not None else "")
    if "email" in changes:
        rules.check_not_entered(tournament, "email", email=entry.email, exclude=entry.pk)
    if changes.get("partner_email"):
        rules.check_not_entered(tournament, "partner_email", email=entry.partner_email,
                                exclude=entry.pk)
    entry.save()
    logger.info("entry changed: tournament=%s entry=%s fields=%s actor=%s", tournament.pk,
                entry.pk, sorted(changes), actor_id(actor))
    return entry


def expire_entries(now: Any = None) -> list[Entry]:
    """Expire entries whose partner did not confirm within the tournament's hours (their
    places go to the waiting list) and sign-ups never confirmed; what expired."""
    now = now or timezone.now()
    expired: list[Entry] = []
    stale = Entry.objects.filter(status__in=(Entry.Status.PARTNER, Entry.Status.WAITING),
                                 partner_confirmed_at__isnull=True).exclude(partner_name="")
    for tournament_id in set(stale.values_list("tournament_id", flat=True)):
        expired += _expire_in(tournament_id, now)
    unconfirmed = Entry.objects.filter(
        status=Entry.Status.SIGNUP,
        created_at__lt=now - timedelta(hours=_link_hours()))
    expired += list(unconfirmed)
    unconfirmed.update(status=Entry.Status.EXPIRED, decided_at=now)
    return expired


def _link_hours() -> float:
    """How long a mailed link works (``ENTRY_LINK_HOURS``)."""
    return float(settings.ENTRY_LINK_HOURS)


@transaction.atomic
def _expire_in(tournament_id: int, now: Any) -> list[Entry]:
    """Expire one tournament's entries past its partner's hours; fill the places freed."""
    tournament, conf = lock_tournament(tournament_id)
    deadline = now - timedelta(hours=conf.confirm_hours)
    stale = list(Entry.objects.select_for_update().filter(
        tournament=tournament, status__in=(Entry.Status.PARTNER, Entry.Status.WAITING),
        partner_confirmed_at__isnull=True, created_at__lt=deadline).exclude(partner_name=""))
    for entry in stale:
        entry.tournament = tournament
        _close(entry, Entry.Status.EXPIRED, None)
        notify.entry_event(entry, "entry.decided")
        logger.info("entry expired: tournament=%s entry=%s", tournament.pk, entry.pk)
    if stale:
        fill_places(tournament, conf)
    return stale


SETTINGS_FIELDS = ("open", "opens_at", "closes_at", "mode", "capacity", "rating_min",
                   "rating_max", "season", "confirm_hours", "disabled_mails")
"""The entry settings the organizer changes (page and API alike)."""


@transaction.atomic
def update_entry_settings(tournament_id: int, *, actor: Any = None,
                          **fields: Any) -> tuple[EntrySettings, list[Entry]]:
    """Change the tournament's entry settings; more places move the waiting list up. The
    settings saved and the entries moved up."""
    tournament, conf = lock_tournament(tournament_id)
    for name, value in fields.items():
        if name not in SETTINGS_FIELDS:
            raise ServiceError(name, _("This field cannot be changed."))
        setattr(conf, name, value)
    unknown = set(conf.disabled_mails or []) - set(notify.KINDS)
    if unknown:
        raise ServiceError("disabled_mails", _("No such mail: %(kinds)s.")
                           % {"kinds": ", ".join(sorted(unknown))})
    if conf.opens_at and conf.closes_at and conf.closes_at <= conf.opens_at:
        raise ServiceError("closes_at", _("Entries close after they open."))
    if conf.rating_min is not None and conf.rating_max is not None and (
            conf.rating_min > conf.rating_max):
        raise ServiceError("rating_max", _("The highest rating is not below the lowest."))
    try:
        conf.full_clean(exclude=["tournament"])
    except ValidationError as exc:
        field, errors = next(iter(exc.message_dict.items()))
        raise ServiceError(field, errors[0]) from exc
    conf.save()
    promoted = fill_places(tournament, conf) if conf.open else []
    logger.info("entry settings changed: tournament=%s fields=%s actor=%s", tournament.pk,
                sorted(fields), actor_id(actor))
    return conf, promoted
