"""What an online entry must respect (``tournaments.entries``): the entry window, the places, one
entry per person, the rating and season limits. Each check refuses with ``ServiceError`` naming
the field at fault; the reads (places taken, the waiting list) serve the pages too."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError
from scoring.models import Entry, EntrySettings, Pair, Player, Profile, RatingEntry, Tournament


def settings_of(tournament: Tournament) -> EntrySettings:
    """The tournament's entry settings (the defaults, unsaved, when it has none)."""
    found = EntrySettings.objects.filter(tournament=tournament).first()
    return found or EntrySettings(tournament=tournament)


def enters_as_pair(tournament: Tournament, conf: EntrySettings) -> bool:
    """Whether an entry is a pair (both partners confirm): a pairs tournament of two-player
    sides whose organizer chose so; otherwise each player enters alone."""
    return (conf.mode == EntrySettings.Mode.PAIRS
            and tournament.format != Tournament.Format.INDIVIDUAL and not tournament.singles)


def _when(moment: datetime) -> str:
    """A moment as the messages show it, in the tournament's zone (activated by the page)."""
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def window_state(conf: EntrySettings, now: datetime | None = None) -> str:
    """"open", "not_yet", "closed" or "off" (the organizer has not opened entries)."""
    now = now or timezone.now()
    if not conf.pk or not conf.open:
        return "off"
    if conf.opens_at and now < conf.opens_at:
        return "not_yet"
    if conf.closes_at and now >= conf.closes_at:
        return "closed"
    return "open"


def check_window(conf: EntrySettings, now: datetime | None = None) -> None:
    """Refuse an entry outside the entry window (naming ``tournament``)."""
    state = window_state(conf, now)
    if state == "off":
        raise ServiceError("tournament", _("This tournament does not take entries on the site."))
    if state == "not_yet" and conf.opens_at:
        raise ServiceError("tournament", _("Entries open on %(when)s.")
                           % {"when": _when(conf.opens_at)})
    if state == "closed" and conf.closes_at:
        raise ServiceError("tournament", _("Entries closed on %(when)s.")
                           % {"when": _when(conf.closes_at)})


def _counts(qs: QuerySet[Any]) -> dict[int, int]:
    """How many rows of ``qs`` each tournament has (one query)."""
    return dict(qs.values_list("tournament_id").annotate(n=Count("pk"))
                .values_list("tournament_id", "n"))


def _places_taken(as_pair: dict[int, bool]) -> dict[int, int]:
    """Places taken in each tournament (id → whether its capacity counts pairs): entrants
    playing and entries holding a place before the organizer's decision; three queries at
    most, whatever the number of tournaments."""
    by_pairs = [pk for pk, pairs in as_pair.items() if pairs]
    by_players = [pk for pk, pairs in as_pair.items() if not pairs]
    entrants = {}
    if by_pairs:
        entrants.update(_counts(Pair.objects.filter(
            tournament_id__in=by_pairs, formed_in_round__isnull=True, withdrawn=False,
            disqualified=False)))
    if by_players:
        entrants.update(_counts(Player.objects.filter(
            tournament_id__in=by_players, withdrawn=False, disqualified=False)))
    holding = _counts(Entry.objects.filter(tournament_id__in=list(as_pair),
                                           status__in=Entry.HOLDING))
    return {pk: entrants.get(pk, 0) + holding.get(pk, 0) for pk in as_pair}


def places_taken(tournament: Tournament, conf: EntrySettings) -> int:
    """Places taken: entrants playing (pairs or players, as the capacity counts) and entries
    holding a place before the organizer's decision."""
    return _places_taken({tournament.pk: enters_as_pair(tournament, conf)})[tournament.pk]


def waiting_count(tournament: Tournament) -> int:
    """How many entries are on the waiting list."""
    return Entry.objects.filter(tournament=tournament, status=Entry.Status.WAITING).count()


