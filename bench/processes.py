"""The bench's server processes: gunicorn's workers and the database's backends, their CPU
time and their priority (measuring aids on a shared machine)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlparse


def _cpu_of(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _parent(pid: int) -> int:
    """A process's parent id (0 when it is gone)."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def workers_of(server_pid: int) -> list[int]:
    """The process ids of a server's workers (its children)."""
    return [int(p.name) for p in Path("/proc").iterdir()
            if p.name.isdigit() and _parent(int(p.name)) == server_pid]


def database_backends(database_url: str) -> list[int]:
    """The process ids of PostgreSQL's backends serving the bench's database (none on SQLite)."""
    if not database_url.startswith("postgres"):
        return []
    import psycopg

    name = urlparse(database_url).path.lstrip("/")
    admin = urlparse(database_url)._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        return [row[0] for row in conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s", [name])]


def server_cpu(server_pid: int, database_url: str) -> tuple[float, float]:
    """CPU seconds used so far by gunicorn's workers and by the database's backends of the bench.

    Measured around a run, they say what the reconnection costs the server whatever else the
    machine does meanwhile (the wall time depends on it: other work on the cores).
    """
    if not Path("/proc").exists():
        return float("nan"), float("nan")
    return (sum(_cpu_of(pid) for pid in workers_of(server_pid)),
            sum(_cpu_of(pid) for pid in database_backends(database_url)))


def renice(server_pid: int, database_url: str, niceness: int,
           note: Callable[[str], None]) -> None:
    """Give the bench's own processes (itself, gunicorn, its database backends) a priority.

    A measuring aid on a shared machine (``--renice -15``): the run then gets the cores as it
    would on a machine of its own. Needs the right to raise priorities (root).
    """
    pids = [os.getpid(), server_pid, *workers_of(server_pid), *database_backends(database_url)]
    for pid in pids:
        try:
            os.setpriority(os.PRIO_PROCESS, pid, niceness)
        except OSError as exc:
            note(f"renice {pid}: {exc}")
