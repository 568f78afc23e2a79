"""``manage.py recompute_ratings [--list SLUG]``: recompute rating lists from the results."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.models import RatingList
from scoring.ranking.rating_runs import recompute_rating_list


class Command(BaseCommand):
    """Recompute every rating list (or one --list) from scratch from the stored results."""

    help = "Recompute every rating list (or one --list) from scratch from the stored results."

    def add_arguments(self, parser: CommandParser) -> None:
        """An optional list slug."""
        parser.add_argument("--list", "-l", dest="slug", help="the slug of one rating list")

    def handle(self, *args: Any, **options: Any) -> None:
        """Recompute list by list and say how many rows each has."""
        lists = RatingList.objects.order_by("id")
        if options["slug"]:
            lists = lists.filter(slug=options["slug"])
            if not lists.exists():
                raise CommandError(f"No rating list {options['slug']!r}.")
        for rating_list in lists:
            count = recompute_rating_list(rating_list.pk)
            self.stdout.write(f"{rating_list.slug}: {count} entries")
