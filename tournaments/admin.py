"""Admin for tournaments, regulations, players, pairs, tables, rounds and parties."""

from django.contrib import admin

from scoring.models import (
    Pair,
    Party,
    Player,
    Regulations,
    Round,
    Table,
    Tournament,
    TournamentRole,
)


class RegulationsInline(admin.StackedInline):
    model = Regulations
    can_delete = False


class RoleInline(admin.TabularInline):
    model = TournamentRole
    extra = 0
    filter_horizontal = ("tables",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "start_date", "format", "rule_set", "status", "public")
    list_filter = ("status", "format", "rule_set")
    search_fields = ("name", "slug", "city")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [RegulationsInline, RoleInline]


@admin.register(Regulations)
class RegulationsAdmin(admin.ModelAdmin):
    list_display = ("tournament", "target", "party_minutes", "fine_points", "fine_mode")


@admin.register(TournamentRole)
class TournamentRoleAdmin(admin.ModelAdmin):
    list_display = ("tournament", "user", "role")
    list_filter = ("role",)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "tournament", "club", "city", "rating", "withdrawn", "disqualified")
    list_filter = ("tournament", "withdrawn", "disqualified")
    search_fields = ("name", "club", "city")


@admin.register(Pair)
class PairAdmin(admin.ModelAdmin):
    list_display = ("__str__", "tournament", "rating", "fixed_table", "formed_in_round",
                    "withdrawn", "disqualified")
    list_filter = ("tournament", "withdrawn", "disqualified")
    list_select_related = ("player1", "player2", "tournament", "fixed_table", "formed_in_round")
    raw_id_fields = ("formed_in_round",)
    search_fields = ("name", "player1__name", "player2__name")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("number", "label", "tournament")
    list_filter = ("tournament",)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "status", "seed", "drawn_at", "published_at",
                    "finished_at")
    list_filter = ("tournament", "status")
    readonly_fields = ("draw_warnings", "drawn_at")


@admin.register(Party)
class PartyAdmin(admin.ModelAdmin):
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
