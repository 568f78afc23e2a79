"""The record of every tournament: tournaments, entrants, rounds, parties and what happened in them.

Every model of the project lives here (the lowest Django layer); tables keep the names of the
apps they were first created in.
"""

from .access import IssuedAccount, ReadOnlyToken
from .checkin import CheckIn, CheckInWindow
from .deals import MAX_DEAL_POINTS, Deal
from .entrants import Pair, Player, Table
from .entries import MAIL_KINDS, Entry, EntrySettings
from .lockouts import Lockout
from .party import PARTY_RELATED, Party, Round
from .people import Profile, ProfileMerge
from .protocols import (
    PrintJob,
    Protocol,
    Signature,
    SigningPin,
    print_upload_to,
    protocol_upload_to,
)
from .ratings import RatingEntry, RatingList
from .referee import (
    SIDE_CHOICES,
    AppendOnlyError,
    IdempotencyKey,
    PartyDesk,
    PartyEvent,
    Penalty,
    RefereeRecord,
    RefereeSettings,
    Ruling,
)
from .regulations import GAME_SETTINGS, SEATING_SETTINGS, Regulations
from .seasons import Season, TournamentPlacing
from .stages import Group, Match, Stage
from .team_sheets import TeamSheet, TeamSheetSignature
from .teams import BOARDS, Team, TeamMatch
from .timetable import TimetableItem
from .totals import PartyTotals
from .tournament import Tournament, TournamentRole, new_access_token
from .webhooks import (
    WEBHOOK_EVENTS,
    WebhookDelivery,
    WebhookSubscription,
    new_webhook_secret,
)
from .who import side_and_seat, who

__all__ = [
    "MAIL_KINDS",
    "Entry",
    "EntrySettings",
    "BOARDS",
    "Team",
    "TeamMatch",
    "TeamSheet",
    "TeamSheetSignature",
    "TimetableItem",
    "GAME_SETTINGS",
    "SEATING_SETTINGS",
    "MAX_DEAL_POINTS",
    "PARTY_RELATED",
    "SIDE_CHOICES",
    "WEBHOOK_EVENTS",
    "AppendOnlyError",
    "CheckIn",
    "CheckInWindow",
    "Deal",
    "IdempotencyKey",
    "Group",
    "Lockout",
    "Match",
    "Pair",
    "Party",
    "PartyDesk",
    "PartyEvent",
    "PartyTotals",
    "Penalty",
    "Player",
    "PrintJob",
    "Profile",
    "ProfileMerge",
    "RatingEntry",
    "RatingList",
    "Protocol",
    "RefereeRecord",
    "RefereeSettings",
    "Regulations",
    "Round",
    "Ruling",
    "Season",
    "TournamentPlacing",
    "Signature",
    "Stage",
    "SigningPin",
    "IssuedAccount",
    "ReadOnlyToken",
    "Table",
    "Tournament",
    "TournamentRole",
    "WebhookDelivery",
    "WebhookSubscription",
    "new_access_token",
    "side_and_seat",
    "who",
    "new_webhook_secret",
    "print_upload_to",
    "protocol_upload_to",
]
