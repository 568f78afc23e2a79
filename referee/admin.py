"""Admin for penalties, rulings, party desks, referee settings and the (read-only) event log."""

from django.contrib import admin

from scoring.models import IdempotencyKey, PartyDesk, PartyEvent, Penalty, RefereeSettings, Ruling


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    list_display = ("party", "kind", "category", "side", "points", "mode", "created_at")
    list_filter = ("kind", "category")
    raw_id_fields = ("party", "player", "escalated_from")


@admin.register(PartyEvent)
class PartyEventAdmin(admin.ModelAdmin):
    list_display = ("party", "seq", "at", "actor", "kind", "reason")
    list_filter = ("kind",)
    raw_id_fields = ("party",)

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Ruling)
class RulingAdmin(admin.ModelAdmin):
    list_display = ("party", "kind", "side", "seat", "choice", "created_by", "created_at")
    list_filter = ("kind",)
    raw_id_fields = ("party", "player", "deal", "penalty")


@admin.register(PartyDesk)
class PartyDeskAdmin(admin.ModelAdmin):
    list_display = ("party", "present_a", "present_b", "no_show_raised_at", "no_show_sides")
    raw_id_fields = ("party",)


@admin.register(RefereeSettings)
class RefereeSettingsAdmin(admin.ModelAdmin):
    list_display = ("tournament", "penalty_preset", "slow_play_points")


@admin.register(IdempotencyKey)
class IdempotencyKeyAdmin(admin.ModelAdmin):
    list_display = ("user", "key", "status_code", "created_at")
    raw_id_fields = ("user",)
