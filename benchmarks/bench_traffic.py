"""``harness audit-traffic`` on unique copies of a cassette corpus: calls/s, CPU, peak memory, and
whether the report of every ``--jobs`` is byte-identical to the single-process one.

    uv run python benchmarks/bench_traffic.py --corpus DIR                       # 1 and 16 copies, --jobs 1 and 2
    uv run python benchmarks/bench_traffic.py --corpus DIR --copies 16 --jobs 2  # the 12k-call figure alone
    uv run python benchmarks/bench_traffic.py --corpus DIR --profile 2           # cProfile of each worker (top 25)

Each copy is the corpus with every response and call id suffixed (``_c<n>``), so no two calls
are alike and nothing is read twice. The figures in ``README.md`` use the 491-cassette dev
split of pydantic-ai's recorded tests (``tests/models/cassettes`` and others of
github.com/pydantic/pydantic-ai): one copy holds 792 model calls.
Each run is a fresh ``harness audit-traffic COPIES --out DIR`` process; wall time, CPU (user+sys
of the process and its workers) and peak memory (the largest resident set of the process or any
worker, from the kernel's accounting of waited-for children). Best of ``--repeat`` by CPU.
It is a script, not a test: timings on a shared box are noise, not a verdict.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

_IDS = re.compile(
    rb"\b((?:call|toolu|msg|resp|chatcmpl|fc|rs|srvtoolu|tooluse|gen|ws|ci)[_-][A-Za-z0-9]{4,})"
)

_RUN = """
import resource, subprocess, sys, time
t = time.perf_counter()
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
wall = time.perf_counter() - t
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(wall, r.ru_utime + r.ru_stime, r.ru_maxrss, code)
"""


def make_copies(corpus: Path, copies: int, root: Path) -> Path:
    """``copies`` copies of ``corpus`` under ``root``, every id suffixed with the copy's number."""
    files = sorted(
        p for p in corpus.rglob("*") if p.is_file() and p.suffix in (".yaml", ".yml", ".json", ".har")
    )
    out = root / f"copies{copies}"
    if out.exists():  # made by an earlier run with --keep: the same paths, so reports compare
        return out
    for n in range(copies):
        for path in files:
            target = out / f"c{n:04d}" / path.relative_to(corpus)
            target.parent.mkdir(parents=True, exist_ok=True)
            data = path.read_bytes()
            target.write_bytes(_IDS.sub(lambda m, n=n: m.group(1) + b"_c%d" % n, data) if n else data)
    return out


def run(
    copies_dir: Path, jobs: int, out: Path, repeat: int, code: Path | None = None
) -> tuple[float, float, int, int]:
    """(wall s, CPU s, peak KB, calls) of the best run by CPU (``code``: another checkout's harness)."""
    best: tuple[float, float, int, int] | None = None
    for _ in range(repeat):
        if out.exists():
            shutil.rmtree(out)
        cmd = [sys.executable, "-c", "import sys; from harness.cli.main import app; sys.argv[0] = 'harness'; app()",
               "audit-traffic", str(copies_dir), "--jobs", str(jobs), "--out", str(out)]  # fmt: skip
        env = {**os.environ, "PYTHONPATH": str(code)} if code is not None else None
        line = subprocess.run(  # cwd: not this checkout, whose harness `-c` would import before PYTHONPATH's
            [sys.executable, "-c", _RUN, *cmd],
            capture_output=True,
            text=True,
            check=True,
            env=env,
            cwd=out.parent,
        )
        wall, cpu, peak, _code = line.stdout.split()
        report = json.loads((out / "traffic-audit.json").read_text(encoding="utf-8"))
        calls = sum(row.get("requests", 0) for row in report["providers"].values())  # model calls judged
        sample = (float(wall), float(cpu), int(peak), calls)
        if best is None or sample[1] < best[1]:
            best = sample
    assert best is not None
    return best


