"""Settings read from the environment: booleans, whole numbers, the live updates' Redis."""

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


def live_redis(redis_url: str, broker_url: str, connect_timeout: float) -> dict | None:
    """``LIVE_REDIS``, the live updates' fan-out across web nodes (Redis pub/sub): the
    site's ``REDIS_URL``, else a ``redis://`` broker; None (in memory, one process) without.

    Only the connection's timeout is set: a read timeout would end the idle subscription.
    """
    from redis.connection import parse_url

    for url in (redis_url, broker_url):
        if url.startswith(("redis://", "rediss://", "unix://")):
            return {**parse_url(url), "socket_connect_timeout": connect_timeout}
    return None
