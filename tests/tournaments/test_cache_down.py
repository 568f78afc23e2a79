"""Redis down or hanging: the public pages and the standings API answer 200 from the record."""

from __future__ import annotations

import logging

import pytest
from django.core.cache import cache

from tests.conftest import DEAD_BROKER
from tests.tournaments.test_public_pages import _url, played  # noqa: F401 - the fixture

PUBLIC_PAGES = ("detail", "standings", "current_draw", "hall", "results")


def _redis_cache_at(settings, url: str) -> None:
    settings.CACHES = {"default": {
        "BACKEND": "config.cache.ResilientRedisCache", "LOCATION": url,
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5, "retry_after": 600},
    }}


@pytest.mark.django_db
@pytest.mark.parametrize("redis", ["down", "hanging"])
def test_redis_down_or_hanging_the_public_pages_answer_200(
    redis, client, played, settings, hanging_port, caplog  # noqa: F811 - the fixture
):
    _redis_cache_at(settings, DEAD_BROKER if redis == "down" else
                    f"redis://127.0.0.1:{hanging_port}/0")
    with caplog.at_level(logging.WARNING, logger="config.cache"):
        for name in PUBLIC_PAGES:
            response = client.get(_url(played, name))
            assert response.status_code == 200, name
        response = client.get(f"/api/v1/tournaments/{played.pk}/standings/")
        assert response.status_code == 200
        assert response.json()["lines"]
    warnings = [r for r in caplog.records if r.name == "config.cache"]
    assert len(warnings) == 1  # then the cache is skipped: one timeout, not one per call
    assert "cache unavailable" in warnings[0].getMessage()


def test_an_unreachable_redis_is_a_miss(settings):
    _redis_cache_at(settings, DEAD_BROKER)
    cache.set("k", 1)
    assert cache.get("k", "missing") == "missing"
    assert cache.get_or_set("k", 2) == 2
    assert cache.get_many(["k"]) == {}
    assert cache.add("k", 3) is False
    assert cache.set_many({"a": 1, "b": 2}) == ["a", "b"]
    with pytest.raises(ValueError):
        cache.incr("k")
