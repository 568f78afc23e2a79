"""Kept for migration 0004, which names this path: the validator lives in the core wing."""

from scoring.core.timezones import validate_time_zone

__all__ = ["validate_time_zone"]
