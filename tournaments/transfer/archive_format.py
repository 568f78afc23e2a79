"""The tournament file's format: its sections (kinds of record) and how each field travels."""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models

from scoring.core.errors import ServiceError
from scoring.models import (
    CheckIn,
    CheckInWindow,
    Deal,
    Entry,
    EntrySettings,
    Group,
    IdempotencyKey,
    IssuedAccount,
    Lockout,
    Match,
    Pair,
    Party,
    PartyDesk,
    PartyEvent,
    PartyTotals,
    Penalty,
    Player,
    PrintJob,
    Profile,
    ProfileMerge,
    Protocol,
    RatingEntry,
    RatingList,
    ReadOnlyToken,
    RefereeSettings,
    Regulations,
    Round,
    Ruling,
    Season,
    Signature,
    SigningPin,
    Stage,
    Table,
    Team,
    TeamMatch,
    TeamSheet,
    TeamSheetSignature,
    TimetableItem,
    Tournament,
    TournamentPlacing,
    TournamentRole,
    WebhookDelivery,
    WebhookSubscription,
)
from scoring.rules.game_settings import SETTING_NAMES, validate_game_settings

FORMAT = "domino-tournament"
VERSION = 2
#: The versions this installation reads: 1 (before profiles: each player gets a new profile),
#: 2 (``profiles``: each player's profile, re-linked on import; ``archive_profiles``).
READABLE_VERSIONS = (1, 2)
#: Fields of the tournament holding lists of ids of another section (remapped on import).
ID_LISTS = {"start_list": "pairs"}
#: Models of the tournament's apps that the file does not carry, and why.
LEFT_OUT: dict[type[models.Model], str] = {
    SigningPin: "credentials: players set new PINs",
    IssuedAccount: "logins of this installation: the importing organizer makes and invites his own",
    PrintJob: "an expiring cache of round prints, printed again on demand",
    PartyTotals: "stored for speed, derived from the deals: rebuilt on first read",
    IdempotencyKey: "a client's retry memory, not tournament data",
    Lockout: "this installation's security log (who was locked out, from where)",
    ReadOnlyToken: "an organizer's API credentials on this installation",
    WebhookSubscription: "an organizer's receivers and secrets on this installation",
    WebhookDelivery: "what this installation sent to those receivers",
    Profile: "people across tournaments: the file's `profiles` carries each player's, re-linked "
             "on import (archive_profiles)",
    ProfileMerge: "this installation's log of merged profiles, to undo a merge here",
    RatingList: "spans tournaments; recomputed here from the results",
    RatingEntry: "spans tournaments; recomputed here from the results",
    Season: "groups tournaments of this installation; not one tournament's data",
    TournamentPlacing: "stored for the season tables, derived from the standings: refreshed "
                       "when a season counts the tournament",
    CheckInWindow: "who came to the hall before a round, on this installation: the draws it "
                   "fed are carried; a window is opened here again if needed",
    CheckIn: "who came to the hall before a round, on this installation (with its logins)",
    Entry: "the sign-up's working state on this installation (players' addresses, confirmations, "
           "signed links); accepted entries travel as the pairs and players they became",
    EntrySettings: "how this installation takes entries and mails players (its window and "
                   "mail switches), set again by the importing organizer",
}
#: Fields the file does not carry, and why (the importing installation makes new values).
LEFT_OUT_FIELDS: dict[type[models.Model], dict[str, str]] = {
    Player: {"access_token": "a personal link key, a credential: new links are made"},
    Tournament: {"entrants_version": "the public pages' ETag counter of this installation: "
                                     "an imported tournament starts its own"},
    Stage: {"qualifiers": "the list edited before a draw; the drawn bracket's matches keep "
                          "each seed, its groups their entrants"},
}


class ArchiveError(ServiceError):
    """A tournament file that cannot be imported here; nothing was changed."""

    def __init__(self, message: str) -> None:
        super().__init__("file", message)


@dataclass(frozen=True)
class Section:
    """One kind of record of the file: its key, its model, the lookup to its tournament."""

    name: str
    model: type[models.Model]
    to_tournament: str

    def queryset(self, tournament: Tournament) -> models.QuerySet:
        """The tournament's records of this kind, in id order."""
        return self.model._default_manager.filter(**{self.to_tournament: tournament}).order_by(
            "pk")


