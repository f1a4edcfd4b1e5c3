"""Stream parser throughput: our output adapters against the official SDKs and the JSON floor.

    uv run python benchmarks/bench_streams.py [--events N] [--repeat K] [--markdown]

For each provider, a synthetic stream of about N events (half text deltas, half
tool-call argument deltas; Gemini: N text chunks), generated deterministically, and
every model-call body of the committed cassettes. Each is timed three ways, best of K
(``time.perf_counter``):

- ours: raw SSE bytes -> final message (``harness.stream.drive.parse_bytes``);
- SDK: the official client end to end on the same bytes (``harness.crosscheck.sdk_accumulate``);
- floor: bare ``json.loads`` of the same data lines, already split and decoded (no framing, no logic).

Targets (issue "benchmark"): ours >= 10x the SDK, and within 3x of the floor. The three
runs alternate within each repeat, so load from other processes hits all three alike; on
a busy machine raise ``--repeat``. Why a script and not a test: timings on a shared CI
box are noise, not a verdict.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.contract.providers import CHAT_DIALECTS
from harness.crosscheck import PROVIDERS, crosscheck, recorded_calls, sdk_accumulate
from harness.providers import get_parser
from harness.providers.replay import load_exchanges
from harness.stream.drive import parse_bytes

CASSETTES = Path(__file__).resolve().parent.parent / "cassettes"
TARGET_VS_SDK = 10.0
TARGET_VS_FLOOR = 3.0
MIN_SAMPLE = 0.005  # seconds


# ---------------------------------------------------------------- synthetic streams


def _sse(payloads: list[dict[str, Any]], *, events: bool = False, tail: bytes = b"") -> bytes:
    compact = json.JSONEncoder(separators=(",", ":")).encode
    lines = [(f"event: {p['type']}\n" if events else "") + f"data: {compact(p)}\n\n" for p in payloads]
    return "".join(lines).encode() + tail


def _words(count: int) -> list[str]:
    return [f"w{i} " for i in range(count)]


def _arg_fragments(count: int) -> list[str]:
    """``count`` fragments that join to one JSON object (a city, then a long padded string)."""
    fragments = ['{"city": "Paris", "pad": "'] + [f"x{i % 10}" for i in range(count - 2)] + ['"}']
    return fragments[:count] if count >= 2 else ["{}"]


def synthetic_chat(n: int, *, openrouter: bool = False) -> bytes:
    head: dict[str, Any] = {
        "id": "chatcmpl-bench",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
    }
    if openrouter:
        head = {**head, "id": "gen-bench", "provider": "OpenAI", "model": "openai/gpt-4.1-mini"}
    text, args = n // 2, n - n // 2 - 4

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}]}

    payloads = [chunk({"role": "assistant", "content": ""})]
    payloads += [chunk({"content": w}) for w in _words(text)]
    call = {
        "index": 0,
        "id": "call_bench",
        "type": "function",
        "function": {"name": "get_weather", "arguments": ""},
    }
    payloads.append(chunk({"tool_calls": [call]}))
    payloads += [
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": f}}]}) for f in _arg_fragments(args)
    ]
    payloads.append(chunk({}, "tool_calls"))
    usage: dict[str, Any] = {"prompt_tokens": 12, "completion_tokens": n, "total_tokens": n + 12}
    if openrouter:
        usage["cost"] = 0.0001
    payloads.append({**head, "choices": [], "usage": usage})
    prefix = b": OPENROUTER PROCESSING\n\n" if openrouter else b""
    return prefix + _sse(payloads, tail=b"data: [DONE]\n\n")


def synthetic_responses(n: int) -> bytes:
    text, args = n // 2, n - n // 2 - 12
    words, fragments = _words(text), _arg_fragments(args)
    full_text, full_args = "".join(words), "".join(fragments)
    response: dict[str, Any] = {"id": "resp_bench", "object": "response", "created_at": 1, "model": "gpt-5"}
    message: dict[str, Any] = {
        "id": "msg_bench",
        "type": "message",
        "role": "assistant",
        "status": "in_progress",
        "content": [],
    }
    done_text: dict[str, Any] = {"type": "output_text", "text": full_text, "annotations": [], "logprobs": []}
    done_message: dict[str, Any] = {**message, "status": "completed", "content": [done_text]}
    call = {"id": "fc_bench", "type": "function_call", "call_id": "call_bench", "name": "get_weather"}
    done_call = {**call, "arguments": full_args, "status": "completed"}
    at = {"item_id": "msg_bench", "output_index": 0, "content_index": 0}
    usage = {
        "input_tokens": 12,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": n,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": n + 12,
    }
    payloads: list[dict[str, Any]] = [
        {"type": "response.created", "response": {**response, "status": "in_progress", "output": []}},
        {"type": "response.in_progress", "response": {**response, "status": "in_progress", "output": []}},
        {"type": "response.output_item.added", "output_index": 0, "item": message},
        {"type": "response.content_part.added", **at, "part": {**done_text, "text": ""}},
    ]
    payloads += [{"type": "response.output_text.delta", **at, "delta": w, "logprobs": []} for w in words]
    payloads += [
        {"type": "response.output_text.done", **at, "text": full_text, "logprobs": []},
        {"type": "response.content_part.done", **at, "part": done_text},
        {"type": "response.output_item.done", "output_index": 0, "item": done_message},
        {"type": "response.output_item.added", "output_index": 1, "item": {**call, "arguments": ""}},
    ]
    payloads += [
        {
            "type": "response.function_call_arguments.delta",
            "item_id": "fc_bench",
            "output_index": 1,
            "delta": f,
        }
        for f in fragments
    ]
    payloads += [
        {
            "type": "response.function_call_arguments.done",
            "item_id": "fc_bench",
            "output_index": 1,
            "arguments": full_args,
        },
        {"type": "response.output_item.done", "output_index": 1, "item": done_call},
        {
            "type": "response.completed",
            "response": {
                **response,
                "status": "completed",
                "output": [done_message, done_call],
                "usage": usage,
            },
        },
    ]
    for number, payload in enumerate(payloads):
        payload["sequence_number"] = number
    return _sse(payloads, events=True)


def synthetic_anthropic(n: int) -> bytes:
    text, args = n // 2, n - n // 2 - 8
    message: dict[str, Any] = {
        "id": "msg_bench",
        "type": "message",
        "role": "assistant",
        "model": "claude-bench",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 12, "output_tokens": 1},
    }
    payloads: list[dict[str, Any]] = [
        {"type": "message_start", "message": message},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    ]
    payloads += [
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": w}}
        for w in _words(text)
    ]
    tool: dict[str, Any] = {"type": "tool_use", "id": "toolu_bench", "name": "get_weather", "input": {}}
    payloads += [
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 1, "content_block": tool},
    ]
    payloads += [
        {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": f}}
        for f in _arg_fragments(args)
    ]
    payloads += [
        {"type": "content_block_stop", "index": 1},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": n}},
        {"type": "message_stop"},
    ]
    return _sse(payloads, events=True)


def synthetic_gemini(n: int) -> bytes:
    payloads: list[dict[str, Any]] = []
    for i, word in enumerate(_words(n)):
        candidate: dict[str, Any] = {"content": {"role": "model", "parts": [{"text": word}]}, "index": 0}
        if i == n - 1:
            candidate["finishReason"] = "STOP"
        usage = {"promptTokenCount": 12, "candidatesTokenCount": i + 1, "totalTokenCount": i + 13}
        payloads.append(
            {
                "candidates": [candidate],
                "usageMetadata": usage,
                "modelVersion": "gemini-2.5-flash",
                "responseId": "r",
            }
        )
    return _sse(payloads)


# ---------------------------------------------------------------- timing


@dataclass
class Row:
    name: str
    provider: str
    events: int
    size: int
    ours: float  # best seconds
    sdk: float
    floor: float

    def rate(self, seconds: float) -> float:
        return self.events / seconds if seconds else float("inf")


def synthetic_bedrock(n: int) -> bytes:
    """A ConverseStream body of about ``n`` AWS event-stream frames: text deltas, then a tool call's
    input fragments (frames written by the Bedrock emitter, ``harness.emit.bedrock.frame``)."""
    from harness.emit.bedrock import frame

    text, args = n // 2, n - n // 2 - 7
    frames = [frame("messageStart", {"role": "assistant"})]
    frames += [
        frame("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": w}}) for w in _words(text)
    ]
    frames.append(frame("contentBlockStop", {"contentBlockIndex": 0}))
    start = {"toolUse": {"name": "get_weather", "toolUseId": "tooluse_bench"}}
    frames.append(frame("contentBlockStart", {"contentBlockIndex": 1, "start": start}))
    frames += [
        frame("contentBlockDelta", {"contentBlockIndex": 1, "delta": {"toolUse": {"input": f}}})
        for f in _arg_fragments(args)
    ]
    frames.append(frame("contentBlockStop", {"contentBlockIndex": 1}))
    frames.append(frame("messageStop", {"stopReason": "tool_use"}))
    usage = {"inputTokens": 12, "outputTokens": n, "totalTokens": 12 + n}
    frames.append(frame("metadata", {"metrics": {"latencyMs": 1}, "usage": usage}))
    return b"".join(frames)


#: One synthetic stream per provider id. The Chat Completions dialects get the Chat stream: their
#: parsers read that wire, and their clients accumulate it with openai's SDK (``sdk_provider``).
SYNTHETIC: dict[str, Callable[[int], bytes]] = {
    "anthropic": synthetic_anthropic,
    "gemini": synthetic_gemini,
    "openai-chat": synthetic_chat,
    "openai-responses": synthetic_responses,
    "openrouter": lambda n: synthetic_chat(n, openrouter=True),
    "bedrock": synthetic_bedrock,
    **{dialect: synthetic_chat for dialect in CHAT_DIALECTS},
}


def sdk_provider(provider: str) -> str:
    """The SDK that accumulates ``provider``'s stream: the dialects publish no accumulator (mistralai,
    groq and cerebras-cloud-sdk hand out chunks; DeepSeek, Z.ai and Hugging Face's router publish no
    SDK), so their callers' accumulation is openai's Chat one (as ``harness.crosscheck`` judges them)."""
    return "openai-chat" if provider in CHAT_DIALECTS else provider


def sdk_run(provider: str, body: bytes) -> object:
    """The official client's reading of ``body``: botocore's decoding and event parsing for Bedrock
    (``harness.crosscheck.bedrock``), the SDK accumulators for the others."""
    if provider == "bedrock":
        from harness.crosscheck.bedrock import botocore_accumulate

        return botocore_accumulate(body, 65536)  # urllib3 hands botocore 64 KiB reads (stream(amt=2**16))
    return sdk_accumulate(sdk_provider(provider), body)


def same_work(provider: str, body: bytes) -> str | None:
    """Why ours and the SDK would not do the same work on ``body`` (None: they agree on the message)."""
    if provider == "bedrock":
        from harness.crosscheck.bedrock import botocore_accumulate, project

        sdk = botocore_accumulate(body)
        ours = project(parse_bytes(get_parser(provider), body).message)
        return None if ours == [p for b in sdk["blocks"] for p in b["pieces"]] else "differs from botocore's"
    verdict = crosscheck(sdk_provider(provider), body)
    if not verdict.ok:
        return str(verdict)
    if provider in CHAT_DIALECTS:  # the dialect's parser gives openai-chat's message on the Chat wire
        same = (
            parse_bytes(get_parser(provider), body).message
            == parse_bytes(get_parser("openai-chat"), body).message
        )
        return None if same else "the dialect's message differs from openai-chat's"
    return None


def data_lines(body: bytes) -> list[str]:
    """The JSON payloads of a body's ``data:`` lines, split and decoded ahead of timing (the floor's input).

    Text, not bytes: ``json.loads(bytes)`` spends most of its extra time detecting the
    encoding, which is no part of parsing JSON, so text gives the lower, stricter floor.
    """
    out: list[str] = []
    if body[:1] == b"\x00":  # AWS event-stream frames (Bedrock): the frames' JSON payloads
        from harness.stream.eventstream import EventStreamDecoder

        return [m.payload.decode("utf-8") for m in EventStreamDecoder(strict=True).feed(body)]
    for line in body.decode("utf-8").splitlines():
        if line.startswith("data:"):
            payload = line[5:].strip()
            if payload and payload != "[DONE]":
                out.append(payload)
    return out


def measure(
    name: str, provider: str, bodies: list[bytes], repeat: int, clock: Callable[[], float] = time.perf_counter
) -> Row:
    """Seconds per pass, best of ``repeat`` for each way.

    The three alternate within a repeat so load drift hits all alike; a sample loops a
    short pass until it lasts ``MIN_SAMPLE``, so tiny bodies are not timer noise.
    """
    parser = get_parser(provider)
    lines = [data_lines(body) for body in bodies]
    loads = json.loads

    def run_ours() -> None:
        for body in bodies:
            parse_bytes(parser, body)

    def run_sdk() -> None:
        for body in bodies:
            sdk_run(provider, body)

    def run_floor() -> None:
        for group in lines:
            for line in group:
                loads(line)

    runs = (run_ours, run_sdk, run_floor)
    loops: list[int] = []
    for run in runs:  # warm-up (imports, client construction, caches), then loops per sample
        start = clock()
        run()
        loops.append(max(1, math.ceil(MIN_SAMPLE / max(clock() - start, 1e-9))))
    best = [float("inf")] * len(runs)
    for _ in range(repeat):
        for n, run in enumerate(runs):
            start = clock()
            for _ in range(loops[n]):
                run()
            best[n] = min(best[n], (clock() - start) / loops[n])
    return Row(
        name,
        provider,
        events=sum(len(group) for group in lines),
        size=sum(len(body) for body in bodies),
        ours=best[0],
        sdk=best[1],
        floor=best[2],
    )


def real_cases() -> list[tuple[str, str, list[bytes]]]:
    """Every cassette's streamed model-call bodies (a non-streamed JSON body has no stream to parse)."""
    cases: list[tuple[str, str, list[bytes]]] = []
    for path in sorted(CASSETTES.glob("*/*.yaml")):
        provider = path.parent.name
        exchanges = [e for e in load_exchanges(path, provider) if e.is_model_call]
        streamed = [
            c for c in recorded_calls(provider, path.stem, exchanges) if not c.body.lstrip().startswith(b"{")
        ]
        # each call with the provider that judges it (OpenRouter's /responses calls: the Responses SDK)
        for judge in sorted({c.provider for c in streamed}):
            bodies = [c.body for c in streamed if c.provider == judge]
            label = f"{provider}/{path.stem}" + (f" (as {judge})" if judge != provider else "")
            cases.append((label, judge, bodies))
    return cases


