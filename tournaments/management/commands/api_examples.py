"""Record the API's examples in a fresh test database: print, write or check the file."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection


class Command(BaseCommand):
    """``api_examples [--write | --check]``: one real request and response per operation."""

    help = (
        "Run the examples scenario through the API in a throwaway test database and print "
        "the examples (--write: store them in docs/openapi/<version>-examples.json; --check: "
        "fail when the stored examples differ)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        """``--write``, ``--check`` and ``--api-version``."""
        group = parser.add_mutually_exclusive_group()
        group.add_argument("--write", action="store_true", help="Write the examples file.")
        group.add_argument("--check", action="store_true",
                           help="Exit with an error when the examples file is not up to date.")
        parser.add_argument("--api-version", default="v1")

    def handle(self, *args: Any, **options: Any) -> None:
        """Create the test database, record, and print, write or compare the examples."""
        from tournaments.api_examples import dumps, examples_path, record

        old_name = connection.creation.create_test_db(
            verbosity=0, autoclobber=True, serialize=False
        )
        try:
            text = dumps(record(options["api_version"]))
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
        path = examples_path(options["api_version"])
        if options["write"]:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            self.stdout.write(f"Wrote {path}")
        elif options["check"]:
            stored = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
            if stored != json.loads(text):  # as data: databases order JSON keys differently
                raise CommandError(
                    f"{path} is not up to date: run manage.py api_examples --write"
                )
            self.stdout.write(f"{path} is up to date")
        else:
            sys.stdout.write(text)
