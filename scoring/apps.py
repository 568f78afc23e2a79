"""The scoring app, the project's base: every model; its ``ready`` logs the lockouts axes makes."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    """The lowest layer of the project's apps (models, services, protocols)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = _("scoring")

    def ready(self) -> None:
        """Connect the lockout log to django-axes' signal."""
        from scoring.people.lockouts import connect_axes

        connect_axes()
