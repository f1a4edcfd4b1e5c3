"""``harness check`` and ``harness render`` against history size: time per line, and per MB of one long line.

A script, not a test (timings on a shared box are noise; ratios hold better). Each figure is
one fresh ``harness`` process, as a user runs it; its start-up (the same command on a 5-line
history) is measured apart and taken off, so "per line" is the work that grows with the input.
The history is the scenario ``tool_parallel_results_out_of_order`` (5 lines) repeated with
fresh call ids per copy (synthetic); the long line is one user message of N MB of text
(synthetic).

    uv run python benchmarks/bench_linear.py                       # anthropic: 50, 200, 800, 3200 copies
    uv run python benchmarks/bench_linear.py --copies 50,200 --all  # check every provider (slow)
    uv run python benchmarks/bench_linear.py --long-mb 10,50 --clock cpu

Against the official SDK, where one builds the same request: the SDK's ``create()`` given
the body ``harness render`` wrote (its parameter transform and JSON encoding, through a mock
transport: no network), per line of the same history, in one warm process. ``render``'s
work per line over the SDK's is the ratio printed (lower is better; the SDK does less: it
only encodes what it is given, the render maps a history to it).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_check import scaled_history

SCENARIO = "tool_parallel_results_out_of_order"


def run_cli(args: list[str], clock: str) -> float:
    """Seconds of one ``harness`` process (wall, or its CPU with ``--clock cpu``)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    code = "from harness.cli.main import main; main()"
    done = subprocess.run(
        [sys.executable, "-c", code, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"harness {' '.join(args)}: exit {done.returncode}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu if clock == "cpu" else wall


def best(args: list[str], clock: str, repeat: int) -> float:
    return min(run_cli(args, clock) for _ in range(repeat))


def long_line(mb: int) -> str:
    """One user message holding ``mb`` MB of text (synthetic)."""
    text = ("lorem ipsum dolor sit amet " * (mb * 40_000))[: mb * 1_000_000]
    return json.dumps({"parts": [{"text": text, "type": "text"}], "role": "user"}) + "\n"


# --- the official SDKs, given the rendered body -------------------------------------------


def _mock_http(reply: dict[str, Any]) -> Any:
    import httpx2

    payload = json.dumps(reply).encode()
    return httpx2.Client(
        transport=httpx2.MockTransport(
            lambda _req: httpx2.Response(200, headers={"content-type": "application/json"}, content=payload)
        )
    )


def _anthropic() -> Callable[[dict[str, Any]], object]:
    from anthropic import Anthropic

    reply: dict[str, Any] = {
        "id": "msg_1", "type": "message", "role": "assistant", "model": "m", "content": [],
        "stop_reason": "end_turn", "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1},
    }  # fmt: skip
    client = Anthropic(
        api_key="k", base_url="http://sdk.invalid", max_retries=0, http_client=_mock_http(reply)
    )
    return lambda body: cast(object, client.messages.create(**body))


def _openai_chat() -> Callable[[dict[str, Any]], object]:
    from openai import OpenAI

    reply: dict[str, Any] = {
        "id": "c",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [],
    }
    client = OpenAI(
        api_key="k", base_url="http://sdk.invalid/v1", max_retries=0, http_client=_mock_http(reply)
    )
    return lambda body: cast(object, client.chat.completions.create(**body))


def _openai_responses() -> Callable[[dict[str, Any]], object]:
    from openai import OpenAI

    reply: dict[str, Any] = {"id": "r", "object": "response", "created_at": 0, "model": "m", "output": [], "status": "completed",
             "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}  # fmt: skip
    client = OpenAI(
        api_key="k", base_url="http://sdk.invalid/v1", max_retries=0, http_client=_mock_http(reply)
    )
    return lambda body: cast(object, client.responses.create(**body))


SDKS: dict[str, Callable[[], Callable[[dict[str, Any]], object]]] = {
    "anthropic": _anthropic,
    "openai-chat": _openai_chat,
    "openai-responses": _openai_responses,
}


def sdk_seconds(provider: str, body: dict[str, Any], repeat: int) -> float | None:
    """The SDK's ``create()`` on ``body`` (CPU seconds, best of ``repeat``), or None where no SDK applies."""
    build = SDKS.get(provider)
    if build is None:
        return None
    warnings.simplefilter("ignore")  # the SDKs' deprecation notices about model names
    create = build()
    create(body)  # warm: first-call imports and caches
    times: list[float] = []
    for _ in range(repeat):
        start = time.process_time()
        create(body)
        times.append(time.process_time() - start)
    return min(times)


def rendered_body(path: Path, provider: str) -> dict[str, Any]:
    code = "from harness.cli.main import main; main()"
    out = subprocess.run(
        [sys.executable, "-c", code, "render", str(path), "--provider", provider],
        capture_output=True, check=True,
    ).stdout  # fmt: skip
    return json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--provider", default="anthropic")
    parser.add_argument(
        "--all", action="store_true", help="check every provider (no --provider), as by default"
    )
    parser.add_argument("--copies", default="50,200,800,3200")
    parser.add_argument("--long-mb", default="10,50", help="sizes of the one long line, in MB")
    parser.add_argument("--repeat", type=int, default=1, help="best of N runs per figure")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args()
    who = [] if args.all else ["--provider", args.provider]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        one = root / "h1.jsonl"
        one.write_text(scaled_history(1, SCENARIO), encoding="utf-8")
        start = {cmd: best([cmd, str(one), *(["--provider", args.provider] if cmd == "render" else who)],
                           args.clock, args.repeat) for cmd in ("check", "render")}  # fmt: skip
        print(
            f"start-up ({args.clock}, 5-line history): check {start['check']:.2f} s, render {start['render']:.2f} s"
        )
        print()
        print(
            "| copies | lines | MB | check s | check ms/line | render s | render ms/line | SDK ms/line | render/SDK |"
        )
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        previous: tuple[int, float] | None = None
        for copies in (int(c) for c in args.copies.split(",")):
            path = root / f"h{copies}.jsonl"
            path.write_text(scaled_history(copies, SCENARIO), encoding="utf-8")
            lines, mb = copies * 5, path.stat().st_size / 1e6
            check = best(["check", str(path), *who], args.clock, args.repeat) - start["check"]
            render = (
                best(["render", str(path), "--provider", args.provider], args.clock, args.repeat)
                - start["render"]
            )
            sdk = sdk_seconds(args.provider, rendered_body(path, args.provider), max(3, args.repeat))
            sdk_col = f"{sdk / lines * 1e3:.3f} | {render / sdk:.1f}x" if sdk else "n/a | n/a"
            print(f"| {copies} | {lines} | {mb:.2f} | {check:.2f} | {check / lines * 1e3:.2f} | {render:.2f} "
                  f"| {render / lines * 1e3:.3f} | {sdk_col} |")  # fmt: skip
            if previous is not None:
                growth = check / previous[1] if previous[1] > 0 else float("inf")
                print(
                    f"|  | check beyond start-up grew {growth:.1f}x for {copies / previous[0]:.0f}x the copies | | | | | | | |"
                )
            previous = (copies, check)
        print()
        print("| one line | check s | check s/MB | render s | render s/MB |")
        print("|---:|---:|---:|---:|---:|")
        for mb in (int(m) for m in args.long_mb.split(",") if m):
            path = root / f"long{mb}.jsonl"
            path.write_text(long_line(mb), encoding="utf-8")
            check = best(["check", str(path), *who], args.clock, args.repeat) - start["check"]
            render = (
                best(["render", str(path), "--provider", args.provider], args.clock, args.repeat)
                - start["render"]
            )
            print(f"| {mb} MB | {check:.2f} | {check / mb:.3f} | {render:.2f} | {render / mb:.3f} |")
            os.unlink(path)


if __name__ == "__main__":
    main()
