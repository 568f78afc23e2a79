"""Benchmark of protocols through Django and the database: building a protocol from a party's
records, the referee's countersignature (build + render + sign + store) for a round of 250
tables, and the round print task (blank and signed) for those 250 tables. The render + sign
of the same protocols alone is measured in the same run (``protocol_render_sign_db_run_ms``).

Run from the repository root: ``.venv/bin/python bench/bench_protocols_db.py [--tables N]``.
Uses a temporary SQLite database unless DATABASE_URL is set, and temporary directories for the
signing key and the stored files. Prints ``BENCH <name> <value> <unit>`` lines.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def report(name: str, value: float, unit: str) -> None:
    """Print one BENCH line."""
    print(f"BENCH {name} {value:.2f} {unit}", flush=True)


def setup_django(tmp: Path) -> None:
    """Point settings at temporary storage, configure Django as in production (``DEBUG`` off:
    no query log kept per statement) and migrate the database."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", "bench-" + "0123456789abcdef" * 4)
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1")
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ["MEDIA_ROOT"] = str(tmp / "media")
    os.environ["PROTOCOL_SIGNING_DIR"] = str(tmp / "signing")
    for name in ("PROTOCOL_SIGNING_KEY", "PROTOCOL_SIGNING_CERT"):
        os.environ.pop(name, None)
    if not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = f"sqlite:///{tmp / 'bench.sqlite3'}"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)


def build_round(tables: int, seed: int = 5) -> tuple[Any, list[Any], Any]:
    """A finished round of ``tables`` parties, ~25 deals and two penalties each (bulk)."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from scoring.models import Deal, Pair, Party, Penalty, Player, Round, Table, TournamentRole
    from tournaments.setup.services import create_tournament

    rng = random.Random(seed)
    stamp = time.time_ns()
    referee = get_user_model().objects.create_user(f"bench-ref-{stamp}", first_name="Роман",
                                                   last_name="Судьин")
    tournament = create_tournament(name="Кубок города по спортивному домино",
                                   slug=f"bench-protocols-{stamp}")
    TournamentRole.objects.create(tournament=tournament, user=referee, role="chief")
    first = ["Иван", "Пётр", "Ёлкин", "Анна", "José", "Jürgen", "Łukasz", "Zoë", "Фёдор"]
    last = ["Петров", "Щукин", "Müller", "Кузнецова", "Øster", "Çelik", "Жуков", "Dvořák"]
    players = Player.objects.bulk_create(
        Player(tournament=tournament, name=f"{rng.choice(first)} {rng.choice(last)} {k}")
        for k in range(4 * tables))
    pairs = Pair.objects.bulk_create(
        Pair(tournament=tournament, player1=players[2 * k], player2=players[2 * k + 1])
        for k in range(2 * tables))
    table_rows = Table.objects.bulk_create(
        Table(tournament=tournament, number=k + 1) for k in range(tables))
    rnd = Round.objects.create(tournament=tournament, number=1, status="finished")
    now = timezone.now()
    parties = Party.objects.bulk_create(
        Party(round=rnd, table=table_rows[k], pair_a=pairs[2 * k], pair_b=pairs[2 * k + 1],
              status="finished", started_at=now - timedelta(minutes=40), finished_at=now,
              end_reason="target", winner="a")
        for k in range(tables))
    deals, penalties = [], []
    for party in parties:
        for number in range(1, 26):
            points = rng.randrange(2, 40) if number < 25 else 60
            side = "a" if number == 25 or rng.random() < 0.6 else "b"
            deals.append(Deal(party=party, number=number, outcome="domino", winner=side,
                              points_a=points if side == "a" else 0,
                              points_b=points if side == "b" else 0))
        penalties.append(Penalty(party=party, kind="warning", category="talking", side="b",
                                 reason="Разговоры во время кона"))
        penalties.append(Penalty(party=party, kind="fine", category="other", side="b",
                                 points=25, mode="deduct", reason="Опоздание"))
    Deal.objects.bulk_create(deals)
    Penalty.objects.bulk_create(penalties)
    return rnd, [p.pk for p in parties], referee


def main() -> int:
    """Build a round, countersign every protocol, print the round; report the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=250)
    args, _unknown = parser.parse_known_args()  # run_all.py passes its arguments to all
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(Path(tmp))
        from scoring.models import PARTY_RELATED, Party, PrintJob, Protocol, Signature
        from scoring.party.protocol_lock import open_protocol
        from scoring.protocols import protocol_data_from_dict, render_protocol
        from scoring.signoff.content import (
            build_protocol_data,
            content_fingerprint,
            party_players,
        )
        from scoring.signoff.identity import installation_signer
        from scoring.signoff.printing import run_print_job
        from scoring.signoff.services import countersign

        rnd, party_ids, referee = build_round(args.tables)
        installation_signer()  # the one-time key load (and identity creation)
        builds, signatures = [], []
        for party in Party.objects.filter(pk__in=party_ids).select_related(*PARTY_RELATED):
            protocol = open_protocol(party)
            start = time.perf_counter()
            data = build_protocol_data(party, protocol)
            builds.append((time.perf_counter() - start) * 1000)
            fingerprint = content_fingerprint(data)
            signatures += [Signature(protocol=protocol, role="player", player=player,
                                     method="pin", content_fingerprint=fingerprint)
                           for _seat, player in party_players(party)]
        Signature.objects.bulk_create(signatures)
        report("protocol_build_db_ms", statistics.median(builds), "ms")

        # each countersignature, then the same protocol's render + sign alone, one after the
        # other: the two figures see the same machine (a shared machine's load drifts)
        signer, timings, renders, total = installation_signer(), [], [], 0.0
        for party_id in party_ids:
            start = time.perf_counter()
            countersign(party_id, actor=referee)
            timings.append((time.perf_counter() - start) * 1000)
            total += timings[-1] / 1000
            data = protocol_data_from_dict(Protocol.objects.get(
                party_id=party_id, status="signed").data)
            start = time.perf_counter()
            signer.sign(render_protocol(data), reason="bench")
            renders.append((time.perf_counter() - start) * 1000)
        report("protocol_countersign_db_ms", statistics.median(timings), "ms")
        report("protocol_render_sign_db_run_ms", statistics.median(renders), "ms")
        report(f"protocols_countersigned_{args.tables}_db_s", total, "s")

        for kind in ("blank", "signed"):
            job = PrintJob.objects.create(round=rnd, kind=kind, cache_key="bench",
                                          total=len(party_ids),
                                          expires_at=rnd.finished_at or rnd.tournament.created_at)
            start = time.perf_counter()
            job = run_print_job(job.pk)
            report(f"print_{kind}_round_{args.tables}_db_s", time.perf_counter() - start, "s")
            assert job is not None and job.status == "done", job and job.error
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    report("protocols_db_peak_mb", peak_kb / 1024, "MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
