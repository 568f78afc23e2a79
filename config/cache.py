"""The shared cache on Redis that degrades to a miss: Redis down or hanging never fails a page."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

REDIS_ERRORS = (RedisConnectionError, RedisTimeoutError, OSError)
"""What a cache call raises when Redis is down, refuses or does not answer in time."""

T = TypeVar("T")


class ResilientRedisCache(RedisCache):
    """Django's Redis cache, but an unreachable Redis is a cache miss, logged.

    Reads answer the default (``get_many`` nothing), writes and deletes do nothing, ``incr``
    raises ``ValueError`` as for a missing key. After a failure the cache is skipped for
    ``OPTIONS["retry_after"]`` seconds (5 by default), so a hanging Redis costs a process one
    socket timeout per that period, not one per call. Give short ``socket_connect_timeout``
    and ``socket_timeout`` in ``OPTIONS`` (the settings do).
    """

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS") or {})
        self.retry_after = float(options.pop("retry_after", 5.0))
        super().__init__(server, {**params, "OPTIONS": options})
        self._down_until = 0.0

    def _safely(self, call: Callable[[], T], fallback: T, what: str) -> T:
        """Run one cache call; the fallback while Redis is unreachable."""
        if time.monotonic() < self._down_until:
            return fallback
        try:
            return call()
        except REDIS_ERRORS as exc:
            self._down_until = time.monotonic() + self.retry_after
            logger.warning("cache unavailable (%s), answering a miss for %.0f s: %s",
                           what, self.retry_after, exc)
            return fallback

    def add(self, key: Any, value: Any, timeout: float | None = DEFAULT_TIMEOUT,
            version: int | None = None) -> bool:
        """Add unless present (False while Redis is unreachable)."""
        return self._safely(lambda: super(ResilientRedisCache, self).add(
            key, value, timeout, version), False, "add")

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        """The cached value, or ``default`` (also while Redis is unreachable)."""
        return self._safely(lambda: super(ResilientRedisCache, self).get(
            key, default, version), default, "get")

    def set(self, key: Any, value: Any, timeout: float | None = DEFAULT_TIMEOUT,
            version: int | None = None) -> None:
        """Store a value (nothing while Redis is unreachable)."""
        self._safely(lambda: super(ResilientRedisCache, self).set(
            key, value, timeout, version), None, "set")

    def touch(self, key: Any, timeout: float | None = DEFAULT_TIMEOUT,
              version: int | None = None) -> bool:
        """Renew a key's expiry (False while Redis is unreachable)."""
        return self._safely(lambda: super(ResilientRedisCache, self).touch(
            key, timeout, version), False, "touch")

    def delete(self, key: Any, version: int | None = None) -> bool:
        """Delete a key (False while Redis is unreachable)."""
        return self._safely(lambda: super(ResilientRedisCache, self).delete(
            key, version), False, "delete")

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        """The cached values found ({} while Redis is unreachable)."""
        return self._safely(lambda: super(ResilientRedisCache, self).get_many(
            keys, version), {}, "get_many")

    def has_key(self, key: Any, version: int | None = None) -> bool:
        """Whether the key is cached (False while Redis is unreachable)."""
        return self._safely(lambda: super(ResilientRedisCache, self).has_key(
            key, version), False, "has_key")

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        """Add to a counter; while Redis is unreachable the key is missing (``ValueError``)."""
        found: int | None = self._safely(lambda: super(ResilientRedisCache, self).incr(
            key, delta, version), None, "incr")
        if found is None:
            raise ValueError(f"Key '{key}' not found (the cache is unavailable)")
        return found

    def set_many(self, data: dict[Any, Any], timeout: float | None = DEFAULT_TIMEOUT,
                 version: int | None = None) -> list[Any]:
        """Store several values; every key is reported as not stored while Redis is unreachable."""
        return self._safely(lambda: super(ResilientRedisCache, self).set_many(
            data, timeout, version), list(data), "set_many")

    def delete_many(self, keys: Iterable[Any], version: int | None = None) -> None:
        """Delete several keys (nothing while Redis is unreachable)."""
        self._safely(lambda: super(ResilientRedisCache, self).delete_many(
            keys, version), None, "delete_many")

    def ping(self) -> None:
        """Ask Redis directly, skip period or not; raises while it is unreachable (health)."""
        self._cache.get_client(None, write=True).ping()

    # django-stubs give RedisCache no clear() of its own, so BaseCache's (None) stands for it;
    # Django's RedisCache.clear returns its client's bool, which is called here directly.
    def clear(self) -> bool:  # type: ignore[override]
        """Empty the cache (False while Redis is unreachable)."""
        return self._safely(lambda: self._cache.clear(), False, "clear")
