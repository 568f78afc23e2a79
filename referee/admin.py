"""Admin for penalties and the (read-only) party event log."""

from django.contrib import admin

from referee.models import PartyEvent, Penalty


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
