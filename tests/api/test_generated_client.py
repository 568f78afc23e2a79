"""openapi-python-client on the served schema (issue 34's acceptance): no warning, every module
of the generated package imports, and docs/api.md's whole round — two of them — runs with the
generated package alone (``client_round.py``) against a live server.

The generator is ``openapi-python-client`` of the dev lock (``requirements-dev.txt``); another
interpreter that has it may be named in ``OPENAPI_CLIENT_PYTHON``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import requests

from scoring.models import Party, Protocol, Round, Tournament

pytestmark = pytest.mark.slow

HERE = Path(__file__).resolve().parent
PACKAGE = "domino_client"
IMPORT_ALL = """
import importlib, pkgutil, sys
sys.path.insert(0, sys.argv[1])
package = importlib.import_module(sys.argv[2])
failed = []
names = [m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
for name in names:
    try:
        importlib.import_module(name)
    except Exception as exc:
        failed.append(f"{name}: {type(exc).__name__}: {exc}")
print(len(names))
print("\\n".join(failed))
"""
"""Imports every module of a package; prints their number, then each failure."""


def tool_python() -> str:
    """The interpreter with openapi-python-client (and the generated client's httpx, attrs)."""
    return os.environ.get("OPENAPI_CLIENT_PYTHON") or sys.executable


def run(args: list[str], cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    """Run a program with the tool interpreter's and this one's scripts (ruff) on the PATH."""
    path = os.pathsep.join([str(Path(tool_python()).parent), str(Path(sys.executable).parent),
                            os.environ.get("PATH", "")])
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "PATH": path})


def live_schema(base_url: str, into: Path) -> Path:
    """The schema the live server serves, as JSON in a file."""
    response = requests.get(f"{base_url}/api/v1/schema/", params={"format": "json"}, timeout=120)
    assert response.status_code == 200
    into.write_text(response.text, encoding="utf-8")
    return into


@pytest.mark.django_db(transaction=True)
def test_a_generated_python_client_runs_the_whole_round(
    live_server: Any, organizer: Any, signing_files: None, tmp_path: Path
) -> None:
    """Generate (no flags, no warnings), import every module, play two rounds with it."""
    schema = live_schema(live_server.url, tmp_path / "schema.json")
    generated = run([tool_python(), "-m", "openapi_python_client", "generate", "--path",
                     str(schema), "--meta", "none", "--output-path",
                     str(tmp_path / PACKAGE)], cwd=tmp_path)
    said = generated.stdout + generated.stderr
    assert generated.returncode == 0, said
    assert "warning" not in said.lower() and "error" not in said.lower(), said
    assert "ruff is not in PATH" not in said

    imported = run([tool_python(), "-c", IMPORT_ALL, str(tmp_path), PACKAGE], cwd=tmp_path)
    assert imported.returncode == 0, imported.stderr
    count, *failures = imported.stdout.strip().split("\n")
    assert [line for line in failures if line] == []
    assert int(count) > 300  # the endpoints' modules and the models

    played = run([tool_python(), str(HERE / "client_round.py"), str(tmp_path), live_server.url,
                  organizer.username, "pw"], cwd=tmp_path)  # the factories' password
    assert played.returncode == 0, played.stdout[-2000:] + played.stderr[-4000:]
    summary = json.loads(played.stdout.strip().splitlines()[-1])

    tournament = Tournament.objects.get(pk=summary["tournament"], created_by=organizer)
    assert tournament.slug == summary["slug"] == "generated-cup"
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    assert [(r.number, r.status) for r in rounds] == [(1, Round.Status.FINISHED),
                                                     (2, Round.Status.FINISHED)]
    parties = Party.objects.filter(round__tournament=tournament)
    assert sorted(summary["parties_of_tournament"]) == sorted(p.pk for p in parties)
    assert all(p.status == Party.Status.FINISHED and p.end_reason == "target" for p in parties)
    for shown in summary["rounds"]:
        assert shown["status"] == "finished" and shown["pdfs"] == 4
        protocols = Protocol.objects.filter(public_id__in=shown["protocols"])
        assert [p.status for p in protocols] == [Protocol.Status.SIGNED] * 2
        assert all(p.signatures.count() == 5 for p in protocols)  # four players, the referee
    assert [line[2] for line in summary["rounds"][0]["standings"]] == [2, 2, 0, 0]
    assert sorted(line[2] for line in summary["rounds"][1]["standings"]) == [0, 2, 2, 4]
