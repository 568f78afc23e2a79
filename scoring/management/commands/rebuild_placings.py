"""``manage.py rebuild_placings [--tournament SLUG]``: rewrite the stored season placings."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.models import Season, Tournament, TournamentPlacing
from scoring.ranking.seasons import refresh_placings


class Command(BaseCommand):
    """Recompute the placings the season tables read, from each tournament's standings."""

    help = (
        "Recompute the stored placings of every tournament a season counts "
        "(or of one --tournament); placings of tournaments no season counts are deleted."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        """An optional tournament slug."""
        parser.add_argument("--tournament", "-t", help="the slug of one tournament")

    def handle(self, *args: Any, **options: Any) -> None:
        """Rebuild, tournament by tournament, and say how many lines each has."""
        counted = Season.tournaments.through.objects.values("tournament_id")
        tournaments = Tournament.objects.select_related("regulations").order_by("id")
        if options["tournament"]:
            tournaments = tournaments.filter(slug=options["tournament"])
            if not tournaments.exists():
                raise CommandError(f"No tournament {options['tournament']!r}.")
        else:
            TournamentPlacing.objects.exclude(tournament_id__in=counted).delete()
        total = 0
        for tournament in tournaments.filter(pk__in=counted):
            count = refresh_placings(tournament)
            total += count
            self.stdout.write(f"{tournament.slug}: {count} placings")
        self.stdout.write(self.style.SUCCESS(f"Stored {total} placings."))
