"""Entering a tournament on the site: the entry made (by a logged-in player or one who signs
up), the sign-up's address and the partner confirmed, a place given or the waiting list.

Every change locks the tournament's row first (``lock_tournament``), so two entries racing for
the last place are counted one after the other: one gets it, the other waits; never over.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError
from scoring.models import Entry, EntrySettings, Profile, Tournament
from scoring.models.people import clean_text
from scoring.people import entries as rules
from scoring.people.profiles import match_profiles
from tournaments.entries import notify
from tournaments.entries.tokens import link, read_token

logger = logging.getLogger(__name__)


@dataclass
class Person:
    """Someone named on an entry: by profile, or by name (and address, club …)."""

    name: str = ""
    email: str = ""
    profile: Profile | None = None
    club: str = ""
    city: str = ""
    birth_year: int | None = None


def lock_tournament(tournament_id: int) -> tuple[Tournament, EntrySettings]:
    """The tournament's row locked for the transaction, with its entry settings."""
    tournament = Tournament.objects.select_for_update(of=("self",)).select_related(
        "regulations").get(pk=tournament_id)
    return tournament, rules.settings_of(tournament)


def _match(person: Person, tournament: Tournament) -> tuple[Profile | None, list[int]]:
    """The person's profile as the roster import matches it, or the doubtful candidates:
    among the people anyone may see (playing in a public tournament), so that an entry never
    links, nor shows its organizer, a person of a hidden tournament."""
    if person.profile is not None:
        return person.profile, []
    found = match_profiles([{"name": person.name, "club": person.club,
                             "birth_year": person.birth_year}], viewer=AnonymousUser(),
                           exclude_tournament=tournament.pk)[0]
    return found.profile, [p.pk for p in found.candidates]


def _check_person(tournament: Tournament, conf: EntrySettings, person: Person, prefix: str,
                  profile: Profile | None, doubtful: bool, user_id: int | None = None) -> None:
    """One person of the entry: not entered yet, within the limits (a doubt: the organizer)."""
    rules.check_not_entered(tournament, f"{prefix}email", email=person.email)
    rules.check_not_entered(tournament, f"{prefix}name", profile=profile, user_id=user_id)
    if not doubtful:
        rules.check_limits(conf, profile, f"{prefix}name")


def place(entry: Entry, tournament: Tournament, conf: EntrySettings) -> Entry:
    """Give the entry a place if one is free (waiting for its partner, or received), else put
    it on the waiting list. The tournament's row is locked by the caller."""
    free = rules.places_taken(tournament, conf) < conf.capacity
    if not free:
        entry.status = Entry.Status.WAITING
    elif entry.partner_name and entry.partner_confirmed_at is None:
        entry.status = Entry.Status.PARTNER
    else:
        entry.status = Entry.Status.RECEIVED
    entry.queued_at = timezone.now()
    entry.save(update_fields=["status", "queued_at"])
    return entry


def _announce(entry: Entry) -> None:
    """The mails of an entry just placed: received (or waiting) to both, the partner's link."""
    notify.mail_entry(entry, "entry_received", waiting=entry.status == Entry.Status.WAITING)
    notify.ask_partner(entry)


@transaction.atomic
def create_entry(tournament_id: int, player: Person, partner: Person | None = None, *,
                 user: Any = None) -> Entry:
    """Enter the tournament: ``player`` is the caller himself (his login's profile when he has
    one); ``partner`` when a pair enters together. Logged in: placed at once; a sign-up waits
    for the confirmation of his address (a mail with a signed link)."""
    tournament, conf = lock_tournament(tournament_id)
    rules.check_window(conf)
    user_id = getattr(user, "pk", None)
    if user_id is not None:
        player.profile = Profile.objects.filter(user_id=user_id).first() or player.profile
        player.email = player.email or user.email
    if not player.email:
        raise ServiceError("email", _("Give your email address."))
    pairs = rules.enters_as_pair(tournament, conf)
    if pairs and (partner is None or not (partner.name or partner.profile)):
        raise ServiceError("partner_name", _("Name your partner: a pair enters together."))
    if not pairs:
        partner = None
    profile, doubts = _match(player, tournament)
    _check_person(tournament, conf, player, "", profile, bool(doubts), user_id)
    entry = Entry(tournament=tournament, name=clean_text(player.name or str(profile)),
                  email=player.email, club=clean_text(player.club),
                  city=clean_text(player.city), birth_year=player.birth_year, profile=profile,
                  user_id=user_id, doubts={"profile": doubts} if doubts else {})
    if partner is not None:
        _add_partner(entry, tournament, conf, partner)
    entry.save()
    if user_id is not None:
        entry.email_confirmed_at = timezone.now()
        place(entry, tournament, conf)
        _announce(entry)
    else:
        notify.send_mail_to(tournament, "signup_confirm", [entry.email],
                            {**notify.entry_context(entry),
                             "confirm_link": link("signup", entry.pk)})
    notify.entry_event(entry, "entry.created")
    logger.info("entry made: tournament=%s entry=%s status=%s", tournament.pk, entry.pk,
                entry.status)
    return entry


