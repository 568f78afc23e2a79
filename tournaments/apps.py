from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("tournaments")

    def ready(self) -> None:
        """Warm the season tables whenever a tournament's placings are refreshed."""
        from scoring.ranking.seasons import placings_refreshed
        from tournaments.ranking.season_views import warm_tables

        def warm(sender: object, tournament_id: int, **kwargs: object) -> None:
            """Render the tables of the seasons counting the tournament."""
            warm_tables(tournament_id)

        placings_refreshed.connect(warm, weak=False, dispatch_uid="warm-season-tables")