@dataclass(frozen=True)
class EntryState:
    """What a tournament's entries show (its page's "How to enter" card, its calendar row):
    the window's state, the settings, the places taken and the waiting list."""

    window: str
    conf: EntrySettings | None = None
    pairs: bool = True
    taken: int = 0
    waiting: int = 0

    @property
    def places_left(self) -> int:
        """Free places (none when there are no settings)."""
        return max(self.conf.capacity - self.taken, 0) if self.conf else 0

    @property
    def summary(self) -> str:
        """One word for the calendar: "open", "waiting_list" (open, no place left),
        "not_yet", "closed" or "off"."""
        if self.window == "open" and not self.places_left:
            return "waiting_list"
        return self.window


def entry_states(tournament_ids: Iterable[int], now: datetime | None = None
                 ) -> dict[int, EntryState]:
    """Each tournament's entry state; a constant number of queries (five at most) whatever
    the number of tournaments, so a list of them reads it once."""
    ids = list(tournament_ids)
    found = {pk: EntryState("off") for pk in ids}
    confs = {conf.tournament_id: conf for conf in EntrySettings.objects.filter(
        tournament_id__in=ids, open=True).select_related("tournament__regulations")}
    if not confs:
        return found
    as_pair = {pk: enters_as_pair(conf.tournament, conf) for pk, conf in confs.items()}
    taken = _places_taken(as_pair)
    waiting = _counts(Entry.objects.filter(tournament_id__in=list(confs),
                                           status=Entry.Status.WAITING))
    for pk, conf in confs.items():
        found[pk] = EntryState(window_state(conf, now), conf, as_pair[pk], taken[pk],
                               waiting.get(pk, 0))
    return found


def check_not_entered(tournament: Tournament, field: str, *, email: str = "",
                      profile: Profile | None = None, user_id: int | None = None,
                      exclude: int | None = None) -> None:
    """Refuse a person (by address, profile or login) already in a live entry of the
    tournament, as its player or partner, or already registered in it."""
    q = Q()
    if email:
        q |= Q(email__iexact=email) | Q(partner_email__iexact=email)
    if profile is not None:
        q |= Q(profile=profile) | Q(partner_profile=profile)
    if user_id is not None:
        q |= Q(user_id=user_id)
    if not q:
        return
    live = Entry.objects.filter(q, tournament=tournament, status__in=Entry.LIVE)
    if exclude is not None:
        live = live.exclude(pk=exclude)
    registered = Q()
    if profile is not None:
        registered |= Q(profile=profile)
    if user_id is not None:
        registered |= Q(user_id=user_id)
    playing = bool(registered) and Player.objects.filter(
        registered, tournament=tournament).exclude(
        pk__in=Entry.objects.filter(pk=exclude or 0).values("player")).exists()
    if live.exists() or playing:
        raise ServiceError(field, _("This person has already entered this tournament."))


def person_rating(profile: Profile | None) -> int | None:
    """A person's rating now: his latest current row of any rating list (None: unrated)."""
    if profile is None:
        return None
    row = (RatingEntry.objects.filter(profile=profile, partner__isnull=True, current=True)
           .order_by("-tournament__start_date", "-pk").values_list("rating", flat=True).first())
    return None if row is None else int(round(row))


def check_limits(conf: EntrySettings, profile: Profile | None, field: str) -> None:
    """Refuse a person outside the rating limits (an unrated one fails a lowest rating) or
    who played no tournament of the season the entry asks for."""
    rating = person_rating(profile)
    if conf.rating_min is not None and (rating is None or rating < conf.rating_min):
        raise ServiceError(field, _("Only players rated %(min)s or more may enter (rating: "
                                    "%(rating)s).") % {"min": conf.rating_min,
                                                       "rating": rating if rating is not None
                                                       else _("none")})
    if conf.rating_max is not None and rating is not None and rating > conf.rating_max:
        raise ServiceError(field, _("Only players rated %(max)s or less may enter (rating: "
                                    "%(rating)s).") % {"max": conf.rating_max, "rating": rating})
    if conf.season_id is not None and (profile is None or not Player.objects.filter(
            profile=profile, tournament__seasons=conf.season_id).exists()):
        raise ServiceError(field, _("Only players of the season %(season)s may enter.")
                           % {"season": conf.season})