def _add_partner(entry: Entry, tournament: Tournament, conf: EntrySettings,
                 partner: Person) -> None:
    """Name the entry's partner: matched, checked, with the address his link goes to."""
    profile, doubts = _match(partner, tournament)
    if profile is not None and entry.profile is not None and profile.pk == entry.profile.pk:
        raise ServiceError("partner_name", _("Your partner is another person."))
    email = partner.email or (profile.user.email if profile and profile.user else "")
    if not email:
        raise ServiceError("partner_email", _("Give your partner's email address: he "
                                              "confirms the entry by a link."))
    if email.casefold() == entry.email.casefold():
        raise ServiceError("partner_email", _("Your partner is another person."))
    _check_person(tournament, conf, Person(email=email), "partner_", profile, bool(doubts))
    entry.partner_name = clean_text(partner.name or str(profile))
    entry.partner_email, entry.partner_profile = email, profile
    if doubts:
        entry.doubts["partner_profile"] = doubts


@transaction.atomic
def confirm_signup(token: str) -> Entry:
    """The sign-up's address confirmed by his signed link: the entry gets a place or waits."""
    entry_id = read_token("signup", token)
    entry = Entry.objects.filter(pk=entry_id).first()
    if entry is None:
        raise ServiceError("token", _("This link is not valid."))
    tournament, conf = lock_tournament(entry.tournament_id)
    entry = Entry.objects.select_for_update().get(pk=entry_id)
    if entry.status != Entry.Status.SIGNUP:
        if entry.status == Entry.Status.EXPIRED:
            raise ServiceError("token", _("This entry has expired; enter again."))
        return entry  # confirmed already: the same link twice changes nothing
    rules.check_window(conf)
    entry.email_confirmed_at = timezone.now()
    entry.save(update_fields=["email_confirmed_at"])
    place(entry, tournament, conf)
    _announce(entry)
    logger.info("entry address confirmed: tournament=%s entry=%s status=%s", tournament.pk,
                entry.pk, entry.status)
    return entry


def partner_entry(token: str) -> Entry:
    """The entry of a partner's link (forged or expired: refused naming ``token``)."""
    entry_id = read_token("partner", token)
    entry = Entry.objects.select_related("tournament").filter(pk=entry_id).first()
    if entry is None:
        raise ServiceError("token", _("This link is not valid."))
    return entry


@transaction.atomic
def confirm_partner(token: str) -> Entry:
    """The partner confirms by his signed link: the entry holding a place is received."""
    entry = partner_entry(token)
    lock_tournament(entry.tournament_id)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status in (Entry.Status.EXPIRED, Entry.Status.WITHDRAWN, Entry.Status.REFUSED):
        raise ServiceError("token", _("This entry is no longer open (%(status)s).")
                           % {"status": entry.get_status_display()})
    if entry.partner_confirmed_at is not None:
        return entry
    entry.partner_confirmed_at = timezone.now()
    if entry.status == Entry.Status.PARTNER:
        entry.status = Entry.Status.RECEIVED
    entry.save(update_fields=["partner_confirmed_at", "status"])
    logger.info("entry partner confirmed: tournament=%s entry=%s", entry.tournament_id, entry.pk)
    return entry
