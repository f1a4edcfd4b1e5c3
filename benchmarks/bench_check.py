"""``harness check`` time against history size: 1x, 4x, 16x (linear, not quadratic).

A script, not a test (timings on a shared box are noise). The history is the scenario
``agent_loop_long`` repeated (call ids renamed per copy, so every copy is a distinct
turn), written to a temporary file and checked through the CLI in-process.

    uv run python benchmarks/bench_check.py              # base 8 copies: 1x, 4x, 16x
    uv run python benchmarks/bench_check.py --base 4 --provider anthropic
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from pathlib import Path

from typer.testing import CliRunner

from harness.cli.main import app
from harness.codec import dumps_history
from harness.scenarios import get_scenario


def scaled_history(copies: int, scenario: str = "agent_loop_long") -> str:
    """``copies`` copies of a scenario's JSONL, each with its own call ids (synthetic, for timing)."""
    text = dumps_history(get_scenario(scenario).history)
    found = re.findall(r'"(?:call_id|response_id)":"([^"]+)"', text)
    ids = sorted(set(found), key=len, reverse=True)
    out: list[str] = []
    for n in range(copies):
        copy = text
        for cid in ids:
            copy = copy.replace(f'"{cid}"', f'"{cid}x{n}"')
        out.append(copy)
    return "".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--base", type=int, default=8, help="copies of the scenario at 1x")
    parser.add_argument("--provider", default="anthropic")
    parser.add_argument("--factors", default="1,4,16")
    args = parser.parse_args()
    runner = CliRunner()
    warm = Path(tempfile.mkdtemp()) / "warm.jsonl"  # imports (SDK oracles too) warmed before timing
    warm.write_text(scaled_history(1), encoding="utf-8")
    runner.invoke(app, ["check", str(warm), "--provider", args.provider])
    rows: list[tuple[int, int, int, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for factor in (int(f) for f in args.factors.split(",")):
            path = Path(tmp) / f"h{factor}.jsonl"
            path.write_text(scaled_history(args.base * factor), encoding="utf-8")
            start = time.perf_counter()
            result = runner.invoke(app, ["check", str(path), "--provider", args.provider])
            elapsed = time.perf_counter() - start
            lines = path.read_text(encoding="utf-8").count("\n")
            rows.append((factor, lines, path.stat().st_size, elapsed))
            print(
                f"{factor:>3}x  {lines:>7} lines  {path.stat().st_size:>11} bytes  {elapsed:8.2f} s  exit {result.exit_code}"
            )
    base = rows[0][3]
    for factor, _, _, elapsed in rows[1:]:
        print(f"{factor}x size -> {elapsed / base:.1f}x time")


if __name__ == "__main__":
    main()
