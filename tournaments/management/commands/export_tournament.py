"""``manage.py export_tournament <slug> --output FILE``: the whole tournament as one JSON file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.models import Tournament
from tournaments.transfer.archive import ArchiveError, export_bytes, summary


class Command(BaseCommand):
    """Write a tournament file that ``import_tournament`` reads on another installation."""

    help = "Write the whole tournament (with signed protocols) to a JSON file."

    def add_arguments(self, parser: CommandParser) -> None:
        """The tournament's slug and the file to write."""
        parser.add_argument("slug", help="the tournament's short name")
        parser.add_argument("--output", "-o", required=True,
                            help="the file to write ('-' for standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        """Write the file and say what it holds."""
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"no tournament with the short name {options['slug']!r}")
        try:
            content = export_bytes(tournament)
        except ArchiveError as err:
            raise CommandError(err.message) from err
        if options["output"] == "-":
            self.stdout.write(content.decode("utf-8"), ending="")
            return
        Path(options["output"]).write_bytes(content)
        self.stdout.write(f"{options['output']}: {len(content)} bytes; {summary(tournament)}")
