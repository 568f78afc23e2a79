"""The receiver's outage as `make run` serves it (bench/bench_webhook_outage.py, a shorter
outage): publish answers at once, every event arrives once and in order after the receiver is
back."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_make_runs_setup_rides_out_a_receiver_outage():
    run = subprocess.run(
        [sys.executable, "bench/bench_webhook_outage.py", "--quick", "--outage", "4",
         "--retry-base", "0.2"],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    figures = {}
    for line in run.stdout.splitlines():
        if line.startswith("BENCH "):
            name, value = line.split()[1:3]
            figures[name.removeprefix("webhook_outage_")] = float(value)
    assert run.returncode == 0, run.stdout + run.stderr[-3000:]
    # No request waits for the receiver: each answers before the outage (4 s) could end (the
    # speed itself is the bench's figure, not this test's).
    assert figures["publish_ms"] < 4000 and figures["request_max_ms"] < 4000
    assert figures["events"] == 10 == figures["delivered_once"]  # 2 rounds: 5 events each
    assert figures["duplicates"] == 0 and figures["out_of_order"] == 0
    assert 0 <= figures["first_after_back_s"] <= figures["caught_up_s"] < 30
