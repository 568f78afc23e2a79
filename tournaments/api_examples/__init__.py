"""Recorded examples of the API: one real request and response per operation of the schema.

``record()`` runs a scenario through the API in-process (a tournament from registration to a
closed round, a signed protocol, prints, webhooks, referees, an import, a UDL match and a few
refusals) and returns, by operation id, the request body and the response each operation
gave. ``manage.py api_examples --write`` stores them in ``docs/openapi/<version>-examples.json``;
the schema's postprocessing hook (``config.api_schema.attach_examples``) shows them.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings
from django.test.utils import override_settings
from django.utils import translation

from tournaments.api_examples.party import run
from tournaments.api_examples.recorder import (
    HOST,
    Recorder,
    repeatable,
    schema_operations,
    webhook_receiver,
)
from tournaments.api_examples.tournament import Scene

GENERATED_BY = "python manage.py api_examples --write"
ABOUT = (
    "Real requests and responses of a scenario run through the API in a fresh database "
    "(tournaments.api_examples). Time is a fake clock; random values (tokens, secrets, "
    "protocol ids, hashes of signed files) and measured durations are stable stand-ins; the "
    "webhook receiver's local address is written as " + "https://hooks.example.org/domino."
)


def examples_path(version: str = "v1") -> Path:
    """Where the examples of an API version are stored."""
    return Path(settings.API_EXAMPLES_DIR) / f"{version}-examples.json"


def _schema(version: str) -> dict[str, Any]:
    """The version's OpenAPI document, as served."""
    from rest_framework.test import APIClient

    response = APIClient(HTTP_HOST=HOST).get(f"/api/{version}/schema/?format=json")
    return json.loads(response.content)


def record(version: str = "v1") -> dict[str, Any]:
    """Run the scenario against the current (empty) database; the examples document.

    Needs a database with nothing in it (a test database): the ids in the examples are the
    ones a fresh database gives. Tasks run in-process; files go to a temporary folder.
    """
    from celery import current_app as celery_app

    eager = celery_app.conf.task_always_eager
    with tempfile.TemporaryDirectory() as tmp, override_settings(
        ALLOWED_HOSTS=[HOST],
        LANGUAGE_CODE="en",
        TIME_ZONE="Europe/Moscow",
        MEDIA_ROOT=Path(tmp) / "media",
        PROTOCOL_SIGNING_DIR=Path(tmp) / "signing",
        PROTOCOL_SIGNING_KEY="",
        PROTOCOL_SIGNING_CERT="",
        SITE_URL=f"https://{HOST}",
        WEBHOOK_ALLOW_PRIVATE_NETWORKS=True,
        WEBHOOK_SENDER_THREAD=False,  # the scenario sends the outbox itself, at one moment
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",  # the entries' mails
    ), translation.override("en"), webhook_receiver() as receiver_url:
        celery_app.conf.task_always_eager = True
        try:
            recorder = Recorder(schema_operations(_schema(version)), receiver_url=receiver_url)
            with repeatable(recorder.clock):
                operations = run(Scene(recorder), receiver_url)
        finally:
            celery_app.conf.task_always_eager = eager
    return {"version": version, "generated_by": GENERATED_BY, "about": ABOUT,
            "operations": operations}


def dumps(document: dict[str, Any]) -> str:
    """The examples document as written to its file."""
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


__all__ = ["ABOUT", "GENERATED_BY", "dumps", "examples_path", "record"]
