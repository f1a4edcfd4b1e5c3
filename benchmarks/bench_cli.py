"""``harness replay`` on the user's path, against the official SDK on the same bytes.

    uv run python benchmarks/bench_cli.py [--events N] [--repeat K] [--code DIR] [--markdown]

For each provider, a synthetic stream of about N events (default 60,000; the generators
of ``bench_streams.py``) is written to a file, then timed two ways, each in a fresh
process (best of K, ``time.perf_counter`` inside the child; ``--clock cpu``: ``time.process_time``):

- CLI: ``harness replay FILE --provider P`` end to end (read, decode, parse, build the
  message, serialise the JSON output to a pipe);
- SDK: a process that reads FILE and runs ``harness.crosscheck.sdk_accumulate``
  (the official client's own accumulation through a mock transport);
- start-up cancelled out: each process builds the CLI's click command once, and first runs
  the same command on a 20-event stream of the provider (interpreter, imports, client
  construction, first-call caches), then
  times the big stream alone and reports it, so the ratio compares the work per event,
  not import times.

The in-process figures come from the same run: our parser (``parse_bytes``) against
``sdk_accumulate`` and bare ``json.loads`` of the data lines, on the same N-event body
(see ``bench_streams.py`` for how). ``--code DIR`` runs the CLI from another checkout
(``PYTHONPATH=DIR``), to measure a before/after pair with the same script.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_streams import SYNTHETIC, measure

#: Every provider id: the dialects replay the Chat stream with their own parsers, against openai's
#: Chat accumulation (``bench_streams.sdk_provider``); Bedrock's frames against botocore.
GENERATORS: dict[str, Callable[[int], bytes]] = SYNTHETIC
SMALL = 20
TARGET_VS_SDK = 10.0

# Each child warms up on the small stream (imports, lazy client construction, first-call caches),
# then times the big one and prints the seconds on stderr: start-up is cancelled out exactly.
# Typer builds the click command from the app's signatures on every ``app(...)`` call (about 18 ms
# of CPU here); a ``harness`` process builds it once at start-up, so the child builds it once too.
_CLI = """
import sys, time
import typer
from harness.cli.main import app
command = typer.main.get_command(app)
def run(path):
    try:
        command.main(["replay", path, "--provider", sys.argv[1]], prog_name="harness", standalone_mode=False)
    except SystemExit:
        pass
run(sys.argv[3])
start = getattr(time, sys.argv[-1])()
run(sys.argv[2])
sys.stdout.flush()
print(getattr(time, sys.argv[-1])() - start, file=sys.stderr)
"""
_SDK = """
import sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[4])
from bench_streams import sdk_run
sdk_run(sys.argv[1], Path(sys.argv[3]).read_bytes())
start = getattr(time, sys.argv[-1])()
sdk_run(sys.argv[1], Path(sys.argv[2]).read_bytes())
print(getattr(time, sys.argv[-1])() - start, file=sys.stderr)
"""


@dataclass
class Row:
    provider: str
    events: int
    cli: float  # seconds for the big stream, after a warm-up run on the small one
    sdk: float
    ours_in: float  # in process, seconds per pass
    sdk_in: float
    floor_in: float


def _time(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    # Not the caller's folder: ``python -c`` puts it first on sys.path, so run from a checkout
    # it would shadow ``--code`` (a before/after pair would time the same code twice).
    done = subprocess.run(argv, check=True, capture_output=True, env=env, cwd=cwd)
    return float(done.stderr.decode().strip().splitlines()[-1])


#: ``--clock``: wall time, or the process's CPU time (on a machine loaded by other work, CPU time
#: leaves out the waits for a core, which fall on either side at random; both sides alike).
CLOCKS = {"wall": "perf_counter", "cpu": "process_time"}


def run(provider: str, events: int, repeat: int, code: str | None, workdir: Path, clock: str = "wall") -> Row:
    big, small = workdir / f"{provider}-{events}.sse", workdir / f"{provider}-{SMALL}.sse"
    body = GENERATORS[provider](events)
    big.write_bytes(body)
    small.write_bytes(GENERATORS[provider](SMALL))
    env = dict(os.environ)
    if code:
        env["PYTHONPATH"] = code + os.pathsep + env.get("PYTHONPATH", "")
    commands = [
        [sys.executable, "-c", _CLI, provider, str(big), str(small), CLOCKS[clock]],
        [
            sys.executable,
            "-c",
            _SDK,
            provider,
            str(big),
            str(small),
            str(Path(__file__).resolve().parent),
            CLOCKS[clock],
        ],
    ]
    best = [float("inf")] * len(commands)
    for _ in range(repeat):  # alternated, so load drift hits both alike
        for n, argv in enumerate(commands):
            best[n] = min(best[n], _time(argv, env, workdir))
    inproc = measure(provider, provider, [body], repeat, clock=getattr(time, CLOCKS[clock]))
    return Row(
        provider,
        inproc.events,
        cli=best[0],
        sdk=best[1],
        ours_in=inproc.ours,
        sdk_in=inproc.sdk,
        floor_in=inproc.floor,
    )


HEADERS = (
    "provider",
    "events",
    "CLI s",
    "SDK s",
    "CLI/SDK speed",
    "in-process ours/SDK",
    "floor/ours",
)


def cells(row: Row) -> tuple[str, ...]:
    return (
        row.provider,
        f"{row.events:,}",
        f"{row.cli:.3f}",
        f"{row.sdk:.3f}",
        f"{row.sdk / row.cli:.1f}x",
        f"{row.sdk_in / row.ours_in:.1f}x",
        f"{row.ours_in / row.floor_in:.2f}x",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--events", type=int, default=60_000, help="events per stream (default 60000)")
    parser.add_argument("--repeat", type=int, default=3, help="repeats; the best is kept (default 3)")
    parser.add_argument("--code", help="run the CLI from this checkout (PYTHONPATH)")
    parser.add_argument("--provider", action="append", help="only these providers (repeatable)")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    parser.add_argument(
        "--clock", choices=sorted(CLOCKS), default="wall", help="wall time, or CPU time (a loaded machine)"
    )
    args = parser.parse_args(argv)
    providers = args.provider or list(GENERATORS)
    with tempfile.TemporaryDirectory() as tmp:
        rows = [run(p, args.events, args.repeat, args.code, Path(tmp), args.clock) for p in providers]
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs, load average {load}, best of {args.repeat}, {args.clock} clock"
    )
    print()
    if args.markdown:
        print("| " + " | ".join(HEADERS) + " |")
        print("|---|" + "---:|" * (len(HEADERS) - 1))
        for row in rows:
            print("| " + " | ".join(cells(row)) + " |")
    else:
        widths = [max(len(h), *(len(cells(r)[i]) for r in rows)) for i, h in enumerate(HEADERS)]
        print("  ".join(h.ljust(w) for h, w in zip(HEADERS, widths, strict=True)))
        for row in rows:
            print("  ".join(c.ljust(w) for c, w in zip(cells(row), widths, strict=True)))
    missed = [r.provider for r in rows if r.sdk / r.cli < TARGET_VS_SDK]
    if missed:
        print(f"\nbelow {TARGET_VS_SDK:.0f}x the SDK on the CLI path: {', '.join(missed)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
