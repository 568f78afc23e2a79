"""Run every benchmark script in bench/ (bench_*.py) and print their BENCH lines."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    """Run each bench_*.py in its own process; exit non-zero if any failed."""
    failed = []
    extra = sys.argv[1:]
    for script in sorted(HERE.glob("bench_*.py")):
        print(f"# {script.name}", flush=True)
        started = time.monotonic()
        result = subprocess.run([sys.executable, str(script), *extra], cwd=HERE.parent)
        print(f"# {script.name} took {time.monotonic() - started:.1f} s", flush=True)
        if result.returncode != 0:
            failed.append(script.name)
    if failed:
        print(f"# failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
