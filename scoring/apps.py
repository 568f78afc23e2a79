"""The scoring app, the project's base: every model; its ``ready`` logs the lockouts axes makes,
has a web process without a broker start its webhook sender, and moves a tournament's entrants
version with its entrants' changes."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    """The lowest layer of the project's apps (models, services, protocols)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = _("scoring")

    def ready(self) -> None:
        """Connect the lockout log to django-axes' signal, the webhook sender to the first
        request, the entrants version to the entrants' changes."""
        from django.core.signals import request_started

        from scoring import live, roster
        from scoring.people.lockouts import connect_axes
        from scoring.webhooks.sender import start_with_server

        connect_axes()
        roster.connect()
        roster.entrants_moved.connect(live.entrants_moved, dispatch_uid="live-entrants")
        request_started.connect(start_with_server, dispatch_uid="webhook-sender")
