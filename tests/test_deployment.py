"""Settings: production settings pass Django's deploy checks; defaults need no services."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DEBUG")}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env={**clean, **env},
        capture_output=True, text=True, timeout=120,
    )


@pytest.mark.slow
def test_check_deploy_clean_with_production_settings():
    result = _manage(
        "check", "--deploy", "--fail-level", "WARNING",
        DEBUG="0", SECRET_KEY="x" * 20 + "a-real-secret-key-for-production-use-0123456789",
        ALLOWED_HOSTS="domino.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_secret_key():
    result = _manage("check", DEBUG="0", SECRET_KEY="")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_embedded_defaults_use_sqlite_and_eager_celery():
    code = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE','config.settings');"
        "django.setup(); from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER)"
    )
    clean = {
        k: v for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL")
    }
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean,
                         capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["django.db.backends.sqlite3", "True"], out.stderr


@pytest.mark.slow
@pytest.mark.parametrize("url", ["postgres://postgres@127.0.0.1:5432/x"])
def test_database_url_selects_postgresql(url):
    code = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE','config.settings');"
        "django.setup(); from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url, "CELERY_BROKER_URL": "redis://127.0.0.1:6379/9"},
        capture_output=True, text=True, timeout=60,
    )
    assert out.stdout.split() == ["django.db.backends.postgresql", "False"], out.stderr
