"""``manage.py backup``: the database, stored files and signing identity in one archive."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.transfer.backup import BackupError, describe, make_backup


class Command(BaseCommand):
    """Write a backup archive (it holds the signing key: keep it secret)."""

    help = ("Back up the installation into one .tar.gz: a pg_dump (custom format) of the "
            "PostgreSQL database or a copy of the SQLite file, the stored files (MEDIA_ROOT: "
            "signed PDFs, round prints) and the signing identity (key and certificates). "
            "The archive holds the private signing key: store it as a secret.")

    def add_arguments(self, parser: CommandParser) -> None:
        """``--output`` (default ``backup-<UTC time>.tar.gz`` here)."""
        parser.add_argument("-o", "--output", help="the archive to write (a new file)")

    def handle(self, *args: Any, **options: Any) -> None:
        """Write the archive and say what it holds."""
        stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
        target = options["output"] or f"backup-{stamp}.tar.gz"
        try:
            manifest = make_backup(target)
        except (BackupError, OSError) as exc:
            raise CommandError(str(exc)) from exc
        summary = describe(manifest)
        self.stdout.write(f"backup written: {target} ({summary['engine']} database, "
                          f"{summary['media']} stored files, {summary['signing']} signing "
                          "files) — it holds the signing key: keep it secret")
