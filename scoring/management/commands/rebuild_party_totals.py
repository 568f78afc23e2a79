"""``manage.py rebuild_party_totals [--tournament SLUG]``: store every finished party's totals."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.models import Tournament
from scoring.totals.stored import rebuild_totals


class Command(BaseCommand):
    """Recompute the stored totals the standings read, from the deals and fines."""

    help = "Recompute the stored totals of every finished party (or of one --tournament)."

    def add_arguments(self, parser: CommandParser) -> None:
        """An optional tournament slug."""
        parser.add_argument("--tournament", "-t", help="the slug of one tournament")

    def handle(self, *args: Any, **options: Any) -> None:
        """Rebuild, tournament by tournament, and say how many parties each had."""
        tournaments = Tournament.objects.select_related("regulations").order_by("id")
        if options["tournament"]:
            tournaments = tournaments.filter(slug=options["tournament"])
            if not tournaments.exists():
                raise CommandError(f"No tournament {options['tournament']!r}.")
        total = 0
        for tournament in tournaments:
            count = rebuild_totals(tournament)
            total += count
            self.stdout.write(f"{tournament.slug}: {count} parties")
        self.stdout.write(self.style.SUCCESS(f"Stored the totals of {total} finished parties."))
