"""A kept database connection the server dropped (a PostgreSQL restart): the next request
reconnects instead of failing (CONN_HEALTH_CHECKS with CONN_MAX_AGE).

Runs only against PostgreSQL (DATABASE_URL), as CI does.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import OperationalError, close_old_connections, connection

from scoring.models import Tournament
from tests.pg import ONLY_ON_POSTGRES, other_connection

pytestmark = [*ONLY_ON_POSTGRES, pytest.mark.django_db(transaction=True)]


def _drop_the_connection() -> int:
    """Terminate this thread's database session from another connection, as a restart does."""
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    with other_connection(autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    return pid


def test_connections_are_kept_and_checked():
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True
    assert settings.DATABASES["default"]["CONN_MAX_AGE"] > 0


@pytest.fixture
def kept_connection(monkeypatch):
    """``kept_connection(checked)``: a fresh connection kept for a minute, health-checked or not."""

    def connect(checked: bool) -> None:
        monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
        monkeypatch.setitem(connection.settings_dict, "CONN_HEALTH_CHECKS", checked)
        connection.close()
        connection.ensure_connection()

    yield connect
    connection.close()  # the next test connects with the settings restored


@pytest.mark.parametrize("checked", [True, False])
def test_the_first_request_after_a_dropped_connection(checked, kept_connection):
    kept_connection(checked)
    old = _drop_the_connection()
    close_old_connections()  # what the start of every request does
    if not checked:  # the reason for the setting: the kept connection is dead
        with pytest.raises(OperationalError):
            Tournament.objects.count()
        return
    assert Tournament.objects.count() == 0
    assert connection.connection.info.backend_pid != old
