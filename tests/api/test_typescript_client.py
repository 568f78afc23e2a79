"""openapi-typescript on the served schema (issue 34's acceptance): default flags, then
``tsc --strict`` on a small typed round (``ts/round.ts``, openapi-fetch) with no error, and the
round run by node against a live server.

The tools are the versions pinned in ``ts/package-lock.json``, installed by ``npm ci`` into a
temporary copy (npm's cache serves them after the first run); node and npm are system
packages (``.ci/system-packages``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from scoring.models import Party, Protocol, Round, Tournament
from tests.api.test_generated_client import live_schema

pytestmark = pytest.mark.slow

PROJECT = Path(__file__).resolve().parent / "ts"
FILES = ("package.json", "package-lock.json", "tsconfig.json", "round.ts", "run.mjs")


def npm(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run an npm command (``npx`` for the installed tools) in the round's copy."""
    program = shutil.which(args[0])
    assert program, f"{args[0]} is missing: install node and npm (.ci/system-packages)"
    return subprocess.run([program, *args[1:]], cwd=cwd, capture_output=True, text=True,
                          timeout=600)


@pytest.mark.django_db(transaction=True)
def test_typescript_types_check_strictly_and_the_typed_round_runs(
    live_server: Any, organizer: Any, signing_files: None, tmp_path: Path
) -> None:
    """openapi-typescript with default flags, ``tsc --strict``: 0 errors; node plays round 1."""
    for name in FILES:
        shutil.copy(PROJECT / name, tmp_path / name)
    installed = npm("npm", "ci", "--no-audit", "--no-fund", "--prefer-offline", cwd=tmp_path)
    assert installed.returncode == 0, installed.stderr[-3000:]

    live_schema(live_server.url, tmp_path / "schema.json")
    typed = npm("npx", "--no-install", "openapi-typescript", "schema.json", "-o", "schema.d.ts",
                cwd=tmp_path)
    said = typed.stdout + typed.stderr
    assert typed.returncode == 0 and "schema.d.ts" in said, said
    assert "warn" not in said.lower() and "error" not in said.lower(), said

    checked = npm("npx", "--no-install", "tsc", "--strict", "--noEmit", "-p", ".", cwd=tmp_path)
    assert (checked.returncode, checked.stdout + checked.stderr) == (0, "")

    built = npm("npx", "--no-install", "tsc", "--strict", "-p", ".", cwd=tmp_path)
    assert built.returncode == 0, built.stdout
    played = npm("node", "run.mjs", live_server.url, organizer.username, "pw", cwd=tmp_path)
    assert played.returncode == 0, played.stderr[-3000:]
    summary = json.loads(played.stdout.strip().splitlines()[-1])

    tournament = Tournament.objects.get(pk=summary["tournament"], created_by=organizer)
    rnd = Round.objects.get(pk=summary["round"], tournament=tournament)
    assert rnd.status == Round.Status.FINISHED
    parties = Party.objects.filter(round=rnd)
    assert sorted(summary["parties"]) == sorted(p.pk for p in parties)
    assert all(p.status == Party.Status.FINISHED for p in parties)
    assert sorted((points["a"], points["b"]) for points in summary["points"]) == [
        (0, 100), (120, 0)]  # side a wins 60 a deal at table 1, side b 50 at table 2
    assert Protocol.objects.filter(public_id__in=summary["protocols"],
                                   status=Protocol.Status.SIGNED).count() == 2
    assert summary["leader"] in {p.pair_a_id for p in parties} | {p.pair_b_id for p in parties}
