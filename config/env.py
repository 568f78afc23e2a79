"""Settings read from the environment: booleans and whole numbers."""

import os


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean from the environment ("1", "true", "yes", "on" are true)."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    """Read a whole number from the environment."""
    value = os.environ.get(name, "").strip()
    return int(value) if value else default
