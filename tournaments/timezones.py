"""Time zones live in ``scoring.core.timezones``; the landed migration ``0003`` names this module's
``validate_time_zone``, so the name stays importable from here."""

from scoring.core.timezones import validate_time_zone

__all__ = ["validate_time_zone"]
