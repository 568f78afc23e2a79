"""compose.yaml, the Dockerfile and the README's deployment steps describe the same site."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "compose.yaml").read_text())


def _readme_steps() -> list[list[str]]:
    """The commands of the README's deployment block, without ``.venv/bin/`` and comments."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Deploying with PostgreSQL, Redis and workers", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    steps = []
    for line in block.replace("\\\n", " ").splitlines():
        words = shlex.split(line.split("#", 1)[0])
        if words:
            steps.append([w.removeprefix(".venv/bin/") for w in words])
    return steps


def _command(service: str) -> list[str]:
    command = COMPOSE["services"][service]["command"]
    return shlex.split(command) if isinstance(command, str) else list(command)


def test_compose_has_the_roles_and_the_shared_services():
    assert {"web", "worker", "beat", "postgres", "redis"} <= set(COMPOSE["services"])
    assert COMPOSE["services"]["beat"]["deploy"]["replicas"] == 1  # exactly one beat


def test_each_role_runs_the_readme_command():
    steps = _readme_steps()
    for role in ("web", "worker", "beat"):
        assert _command(role) in steps, f"{role}: {_command(role)} not in the README"
    assert ["python", "manage.py", "migrate"] in steps
    assert _command("migrate")[:3] == ["python", "manage.py", "migrate"]


def test_roles_share_one_database_broker_and_cache_as_the_readme_exports():
    exports = " ".join(" ".join(s) for s in _readme_steps() if s[0] == "export")
    for role in ("web", "worker", "beat", "migrate"):
        env = COMPOSE["services"][role]["environment"]
        assert env["DEBUG"] == "0" and env["DATABASE_URL"].startswith("postgres://")
        assert env["DATABASE_URL"].split("@")[1].startswith("postgres:")  # the postgres service
        assert env["CELERY_BROKER_URL"] == "redis://redis:6379/0"
        assert env["REDIS_URL"] == "redis://redis:6379/1"
    for name in ("DEBUG=0", "CELERY_BROKER_URL=redis://redis:6379/0",
                 "REDIS_URL=redis://redis:6379/1", "DATABASE_URL=postgres://"):
        assert name in exports


def test_dockerfile_serves_the_web_command_and_installs_the_lock():
    dockerfile = (ROOT / "Dockerfile").read_text()
    cmd = re.search(r"^CMD (\[.*\])$", dockerfile, re.M).group(1)
    assert yaml.safe_load(cmd) == _command("web")
    assert "pip install --no-cache-dir --require-hashes -r requirements.lock" in dockerfile
    assert re.search(r"^FROM python:3\.11-slim$", dockerfile, re.M)  # the Makefile's Python


def test_roles_restart_and_probe_liveness_and_the_services_readiness():
    """web, worker and beat come back after a crash; the web container's probe is liveness
    (a database or Redis outage does not get it replaced); the app starts once PostgreSQL and
    Redis are ready; the worker runs without the event channels a Redis restart broke."""
    services = COMPOSE["services"]
    for role in ("web", "worker", "beat", "postgres", "redis"):
        assert services[role]["restart"] == "unless-stopped", role
    assert services["migrate"]["restart"] == "no"
    probe = services["web"]["healthcheck"]["test"][-1]
    compile(probe, "healthcheck", "exec")
    assert "'http://localhost:8000/healthz/live'" in probe
    for role in ("web", "worker", "beat", "migrate"):
        assert services[role]["depends_on"] == {
            "postgres": {"condition": "service_healthy"},
            "redis": {"condition": "service_healthy"}}
    assert "pg_isready" in services["postgres"]["healthcheck"]["test"]
    assert services["redis"]["healthcheck"]["test"][-2:] == ["redis-cli", "ping"]
    assert {"--without-gossip", "--without-mingle", "--without-heartbeat"} <= set(
        _command("worker"))
