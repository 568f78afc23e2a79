"""``manage.py import_tournament FILE [--slug NEW]``: a tournament file as a new tournament."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.transfer.archive import ArchiveError, import_tournament, summary


class Command(BaseCommand):
    """Import a file written by ``export_tournament`` (or the tournament's export page)."""

    help = ("Import a tournament file as a new tournament (under a new short name if its own "
            "is taken here).")

    def add_arguments(self, parser: CommandParser) -> None:
        """The file, and optionally the short name and an organizer to add."""
        parser.add_argument("file", help="the tournament file ('-' for standard input)")
        parser.add_argument("--slug", help="the short name to give the tournament here")
        parser.add_argument("--organizer", metavar="USERNAME",
                            help="an existing user to make an organizer of the tournament")

    def handle(self, *args: Any, **options: Any) -> None:
        """Import and say under which short name, with what."""
        actor = None
        if options["organizer"]:
            user_model = get_user_model()
            actor = user_model._default_manager.filter(
                **{user_model.USERNAME_FIELD: options["organizer"]}).first()
            if actor is None:
                raise CommandError(f"no user {options['organizer']!r}")
        path = options["file"]
        try:
            content = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as err:
            raise CommandError(f"cannot read {path}: {err}") from err
        try:
            tournament = import_tournament(content, slug=options["slug"], actor=actor)
        except ArchiveError as err:
            raise CommandError(err.message) from err
        self.stdout.write(self.style.SUCCESS(
            f"Imported “{tournament.name}” as {tournament.slug}: {summary(tournament)}"))