SECTIONS = (
    Section("regulations", Regulations, "tournament"),
    Section("referee_settings", RefereeSettings, "tournament"),
    Section("tables", Table, "tournament"),
    Section("roles", TournamentRole, "tournament"),
    Section("players", Player, "tournament"),
    Section("teams", Team, "tournament"),
    Section("stages", Stage, "tournament"),
    Section("rounds", Round, "tournament"),
    Section("timetable", TimetableItem, "tournament"),
    Section("pairs", Pair, "tournament"),
    Section("groups", Group, "stage__tournament"),
    Section("matches", Match, "stage__tournament"),
    Section("team_matches", TeamMatch, "round__tournament"),
    Section("parties", Party, "round__tournament"),
    Section("party_desks", PartyDesk, "party__round__tournament"),
    Section("deals", Deal, "party__round__tournament"),
    Section("penalties", Penalty, "party__round__tournament"),
    Section("rulings", Ruling, "party__round__tournament"),
    Section("events", PartyEvent, "party__round__tournament"),
    Section("protocols", Protocol, "party__round__tournament"),
    Section("signatures", Signature, "protocol__party__round__tournament"),
    Section("team_sheets", TeamSheet, "team_match__round__tournament"),
    Section("team_sheet_signatures", TeamSheetSignature, "sheet__team_match__round__tournament"),
)
SECTION_OF: dict[type[models.Model], str] = {s.model: s.name for s in SECTIONS}
ORDER: dict[str, int] = {s.name: n for n, s in enumerate(SECTIONS)}
"""Each section's place in the file's import order (a reference to a later one waits)."""
RETIRED: dict[type[models.Model], frozenset[str]] = {
    RefereeSettings: frozenset({"slow_play_points"}),  # the regulations' udl_slow_play_points
}
"""Fields an older file may carry that this installation no longer keeps (read and dropped)."""
SPREAD: dict[type[models.Model], str] = {Regulations: "game_settings"}
"""A field the file carries as a field per game setting (``spread_keys``), as files carried
them when each was a column: the regulations' game settings."""


def spread_keys(model: type[models.Model], name: str) -> tuple[str, ...]:
    """The game settings the file carries in place of ``model``'s field ``name``, in order,
    each the record's attribute (none: the field travels as itself)."""
    return SETTING_NAMES if SPREAD.get(model) == name else ()


def set_spread(obj: models.Model, values: dict[str, Any]) -> None:
    """Set the game settings a record of the file carries (``spread_keys``; none: nothing to
    do), each checked as declared: RuleError names the one at fault."""
    if values or type(obj) in SPREAD:
        for key, value in validate_game_settings(None, values).items():
            setattr(obj, key, value)


# -- fields ------------------------------------------------------------------------------


def field_kind(field: models.Field) -> str:
    """How a field travels: "tournament" (implicit), "user", "profile" (by the file's
    ``profiles``), "ref", "file" or "value"."""
    if field.is_relation:
        target = field.related_model
        if target is None:
            raise RuntimeError(f"{field.model.__name__}.{field.name} relates to no model")
        if target is Tournament:
            return "tournament"
        if target is Profile:
            return "profile"
        if target is get_user_model():
            return "user"
        if target not in SECTION_OF:
            raise RuntimeError(f"{field.model.__name__}.{field.name} refers to "
                               f"{target.__name__}, which the tournament file does not carry")
        return "ref"
    if isinstance(field, models.FileField):
        return "file"
    return "value"


@functools.cache
def carried_fields(model: type[models.Model]) -> dict[str, models.Field]:
    """The fields a record of ``model`` carries in the file, by name (an ``id`` aside)."""
    left_out = LEFT_OUT_FIELDS.get(model, {})
    fields = {
        f.name: f for f in model._meta.concrete_fields
        if not (f.primary_key and not f.is_relation) and field_kind(f) != "tournament"
        and f.name not in left_out
    }
    fields.update({f.name: f for f in model._meta.many_to_many})
    return fields


def plain_value(value: Any) -> Any:
    """A field's value as JSON: times and dates in ISO 8601, decimals as text."""
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value
