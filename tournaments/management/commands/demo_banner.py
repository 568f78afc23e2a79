"""Print the URL of the running site and the demo logins."""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.management.commands.seed_demo import (
    DEMO_PASSWORD,
    DEMO_SLUG,
    KOZEL_NAMES,
    KOZEL_SLUG,
    PLAYER_NAMES,
    UDL_NAMES,
    UDL_SLUG,
)
from tournaments.management.demo_autumn import RATING_SLUG, SEASON_SLUG


class Command(BaseCommand):
    """Print where the demo is served and how to log in."""

    help = "Print the demo URL and logins."

    def add_arguments(self, parser: CommandParser) -> None:
        """The URL the server will answer on."""
        parser.add_argument("--url", default="http://127.0.0.1:8000/")

    def handle(self, *args: Any, **options: Any) -> None:
        """Print the banner."""
        url = options["url"]
        lines = [
            "",
            "=" * 64,
            f"  Domino tournaments is starting at {url}",
            f"  Demo tournament:  {url}t/{DEMO_SLUG}/",
            f"  UDL singles:      {url}t/{UDL_SLUG}/",
            f"  Kozel evening:    {url}t/{KOZEL_SLUG}/",
            f"  Club season:      {url}season/{SEASON_SLUG}/",
            f"  Club rating:      {url}ratings/{RATING_SLUG}/",
            f"  Admin:            {url}admin/  (login: organizer)",
            f"  Demo logins (password for all: {DEMO_PASSWORD}):",
            "    organizer  — the organizer of the demo tournaments (lands on his tournaments)",
            "    referee    — a referee, landing on My tables (also: referee2)",
            "    chief      — the chief referee (My tables: every table)",
            f"    player01 … player{len(PLAYER_NAMES):02d} — a login per player (his next table)",
            f"    udl01 … udl{len(UDL_NAMES):02d}       — the UDL singles players",
            f"    kozel01 … kozel{len(KOZEL_NAMES):02d}   — the Kozel evening's players",
            "=" * 64,
            "",
        ]
        self.stdout.write("\n".join(lines))
