"""Admin for deals, protocol versions (read-only) and round print jobs."""

from django.contrib import admin

from scoring.models import Deal, PrintJob, Protocol, Signature


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ("party", "number", "outcome", "winner", "points_a", "points_b", "recorded_at")
    list_filter = ("outcome",)
    raw_id_fields = ("party",)


class SignatureInline(admin.TabularInline):
    model = Signature
    extra = 0
    can_delete = False
    readonly_fields = ("role", "player", "user", "method", "refused", "reason",
                       "content_fingerprint", "signed_at")

    def has_add_permission(self, request, obj=None) -> bool:  # noqa: ANN001
        return False


@admin.register(Protocol)
class ProtocolAdmin(admin.ModelAdmin):
    """Protocol versions are records: read-only here; the services change them."""

    list_display = ("party", "version", "status", "short_code", "signed_at")
    list_filter = ("status",)
    search_fields = ("short_code", "public_id", "sha256")
    raw_id_fields = ("party",)
    inlines = [SignatureInline]

    def has_change_permission(self, request, obj=None) -> bool:  # noqa: ANN001
        return False

    def has_add_permission(self, request) -> bool:  # noqa: ANN001
        return False


@admin.register(PrintJob)
class PrintJobAdmin(admin.ModelAdmin):
    list_display = ("round", "kind", "status", "done", "total", "created_at", "expires_at")
    list_filter = ("kind", "status")
    raw_id_fields = ("round",)
