"""`make test` on a new machine: the system packages are installed, or ONE line says which.

``.ci/system-packages`` (run by ``make test``) and the browser tests' own check are run as a
machine without Chromium and poppler would run them: they stop at once, non-zero, in one line.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / ".ci" / "system-packages"


def _bare_path(tmp_path: Path, uid: str, apt_get: str | None = None) -> str:
    """A PATH holding only a fake ``id`` (printing ``uid``) and, given its shell body, a fake
    ``apt-get``: no chromium, pdfsig or real apt-get."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, body in (("id", f"echo {uid}"), ("apt-get", apt_get)):
        if body is not None:
            tool = bin_dir / name
            tool.write_text(f"#!/bin/sh\n{body}\n")
            tool.chmod(0o755)
    return str(bin_dir)


def _run_script(env: dict[str, str]) -> tuple[subprocess.CompletedProcess, float]:
    started = time.monotonic()
    done = subprocess.run(["/bin/bash", str(SCRIPT)], env=env, capture_output=True, text=True,
                          timeout=30)
    return done, time.monotonic() - started


def test_without_root_or_apt_one_line_names_the_packages(tmp_path):
    """Not root, no apt-get: exit 1 within seconds, one line naming what to install."""
    done, seconds = _run_script({"PATH": _bare_path(tmp_path, "1000")})
    assert done.returncode == 1
    assert seconds < 5
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "poppler-utils" in lines[0] and "chromium" in lines[0]
    assert "apt-get install" in lines[0]


def test_installing_can_be_switched_off(tmp_path):
    """``NO_SYSTEM_INSTALL=1`` as root with apt-get: the same one line, apt-get never runs."""
    marker = tmp_path / "apt-get-ran"
    bare = _bare_path(tmp_path, "0", apt_get=f"touch {marker}")
    done, seconds = _run_script({"PATH": bare, "NO_SYSTEM_INSTALL": "1"})
    assert done.returncode == 1 and seconds < 5
    assert not marker.exists()
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert "chromium" in done.stderr


def test_root_with_apt_installs_what_is_missing(tmp_path):
    """As root with apt-get, the missing packages are asked of apt-get (a fake one here)."""
    calls = tmp_path / "apt-calls"
    done, _seconds = _run_script({"PATH": _bare_path(tmp_path, "0",
                                                     apt_get=f'echo "$@" >> {calls}')})
    assert done.returncode == 0, done.stderr
    asked = calls.read_text()
    assert "update" in asked
    assert "install" in asked and "chromium" in asked and "poppler-utils" in asked


def test_nothing_missing_is_silent_success():
    """On this machine (everything installed) the check passes without a word."""
    done, _seconds = _run_script({"PATH": os.environ["PATH"]})
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and done.stderr == ""


@pytest.mark.slow
def test_browser_tests_without_chromium_stop_before_any_test(tmp_path):
    """Chosen browser tests without Chromium: the run stops in one line, no test is run."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "tests/e2e/test_my_tables.py"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**os.environ, "E2E_CHROMIUM": str(tmp_path / "no-chromium")},
    )
    assert done.returncode == 1, done.stdout
    assert time.monotonic() - started < 60
    said = [line for line in done.stdout.splitlines() if "apt-get install chromium" in line]
    assert len(said) == 1, done.stdout
    assert "passed" not in done.stdout and "failed" not in done.stdout


def test_make_test_checks_the_system_packages_before_anything_else():
    """The check is the first command of ``make test``: it stops before pip installs."""
    plan = subprocess.run(["make", "--no-print-directory", "-n", "-B", "test"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout.splitlines()
    assert plan[0] == ".ci/system-packages"
    assert any("pytest" in line for line in plan[1:])
