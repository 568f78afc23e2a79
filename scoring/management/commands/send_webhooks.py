"""``manage.py send_webhooks [--watch | --drain [--timeout S]]``: send the webhook outbox.

Once (the default): every delivery due now, each subscription's in order. ``--watch`` keeps
sending, asleep until the next retry is due (the sender of a setup without a broker whose web
processes do not send: ``WEBHOOK_SENDER_THREAD=0``). ``--drain`` keeps sending, waiting out the
retries, until nothing is pending (or ``--timeout`` seconds passed: exit status 1). Any number
of senders may run at once: each delivery is claimed before it is attempted.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.webhooks import outbox
from scoring.webhooks.sender import run_sweeps


class Command(BaseCommand):
    """Send the due webhook deliveries: once, until none is pending, or for ever."""

    help = "Send the webhook deliveries that are due (--watch: keep sending; --drain: until " \
           "none is pending)."

    def add_arguments(self, parser: CommandParser) -> None:
        """--watch, --drain and --timeout."""
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument("--watch", action="store_true",
                          help="keep sending until stopped (a sender process)")
        mode.add_argument("--drain", action="store_true",
                          help="keep sending, waiting out retries, until nothing is pending")
        parser.add_argument("--timeout", type=float, default=None,
                            help="with --drain or --watch: stop after so many seconds")

    def handle(self, *args: Any, **options: Any) -> None:
        """Sweep as asked and say what was attempted, delivered and is left."""
        deadline = (time.monotonic() + options["timeout"]) if options["timeout"] else None
        if options["watch"] or options["drain"]:
            done = run_sweeps(time.sleep, until_empty=options["drain"], deadline=deadline)
        else:
            done = outbox.sweep()
        left = outbox.pending_count()
        self.stdout.write(f"attempted {done.attempted}, delivered {done.delivered}, "
                          f"pending {left}")
        if options["drain"] and left:
            raise CommandError(f"{left} deliveries still pending after {options['timeout']} s")
