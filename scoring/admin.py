"""The admin shows the record read-only: every change goes through the services.

A change made here would skip the event log, the protocol lock and the party's version (so
cached standings would go stale); the organizer's pages, the referee desk and the API make
every change through the services instead.
"""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from scoring.models import (
    Deal,
    IdempotencyKey,
    Pair,
    Party,
    PartyDesk,
    PartyEvent,
    Penalty,
    Player,
    PrintJob,
    Protocol,
    RefereeSettings,
    Regulations,
    Round,
    Ruling,
    Signature,
    Table,
    Tournament,
    TournamentRole,
)


class ReadOnly:
    """No adding, changing or deleting: staff with the view permission see the records."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Nothing is added here."""
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Nothing is changed here."""
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Nothing is deleted here."""
        return False


class RecordAdmin(ReadOnly, admin.ModelAdmin):
    """A read-only list and detail page of one kind of record."""


class ReadOnlyInline(ReadOnly):
    """An inline of a read-only record."""

    extra = 0
    can_delete = False


class RegulationsInline(ReadOnlyInline, admin.StackedInline):
    model = Regulations
    can_delete = False


class RoleInline(ReadOnlyInline, admin.TabularInline):
    model = TournamentRole
    extra = 0
    filter_horizontal = ("tables",)


@admin.register(Tournament)
class TournamentAdmin(RecordAdmin):
    list_display = ("name", "start_date", "format", "rule_set", "status", "public")
    list_filter = ("status", "format", "rule_set")
    search_fields = ("name", "slug", "city")
    inlines = [RegulationsInline, RoleInline]


@admin.register(Regulations)
class RegulationsAdmin(RecordAdmin):
    list_display = ("tournament", "target", "party_minutes", "fine_points", "fine_mode")


@admin.register(TournamentRole)
class TournamentRoleAdmin(RecordAdmin):
    list_display = ("tournament", "user", "role")
    list_filter = ("role",)


@admin.register(Player)
class PlayerAdmin(RecordAdmin):
    list_display = ("name", "tournament", "club", "city", "rating", "withdrawn", "disqualified")
    list_filter = ("tournament", "withdrawn", "disqualified")
    search_fields = ("name", "club", "city")


@admin.register(Pair)
class PairAdmin(RecordAdmin):
    list_display = ("__str__", "tournament", "rating", "fixed_table", "formed_in_round",
                    "withdrawn", "disqualified")
    list_filter = ("tournament", "withdrawn", "disqualified")
    list_select_related = ("player1", "player2", "tournament", "fixed_table", "formed_in_round")
    raw_id_fields = ("formed_in_round",)
    search_fields = ("name", "player1__name", "player2__name")


@admin.register(Table)
class TableAdmin(RecordAdmin):
    list_display = ("number", "label", "tournament")
    list_filter = ("tournament",)


@admin.register(Round)
class RoundAdmin(RecordAdmin):
    list_display = ("tournament", "number", "status", "seed", "drawn_at", "published_at",
                    "finished_at")
    list_filter = ("tournament", "status")
    readonly_fields = ("draw_warnings", "drawn_at")


@admin.register(Party)
class PartyAdmin(RecordAdmin):
    list_display = ("__str__", "status", "winner", "end_reason", "version")
    list_filter = ("round__tournament", "status")
    list_select_related = (
        "round",
        "table",
        "pair_a__player1",
        "pair_a__player2",
        "pair_b__player1",
        "pair_b__player2",
    )


@admin.register(Penalty)
class PenaltyAdmin(RecordAdmin):
    list_display = ("party", "kind", "category", "side", "points", "mode", "created_at")
    list_filter = ("kind", "category")
    raw_id_fields = ("party", "player", "escalated_from")


@admin.register(PartyEvent)
class PartyEventAdmin(RecordAdmin):
    list_display = ("party", "seq", "at", "actor", "kind", "reason")
    list_filter = ("kind",)
    raw_id_fields = ("party",)


@admin.register(Ruling)
class RulingAdmin(RecordAdmin):
    list_display = ("party", "kind", "side", "seat", "choice", "created_by", "created_at")
    list_filter = ("kind",)
    raw_id_fields = ("party", "player", "deal", "penalty")


@admin.register(PartyDesk)
class PartyDeskAdmin(RecordAdmin):
    list_display = ("party", "present_a", "present_b", "no_show_raised_at", "no_show_sides")
    raw_id_fields = ("party",)


@admin.register(RefereeSettings)
class RefereeSettingsAdmin(RecordAdmin):
    list_display = ("tournament", "penalty_preset")


@admin.register(IdempotencyKey)
class IdempotencyKeyAdmin(RecordAdmin):
    list_display = ("user", "key", "status_code", "created_at")
    raw_id_fields = ("user",)


@admin.register(Deal)
class DealAdmin(RecordAdmin):
    list_display = ("party", "number", "outcome", "winner", "points_a", "points_b", "recorded_at")
    list_filter = ("outcome",)
    raw_id_fields = ("party",)


class SignatureInline(ReadOnlyInline, admin.TabularInline):
    model = Signature
    extra = 0
    can_delete = False
    readonly_fields = ("role", "player", "user", "method", "refused", "reason",
                       "content_fingerprint", "signed_at")


@admin.register(Protocol)
class ProtocolAdmin(RecordAdmin):
    """Protocol versions are records: read-only here; the services change them."""

    list_display = ("party", "version", "status", "short_code", "signed_at")
    list_filter = ("status",)
    search_fields = ("short_code", "public_id", "sha256")
    raw_id_fields = ("party",)
    inlines = [SignatureInline]


@admin.register(PrintJob)
class PrintJobAdmin(RecordAdmin):
    list_display = ("round", "kind", "status", "done", "total", "created_at", "expires_at")
    list_filter = ("kind", "status")
    raw_id_fields = ("round",)
