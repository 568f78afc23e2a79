"""PostgreSQL-only tests: their marks, and a second connection to the test database."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.db import connection

ONLY_ON_POSTGRES = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="needs PostgreSQL (DATABASE_URL); CI sets it",
    ),
]
"""The marks of a test that runs only against PostgreSQL (DATABASE_URL), as CI does."""


def other_connection(**options: Any) -> psycopg.Connection:
    """A connection of its own to the test database (another process, as it were)."""
    db = connection.settings_dict
    return psycopg.connect(
        host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432, user=db["USER"],
        password=db["PASSWORD"] or None, dbname=db["NAME"], **options,
    )


def database_url() -> str:
    """The test database's address, for the processes a test starts (web nodes, workers)."""
    db = connection.settings_dict
    return (f"postgres://{db['USER']}:{db.get('PASSWORD') or ''}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}/{db['NAME']}")
