"""``manage.py print_round <round id> --output FILE [--blank]``: a round's print for the desk."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.models import PrintJob, Round
from scoring.signoff.printing import render_round, round_items


class Command(BaseCommand):
    """Write one PDF of a round: blank protocols per table, or every signed protocol."""

    help = "Write one PDF of a round: every signed protocol, or blank protocols with --blank."

    def add_arguments(self, parser: CommandParser) -> None:
        """The round id, the output file and the kind of print."""
        parser.add_argument("round_id", type=int)
        parser.add_argument("--output", "-o", required=True, help="the PDF file to write")
        parser.add_argument("--blank", action="store_true",
                            help="blank paper protocols, pre-filled, one per table")

    def handle(self, *args: Any, **options: Any) -> None:
        """Render (in this process, with progress on stderr) and write the PDF."""
        rnd = Round.objects.select_related("tournament").filter(pk=options["round_id"]).first()
        if rnd is None:
            raise CommandError(f"no round with id {options['round_id']}")
        kind = PrintJob.Kind.BLANK if options["blank"] else PrintJob.Kind.SIGNED
        items, skipped = round_items(rnd, kind)
        if not items:
            raise CommandError("nothing to print: no signed protocol in this round yet"
                               if kind == PrintJob.Kind.SIGNED else "the round has no parties")

        def progress(done: int, total: int) -> None:
            if sys.stderr.isatty():
                sys.stderr.write(f"\r{done}/{total}")

        pdf = render_round(rnd, kind, items, progress)
        Path(options["output"]).write_bytes(pdf)
        left_out = f", {skipped} tables not signed yet" if skipped else ""
        self.stdout.write(f"{options['output']}: {len(items)} protocols ({kind}){left_out}, "
                          f"{len(pdf)} bytes")
