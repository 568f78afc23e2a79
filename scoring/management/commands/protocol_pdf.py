"""``manage.py protocol_pdf <party id> --output FILE``: a party's protocol for the desk."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.models import PARTY_RELATED, Party
from scoring.party.protocol_lock import current_protocol
from scoring.signoff.services import protocol_pdf


class Command(BaseCommand):
    """Write a party's current signed protocol, or an unsigned draft if not signed yet."""

    help = "Write a party's protocol PDF: the current signed version, else an unsigned draft."

    def add_arguments(self, parser: CommandParser) -> None:
        """The party id and the output file."""
        parser.add_argument("party_id", type=int)
        parser.add_argument("--output", "-o", required=True, help="the PDF file to write")

    def handle(self, *args: Any, **options: Any) -> None:
        """Write the PDF and say which version it is."""
        party = Party.objects.select_related(*PARTY_RELATED).filter(pk=options["party_id"]).first()
        if party is None:
            raise CommandError(f"no party with id {options['party_id']}")
        protocol = current_protocol(party)
        pdf, signed = protocol_pdf(party, protocol)
        Path(options["output"]).write_bytes(pdf)
        what = "unsigned draft"
        if signed and protocol is not None:
            what = f"signed version {protocol.version}"
        self.stdout.write(f"{options['output']}: {what}, {len(pdf)} bytes")
