"""Kept for migration 0004, which names this path: the models live in ``tournament``."""

from scoring.models.tournament import new_access_token

__all__ = ["new_access_token"]
