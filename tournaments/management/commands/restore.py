"""``manage.py restore``: a backup archive into a fresh database and this installation's dirs."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.transfer.backup import BackupError, describe, restore_backup


class Command(BaseCommand):
    """Restore a ``manage.py backup`` archive (into an empty database; then migrate)."""

    help = ("Restore a backup archive: the database into the empty database DATABASE_URL "
            "names (same engine; create it, do not migrate it), the stored files into "
            "MEDIA_ROOT and the signing identity into PROTOCOL_SIGNING_DIR. Refuses a "
            "database that is not empty and files that exist with other content.")

    def add_arguments(self, parser: CommandParser) -> None:
        """The archive to restore."""
        parser.add_argument("archive")

    def handle(self, *args: Any, **options: Any) -> None:
        """Restore, then say what came back and what to run next."""
        try:
            manifest = restore_backup(options["archive"])
        except (BackupError, OSError) as exc:
            raise CommandError(str(exc)) from exc
        summary = describe(manifest)
        self.stdout.write(f"restored the backup of {summary['created_at']}: "
                          f"{summary['engine']} database, {summary['media']} stored files, "
                          f"{summary['signing']} signing files. Next: manage.py migrate "
                          "(when this code is newer than the backup)")