def profile(copies_dir: Path, jobs: int, top: int) -> None:
    """cProfile of the audit in each worker (and the parent), printed by cumulative time."""
    code = f"""
import cProfile, os, pstats, signal, sys
import harness.workers as w
from harness.traffic.audit import audit_traffic
from harness.inputs.yaml_load import read_once
original = w._run
def profiled(index):
    prof = getattr(w, "_prof", None)
    if prof is None:
        if os.getpid() != parent_pid:  # a forked worker inherits the parent's active profiler
            parent.disable()
        prof = w._prof = cProfile.Profile()
        def dump(*_):  # the pool ends its workers with SIGTERM: no finaliser runs, so dump here
            prof.disable()
            prof.dump_stats(f"/tmp/bench_traffic_worker_{{os.getpid()}}.prof")
            os._exit(0)
        signal.signal(signal.SIGTERM, dump)
    prof.enable()
    try:
        return original(index)
    finally:
        prof.disable()
w._run = profiled
parent_pid = os.getpid()
parent = cProfile.Profile()
parent.enable()
with read_once():
    result = audit_traffic([{str(copies_dir)!r}], jobs={jobs})
parent.disable()
parent.dump_stats("/tmp/bench_traffic_parent.prof")
"""
    for old in Path("/tmp").glob("bench_traffic_worker_*.prof"):
        old.unlink()
    subprocess.run([sys.executable, "-c", code], check=True)
    import pstats

    workers = sorted(Path("/tmp").glob("bench_traffic_worker_*.prof"))
    for path in [*workers, Path("/tmp/bench_traffic_parent.prof")]:
        print(f"--- {path.name}")
        pstats.Stats(str(path)).sort_stats("tottime").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--corpus", type=Path, required=True, help="a folder of cassettes (e.g. pydantic-ai's)"
    )
    parser.add_argument("--copies", default="1,16", help="comma-separated copy counts")
    parser.add_argument(
        "--jobs", default="1,2", help="comma-separated --jobs values (the first is the reference)"
    )
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--profile", type=int, default=0, metavar="JOBS", help="cProfile each worker instead")
    parser.add_argument(
        "--code", type=Path, help="run another checkout's harness (PYTHONPATH), e.g. an export of main"
    )
    parser.add_argument(
        "--label", default="", help="names this run's reports under --keep (e.g. before, after)"
    )
    parser.add_argument(
        "--reference", help="the --label of an earlier run in the same --keep directory: compare reports"
    )
    parser.add_argument("--keep", type=Path, help="make the copies here (kept), not in a temporary directory")
    args = parser.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="bench_traffic_"))
    try:
        if args.profile:
            copies_dir = make_copies(args.corpus, int(args.copies.split(",")[-1]), root)
            profile(copies_dir, args.profile, 25)
            return
        print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores; best of {args.repeat} by CPU")
        print("| calls | --jobs | wall s | CPU s | calls/s | CPU ms/call | peak MB | report = --jobs first |")
        print("|---:|---:|---:|---:|---:|---:|---:|---|")
        for copies in (int(c) for c in args.copies.split(",")):
            copies_dir = make_copies(args.corpus, copies, root)
            reference: dict[str, bytes] = {}
            for jobs in (int(j) for j in args.jobs.split(",")):
                out = root / f"out{args.label}{copies}-{jobs}"
                wall, cpu, peak, calls = run(copies_dir, jobs, out, args.repeat, args.code)
                reports = {p.name: p.read_bytes() for p in sorted(out.iterdir())}
                same = "reference" if not reference else ("yes" if reports == reference else "NO")
                there = root / f"out{args.reference}{copies}-{jobs}"
                if args.reference is not None and there.is_dir():
                    theirs = {p.name: p.read_bytes() for p in sorted(there.iterdir())}
                    same += (
                        f", = {args.reference}" if theirs == reports else f", DIFFERENT from {args.reference}"
                    )
                reference = reference or reports
                print(f"| {calls:,} | {jobs} | {wall:.1f} | {cpu:.1f} | {calls / wall:.0f} | {cpu / calls * 1e3:.2f} "
                      f"| {peak / 1024:.0f} | {same} |", flush=True)  # fmt: skip
            if args.keep is None:
                shutil.rmtree(copies_dir)
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
