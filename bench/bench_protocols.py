"""Benchmark of the protocol PDFs: render + sign one, 250 signed, a 250-page blank print.

Run from the repository root: ``.venv/bin/python bench/bench_protocols.py [--check]``.
Prints ``BENCH <name> <value> <unit>`` lines on stdout; with ``--check`` the exit status is 1
when a figure misses its target (targets on a 2-core machine, see issue 5).
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.protocols import (  # noqa: E402
    ensure_signing_identity,
    get_signer,
    render_batch,
    render_protocol,
    verify_pdf,
)
from scoring.protocols.sample import sample_protocol  # noqa: E402

TARGETS = {  # name: (limit, unit)
    "protocol_render_sign_ms": (30.0, "ms"),
    "protocols_signed_250_s": (8.0, "s"),
    "print_blank_250_s": (3.0, "s"),
    "protocols_peak_mb": (150.0, "MB"),
}


def report(name: str, value: float, unit: str, results: dict[str, float]) -> None:
    """Print one BENCH line and remember the figure."""
    results[name] = value
    print(f"BENCH {name} {value:.2f} {unit}", flush=True)


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    parser.add_argument("--tables", type=int, default=250)
    args, _unknown = parser.parse_known_args()  # run_all.py passes its arguments to all
    results: dict[str, float] = {}

    with tempfile.TemporaryDirectory() as tmp:
        key_path, cert_path = ensure_signing_identity(Path(tmp))
        signer = get_signer(key_path, cert_path)  # the one-time key load
        protocols = [sample_protocol(table) for table in range(1, args.tables + 1)]
        # warm-up: font registration, first subset, first signature
        signer.sign(render_protocol(protocols[0]))

        timings = []
        for data in protocols[:60]:
            start = time.perf_counter()
            signer.sign(render_protocol(data))
            timings.append((time.perf_counter() - start) * 1000)
        report("protocol_render_sign_ms", statistics.median(timings), "ms", results)

        gc.collect()
        start = time.perf_counter()
        signed = [signer.sign(render_protocol(data)) for data in protocols]
        report(f"protocols_signed_{args.tables}_s", time.perf_counter() - start, "s", results)

        start = time.perf_counter()
        blank = render_batch(protocols, blank=True)
        report(f"print_blank_{args.tables}_s", time.perf_counter() - start, "s", results)

        start = time.perf_counter()
        round_pdf = signer.sign(render_batch(protocols))
        report(f"print_signed_round_{args.tables}_s", time.perf_counter() - start, "s",
               results)

        del signed[40:]
        gc.collect()
        timings = []
        for pdf in signed:
            start = time.perf_counter()
            ok = verify_pdf(pdf, cert_path).ok
            timings.append((time.perf_counter() - start) * 1000)
            if not ok:
                print("verification failed", file=sys.stderr)
                return 1
        report("protocol_verify_ms", statistics.median(timings), "ms", results)
        print(f"# sizes: protocol {len(signed[0]) / 1024:.0f} KiB, blank print "
              f"{len(blank) / 1024:.0f} KiB, signed round {len(round_pdf) / 1024:.0f} KiB",
              file=sys.stderr)

    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    report("protocols_peak_mb", peak_kb / 1024, "MB", results)

    missed = [name for name, (limit, _) in TARGETS.items()
              if name in results and results[name] >= limit]
    for name in missed:
        print(f"# target missed: {name} {results[name]:.2f} >= {TARGETS[name][0]}",
              file=sys.stderr)
    return 1 if (args.check and missed) else 0


if __name__ == "__main__":
    sys.exit(main())
