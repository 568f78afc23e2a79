"""Benchmark of a championship round on several nodes: a web node killed mid-round loses nothing.

Seats 5,000 players of an individual tournament (1,250 tables) through the services (the
players and tables inserted in bulk, then the round created, drawn, published and started),
then starts what a deployment runs (README, "Deploying"): three web nodes (gunicorn with
``uvicorn_worker.UvicornWorker``, ``config.asgi``, each on its own loopback port), two Celery
workers and one beat, on one PostgreSQL database and one Redis. A load generator in this
process (``champ_devices.py``: one device per table, loopback only, bounded in count and time)
plays the round: every table's device sends a deal every ``--deal-seconds`` on average for
``--seconds``, each with its own Idempotency-Key, round-robin across the three nodes, and sends
it again with the same key to the next node after a connection error, a 5xx, a 409 or a 429.
At 40 % of the round one web node is killed (SIGKILL, its master and its workers, as a machine
that dies) and started again on its port. Then the database is counted:

- ``champ_round_deals_lost``: deals answered 2xx but absent from the database (target 0);
- ``champ_round_deals_duplicated``: deals stored more than once for one key (target 0);
- ``champ_node_kill_in_flight``: requests under way to the killed node at the kill;
- ``champ_node_kill_5xx``: what the clients got as a failure: 5xx answers of any node during the
  round, plus every request sent that got no answer (cut by the kill: a load balancer answers
  those with a 502). Connections refused by the dead node's port afterwards are not counted
  (a load balancer sends them to another node); they are printed as "refused". Target: no
  more than the requests in flight at the kill (the devices retry with their keys);
- ``champ_deal_p95_ms``: the 95th percentile of the deal requests' answers (every node, the
  kill included); ``champ_deal_retried_p95_ms``: a deal's first send to its 2xx, retries in;
- ``champ_deals_per_s``: the deals answered per second of the round.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/h_champ \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/4 REDIS_URL=redis://127.0.0.1:6379/5 \\
        .venv/bin/python bench/bench_champ_round.py [--quick]

Without DATABASE_URL (PostgreSQL) it prints nothing and exits 0: several nodes need a shared
database; without CELERY_BROKER_URL/REDIS_URL it uses Redis on 127.0.0.1:6379, databases 4
and 5. ``--quick``: 200 players (50 tables), 20 s (``tests/test_champ_round.py`` runs it).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from champ_devices import Devices, Tally, killed, mark_kill  # noqa: E402 - beside this script
from hall import (  # noqa: E402
    ROOT,
    bench,
    ensure_postgres_database,
    note,
    percentile,
    server_env,
    start_gunicorn,
    stop,
)
from processes import workers_of  # noqa: E402

KILL_AT = 0.4  # the share of the round after which a node is killed


def seat_field(players: int) -> tuple[str, list[int], int]:
    """An individual tournament of ``players`` players at players/4 tables, its first round
    drawn, published and started through the services; a chief's token, the parties, its id."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from scoring.models import Party, Player, Table, TournamentRole
    from tournaments.rounds.draw_services import generate_draw
    from tournaments.rounds.services import create_round, publish_round, start_round
    from tournaments.setup.services import create_tournament

    stamp = uuid.uuid4().hex[:8]
    tournament = create_tournament(name=f"Championship {stamp}", slug=f"champ-{stamp}",
                                   format="individual")
    regulations = tournament.regulations
    regulations.target, regulations.party_minutes = 100000, 180  # nobody finishes meanwhile
    regulations.save()
    chief = get_user_model().objects.create_user(f"champ-chief-{stamp}")
    TournamentRole.objects.create(tournament=tournament, user=chief, role="chief")
    Player.objects.bulk_create(Player(tournament=tournament, name=f"Игрок {n}",
                                      rating=1500 + n % 400) for n in range(players))
    Table.objects.bulk_create(Table(tournament=tournament, number=n + 1)
                              for n in range(players // 4))
    rnd = create_round(tournament.pk, actor=chief)
    generate_draw(rnd.pk, seed=1, actor=chief)
    publish_round(rnd.pk, actor=chief)
    start_round(rnd.pk, actor=chief)
    ids = list(Party.objects.filter(round=rnd, pair_b__isnull=False).order_by("table__number")
               .values_list("pk", flat=True))
    return Token.objects.create(user=chief).key, ids, tournament.pk


def _alive(pid: int) -> bool:
    """Whether a process still runs (a zombie has closed its sockets: not alive)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class Cluster:
    """Three web nodes, two workers and a beat of one deployment, on this machine."""

    def __init__(self, env: dict[str, str], folder: Path, node_workers: int) -> None:
        self.env, self.folder, self.node_workers = env, folder, node_workers
        self.nodes: list[subprocess.Popen] = []
        self.ports: list[int] = []
        self.celery: list[subprocess.Popen] = []
        self.logs: list[Any] = []

    def _node(self, port: int | None = None) -> tuple[subprocess.Popen, int]:
        return start_gunicorn(self.env, False, self.folder, "asgi",
                              workers=self.node_workers, port=port)

    def start(self, nodes: int = 3, workers: int = 2) -> None:
        """Start the web nodes (once each answers), the workers and the beat."""
        celery = [sys.executable, "-m", "celery", "-A", "config"]
        commands = [[*celery, "worker", "--loglevel=warning", "--without-gossip",
                     "--without-mingle", "--without-heartbeat", "--concurrency", "1",
                     "-n", f"champ{n}-{uuid.uuid4().hex[:6]}@%h"] for n in range(workers)]
        commands.append([*celery, "beat", "--loglevel=warning",
                         "-s", str(self.folder / "beat-schedule")])
        for n, command in enumerate(commands):
            log = open(self.folder / f"celery-{n}.log", "w")  # noqa: SIM115 - kept open
            self.logs.append(log)
            self.celery.append(subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log,
                                                stderr=subprocess.STDOUT))
        with ThreadPoolExecutor(nodes) as pool:  # side by side, as machines boot
            started = list(pool.map(lambda _n: self._node(), range(nodes)))
        self.nodes = [proc for proc, _port in started]
        self.ports = [port for _proc, port in started]

    def kill(self, index: int) -> None:
        """SIGKILL a web node: its master and its workers at once, as a machine that dies;
        returns once every one of them is gone (its listening socket closed)."""
        master = self.nodes[index].pid
        pids = [*workers_of(master), master]
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.nodes[index].wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(map(_alive, pids)) and time.monotonic() < deadline:
            time.sleep(0.01)  # a worker, no longer our child, ends on its own

    def restart(self, index: int) -> float:
        """Start a killed node again on its port; the seconds until it answers."""
        began = time.monotonic()
        self.nodes[index], _port = self._node(self.ports[index])
        return time.monotonic() - began

    def stop(self) -> None:
        """Stop every process of the cluster."""
        for proc in [*self.nodes, *self.celery]:
            stop(proc)
        for log in self.logs:
            log.close()


def count_stored(tally: Tally, tournament_id: int) -> tuple[int, int]:
    """Deals answered 2xx but not stored, and deals stored more than once (one client id)."""
    from django.db.models import Count

    from scoring.models import Deal

    stored = dict(Deal.objects.filter(party__round__tournament_id=tournament_id)
                  .exclude(client_id="").values_list("client_id")
                  .annotate(n=Count("id")).values_list("client_id", "n"))
    lost = sum(1 for cid in tally.accepted if cid not in stored)
    duplicated = sum(n - 1 for n in stored.values() if n > 1)
    return lost, duplicated


def play_round(env: dict[str, str], folder: Path, players: int, seconds: float,
               deal_seconds: float, node_workers: int = 1,
               threads: int = 32) -> dict[str, float]:
    """Seat the field, start the cluster, play the round with a node killed, count; figures."""
    began = time.monotonic()
    token, party_ids, tournament_id = seat_field(players)
    from django.db import connections

    connections.close_all()
    note(f"{players} players seated at {len(party_ids)} tables in "
         f"{time.monotonic() - began:.1f} s")
    cluster = Cluster(env, folder, node_workers)
    try:
        began = time.monotonic()
        cluster.start()
        note(f"3 web nodes (ports {cluster.ports}), 2 workers, a beat: "
             f"{time.monotonic() - began:.1f} s; load average {os.getloadavg()[0]:.1f}")
        deals = max(1, round(seconds / deal_seconds))
        tally = Tally(ports=list(cluster.ports))
        devices = Devices(tally, token, party_ids, deals, seconds)
        joiner = devices.run(min(threads, len(party_ids)))
        time.sleep(max(0.0, devices.start + seconds * KILL_AT - time.monotonic()))
        mark_kill(tally, cluster.ports[1])
        cluster.kill(1)
        in_flight = killed(tally)
        killed_at = time.monotonic()
        note(f"node :{cluster.ports[1]} killed with {in_flight} requests in flight")
        time.sleep(1.0)  # down for a moment, as a machine that reboots
        took = cluster.restart(1)
        note(f"node :{cluster.ports[1]} answers again {time.monotonic() - killed_at:.1f} s after "
             f"the kill (its start: {took:.1f} s)")
        joiner.join()
        played = time.monotonic() - devices.start
        lost, duplicated = count_stored(tally, tournament_id)
        connections.close_all()
    finally:
        cluster.stop()
    fives = sum(n for status, n in tally.statuses.items() if status >= 500)
    unanswered = sum(n for name, n in tally.failures.items() if name != "ConnectionRefusedError")
    note(f"{len(tally.accepted)} of {len(party_ids) * deals} deals answered 2xx in "
         f"{played:.0f} s, {tally.replays} of them replays; answers {dict(tally.statuses)}; "
         f"no answer {dict(tally.failures)} (refused by the dead node's port: "
         f"{tally.failures.get('ConnectionRefusedError', 0)}); sent again {tally.retried}; "
         f"given up {tally.given_up}; 5xx {fives}; in flight at the kill and unanswered "
         f"{tally.kill_dropped}")
    for port, at, error in tally.strays:
        note(f"no answer ({error}) from :{port}, {at - killed_at:+.1f} s from the kill, sent "
             f"after it")
    for sample in tally.samples:
        note(f"a 5xx answer: {sample}")
    return {
        "champ_round_deals_lost": lost + tally.given_up,
        "champ_round_deals_duplicated": duplicated,
        "champ_node_kill_5xx": fives + unanswered,
        "champ_node_kill_in_flight": in_flight,
        "champ_deal_p95_ms": percentile(tally.latencies, 0.95),
        "champ_deal_retried_p95_ms": percentile(tally.deal_ms, 0.95),
        "champ_deals_per_s": len(tally.accepted) / played,
        "deals_planned": len(party_ids) * deals,
        "deals_accepted": len(tally.accepted),
    }


def main() -> int:
    """Prepare the database, play the round, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 players, 20 s")
    parser.add_argument("--players", type=int, default=None, help="5,000 (--quick: 200)")
    parser.add_argument("--seconds", type=float, default=None, help="the round's length")
    parser.add_argument("--deal-seconds", type=float, default=None,
                        help="a table's deal every so many seconds (30; --quick: 4)")
    parser.add_argument("--node-workers", type=int, default=1, help="uvicorn workers a node")
    args, _rest = parser.parse_known_args()
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgres"):
        note("bench_champ_round: needs DATABASE_URL (PostgreSQL) shared by several nodes; skipped")
        return 0
    ensure_postgres_database(database_url)
    env = server_env(database_url)
    # No persistent connections under ASGI: each request's sync code runs in a thread of its
    # own, and a connection kept per thread piles up (67 of PostgreSQL's 100 at 12 deals/s).
    env.update(CONN_MAX_AGE="0", CELERY_BROKER_URL=os.environ.get("CELERY_BROKER_URL")
               or "redis://127.0.0.1:6379/4",
               REDIS_URL=os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/5")
    os.environ.update({k: v for k, v in env.items() if k != "PATH"})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    players = args.players or (200 if args.quick else 5000)
    seconds = args.seconds or (20.0 if args.quick else 120.0)
    deal_seconds = args.deal_seconds or (4.0 if args.quick else 30.0)
    folder = ROOT / "var" / "bench-champ"
    folder.mkdir(parents=True, exist_ok=True)
    figures = play_round(env, folder, players, seconds, deal_seconds, args.node_workers)
    for name in ("champ_round_deals_lost", "champ_round_deals_duplicated",
                 "champ_node_kill_5xx", "champ_node_kill_in_flight"):
        bench(name, int(figures[name]), "")
    bench("champ_deal_p95_ms", figures["champ_deal_p95_ms"], "ms")
    bench("champ_deal_retried_p95_ms", figures["champ_deal_retried_p95_ms"], "ms")
    bench("champ_deals_per_s", figures["champ_deals_per_s"], "deals/s")
    ok = (figures["champ_round_deals_lost"] == 0 and figures["champ_round_deals_duplicated"] == 0
          and figures["champ_node_kill_5xx"] <= figures["champ_node_kill_in_flight"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
