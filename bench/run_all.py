"""Run every benchmark script in bench/ (bench_*.py) and print their BENCH lines."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _loop() -> None:
    """Pure interpreter work with a small working set."""
    sum(i * i for i in range(1_000_000))


def _churn() -> None:
    """Allocation and dict work with a large working set, closer to a web request's."""
    rows = [{"id": i, "name": f"Игрок {i}", "points": [i, i + 1]} for i in range(100_000)]
    json.loads(json.dumps(rows))


def calibrate() -> None:
    """Print how fast this machine is right now, so figures of two runs can be compared.

    The same code's figures differ several-fold between sessions' machines of one size (a
    shared host); these two workloads, medians of five, tell a slow machine from a slower
    build. Printed at the start and at the end of the run, with the load average.
    """
    for name, work in (("machine_python_loop_ms", _loop), ("machine_python_churn_ms", _churn)):
        runs = []
        for _ in range(5):
            started = time.perf_counter()
            work()
            runs.append((time.perf_counter() - started) * 1000)
        print(f"BENCH {name} {statistics.median(runs):.1f} ms", flush=True)
    print(f"# load average {os.getloadavg()[0]:.1f}", flush=True)


def main() -> int:
    """Run each bench_*.py in its own process; exit non-zero if any failed."""
    failed = []
    extra = sys.argv[1:]
    calibrate()
    for script in sorted(HERE.glob("bench_*.py")):
        print(f"# {script.name}", flush=True)
        started = time.monotonic()
        result = subprocess.run([sys.executable, str(script), *extra], cwd=HERE.parent)
        print(f"# {script.name} took {time.monotonic() - started:.1f} s", flush=True)
        if result.returncode != 0:
            failed.append(script.name)
    calibrate()
    if failed:
        print(f"# failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
