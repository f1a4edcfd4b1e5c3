"""``harness check`` of a 5-line history, the time a user waits: with each ``--provider`` and without.

    uv run python benchmarks/bench_startup.py                     # every provider id, and all; best of 3
    uv run python benchmarks/bench_startup.py --provider anthropic --repeat 5
    uv run python benchmarks/bench_startup.py --code /tmp/export-of-main   # another version (PYTHONPATH)

The history is ``harness scenarios tool_parallel_results_out_of_order`` (5 lines). Each run is
a fresh process (interpreter, imports, oracles, the check, the report); the figures are the
best wall time and the best CPU time (user+sys of the process and its ``--jobs`` workers) of
``--repeat`` runs. The SDK oracle's cache (``harness/oracles/sdk_cache.py``) lives in a
temporary ``HARNESS_CACHE_DIR``, a new one per row: the "cold" columns are the row's first
run (it builds from the SDKs and writes the cache), the others read it. It is a script, not a test: on a shared box, read
the CPU column and the ratios.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

_RUN = """
import resource, subprocess, sys, time
t = time.perf_counter()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
wall = time.perf_counter() - t
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(wall, r.ru_utime + r.ru_stime)
"""
_HARNESS = "import sys; from harness.cli.main import app; sys.argv[0] = 'harness'; app()"


def once(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    out = subprocess.run(  # cwd: not this checkout, whose harness `-c` would import before PYTHONPATH's
        [sys.executable, "-c", _RUN, sys.executable, "-c", _HARNESS, *args],
        env=env, capture_output=True, text=True, check=True, cwd=tempfile.gettempdir(),
    ).stdout.split()  # fmt: skip
    return float(out[0]), float(out[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--provider", action="append", help="provider id (repeatable; default: every one, and all)"
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--code", type=Path, help="run another checkout's harness (PYTHONPATH)")
    args = parser.parse_args()
    from harness.contract.providers import PROVIDERS

    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "HARNESS_CACHE_DIR": str(Path(tmp) / "cache")}
        env.pop("HARNESS_SDK_CACHE", None)
        if args.code is not None:
            env["PYTHONPATH"] = str(args.code)
        history = Path(tmp) / "h.jsonl"
        scenario = subprocess.run(
            [sys.executable, "-c", _HARNESS, "scenarios", "tool_parallel_results_out_of_order"],
            env=env, capture_output=True, text=True, check=True, cwd=tmp,
        ).stdout  # fmt: skip
        history.write_text(scenario, encoding="utf-8")
        print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores; {scenario.count(chr(10))}-line history; "
              f"best of {args.repeat}")  # fmt: skip
        print("| check | cold wall s | cold CPU s | wall s | CPU s |")
        print("|---|---:|---:|---:|---:|")
        for named in args.provider or [*PROVIDERS, "all"]:
            provider = None if named == "all" else named
            flags = ["--provider", provider] if provider else []
            mine = {**env, "HARNESS_CACHE_DIR": str(Path(tmp) / f"cache-{provider or 'all'}")}  # cold per row
            cold = once(["check", str(history), *flags], mine)
            runs = [once(["check", str(history), *flags], mine) for _ in range(args.repeat)]
            label = f"--provider {provider}" if provider else "every provider"
            print(f"| {label} | {cold[0]:.2f} | {cold[1]:.2f} | {min(r[0] for r in runs):.2f} | "
                  f"{min(r[1] for r in runs):.2f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