# ---------------------------------------------------------------- report


HEADERS = ("stream", "events", "KB", "ours ev/s", "SDK ev/s", "floor ev/s", "ours/SDK", "floor/ours")


def cells(row: Row) -> tuple[str, ...]:
    return (
        row.name,
        str(row.events),
        f"{row.size / 1024:.0f}",
        f"{row.rate(row.ours):,.0f}",
        f"{row.rate(row.sdk):,.0f}",
        f"{row.rate(row.floor):,.0f}",
        f"{row.sdk / row.ours:.1f}x",
        f"{row.ours / row.floor:.2f}x",
    )


def total(rows: list[Row], name: str) -> Row:
    return Row(
        name,
        "",
        sum(r.events for r in rows),
        sum(r.size for r in rows),
        sum(r.ours for r in rows),
        sum(r.sdk for r in rows),
        sum(r.floor for r in rows),
    )


def print_markdown(sections: list[tuple[str, list[Row]]]) -> None:
    for title, rows in sections:
        print(f"\n{title}\n")
        print("| " + " | ".join(HEADERS) + " |")
        print("|" + "|".join("---" if i == 0 else "---:" for i in range(len(HEADERS))) + "|")
        for row in rows:
            print("| " + " | ".join(cells(row)) + " |")


def print_rich(sections: list[tuple[str, list[Row]]]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.width = max(console.width, 124)  # a piped or narrow terminal would truncate the names
    for title, rows in sections:
        table = Table(title=title, title_justify="left")
        for i, header in enumerate(HEADERS):
            table.add_column(header, justify="left" if i == 0 else "right")
        for row in rows:
            vs_sdk, vs_floor = row.sdk / row.ours, row.ours / row.floor
            style = "" if vs_sdk >= TARGET_VS_SDK and vs_floor <= TARGET_VS_FLOOR else "yellow"
            table.add_row(*cells(row), style=style)
        console.print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--events", type=int, default=2000, help="events per synthetic stream (default 2000)")
    parser.add_argument("--repeat", type=int, default=5, help="repeats; the best is kept (default 5)")
    parser.add_argument(
        "--markdown", action="store_true", help="print Markdown tables (for benchmarks/README.md)"
    )
    parser.add_argument("--no-real", action="store_true", help="skip the cassette bodies")
    args = parser.parse_args(argv)

    synthetic: list[Row] = []
    for provider in PROVIDERS:
        body = SYNTHETIC[provider](args.events)
        problem = same_work(provider, body)  # same work on both sides, or the numbers mean nothing
        if problem is not None:
            print(f"warning: synthetic {provider} stream: {problem}", file=sys.stderr)
        synthetic.append(measure(f"{provider} (synthetic)", provider, [body], args.repeat))
    sections = [(f"Synthetic streams (~{args.events} events), best of {args.repeat}", synthetic)]
    if not args.no_real:
        real = [measure(name, provider, bodies, args.repeat) for name, provider, bodies in real_cases()]
        by_provider = [total([r for r in real if r.provider == p], f"{p} (all cassettes)") for p in PROVIDERS]
        sections.append((f"Cassette model-call bodies, best of {args.repeat}", real))
        sections.append(("Cassettes per provider (sums)", by_provider))
    load = ", load average {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()) if hasattr(os, "getloadavg") else ""
    print(f"Python {platform.python_version()}, {os.cpu_count()} CPUs{load}")
    (print_markdown if args.markdown else print_rich)(sections)
    missed = [
        r.name for r in synthetic if r.sdk / r.ours < TARGET_VS_SDK or r.ours / r.floor > TARGET_VS_FLOOR
    ]
    if missed:
        print(
            f"\ntargets (ours >= {TARGET_VS_SDK:g}x SDK, <= {TARGET_VS_FLOOR:g}x floor) missed: {', '.join(missed)}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
