"""Admin for deals."""

from django.contrib import admin

from scoring.models import Deal


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ("party", "number", "outcome", "winner", "points_a", "points_b", "recorded_at")
    list_filter = ("outcome",)
    raw_id_fields = ("party",)
