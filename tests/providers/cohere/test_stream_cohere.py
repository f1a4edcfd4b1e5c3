"""Cohere v2 Chat output adapter: the recorded responses (non-streamed; no Cohere stream is
recorded) give one message each, and synthetic SSE streams (labelled so: written here from the
documented event types) give what the events say."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from harness.providers import get_parser
from harness.providers.replay import replay_file
from harness.stream.drive import parse_bytes
from harness.traffic.calibrate import calibrate

ROOT = Path(__file__).resolve().parents[3]
RECORDED = sorted(p for p in (ROOT / "traffic" / "pydantic-ai-more").glob("*cohere*.yaml"))


def _sse(*events: dict[str, Any]) -> bytes:
    """Synthetic: SSE events in Cohere's documented framing (``event: <type>`` and the JSON data)."""
    return b"".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events)


def _delta_of(**message: Any) -> dict[str, Any]:
    return {"message": message}


def test_the_recordings_are_all_here() -> None:
    assert len(RECORDED) == 7


@pytest.mark.parametrize("path", RECORDED, ids=lambda p: p.stem)
def test_each_recorded_response_gives_one_message(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    results = replay_file(path, None)
    assert len(results) == text.count("uri: https://api.cohere.com/v2/chat")
    for result in results:
        assert result.errors == []
        assert result.message.stop_reason in ("stop", "tool_use")
        assert result.message.usage is not None and result.message.usage.input_tokens > 0


def test_a_recorded_tool_call_keeps_its_plan_id_and_usage() -> None:
    path = next(p for p in RECORDED if "required-cohere" in p.name)
    (result,) = replay_file(path, None)
    dumped = [p.model_dump(exclude_none=True) for p in result.message.parts]
    assert dumped == [
        {"type": "text", "text": "I will use one or more of the available tools to find the answer"},
        {
            "type": "tool_call",
            "call_id": "get_weather_3p2j6ce4gxxx",
            "tool_name": "get_weather",
            "arguments_json": '{"city":"Paris"}',
        },
    ]
    assert result.message.response_id == "104628b4-077a-4d6d-8507-c7294fdc43be"
    usage = result.message.usage
    assert usage is not None
    assert (usage.input_tokens, usage.output_tokens, usage.cached_input_tokens) == (1452, 33, 144)


def test_calibration_passes_every_accepted_cohere_request() -> None:
    result = calibrate(RECORDED)
    assert result.ok and result.accepted.get("cohere") == 8 and not result.skipped


def test_a_synthetic_stream_with_thinking_plan_and_calls() -> None:
    body = _sse(
        {"type": "message-start", "id": "m1", "delta": _delta_of(role="assistant")},
        {
            "type": "content-start",
            "index": 0,
            "delta": _delta_of(content={"type": "thinking", "thinking": ""}),
        },
        {"type": "content-delta", "index": 0, "delta": _delta_of(content={"thinking": "need "})},
        {"type": "content-delta", "index": 0, "delta": _delta_of(content={"thinking": "weather"})},
        {"type": "content-end", "index": 0},
        {"type": "tool-plan-delta", "delta": _delta_of(tool_plan="I will ")},
        {"type": "tool-plan-delta", "delta": _delta_of(tool_plan="check.")},
        {
            "type": "tool-call-start",
            "index": 0,
            "delta": _delta_of(
                tool_calls={"id": "c1", "type": "function", "function": {"name": "w", "arguments": ""}}
            ),
        },
        {
            "type": "tool-call-delta",
            "index": 0,
            "delta": _delta_of(tool_calls={"function": {"arguments": '{"a":'}}),
        },
        {
            "type": "tool-call-delta",
            "index": 0,
            "delta": _delta_of(tool_calls={"function": {"arguments": "1}"}}),
        },
        {"type": "tool-call-end", "index": 0},
        {
            "type": "message-end",
            "delta": {
                "finish_reason": "TOOL_CALL",
                "usage": {"tokens": {"input_tokens": 9, "output_tokens": 4}},
            },
        },
    )
    result = parse_bytes(get_parser("cohere"), body)
    assert result.errors == []
    parts = [p.model_dump(exclude_none=True) for p in result.message.parts]
    assert parts == [
        {"type": "thinking_text", "text": "need weather"},
        {"type": "text", "text": "I will check."},
        {"type": "tool_call", "call_id": "c1", "tool_name": "w", "arguments_json": '{"a":1}'},
    ]
    assert (result.message.stop_reason, result.message.response_id) == ("tool_use", "m1")


def test_a_stream_without_message_end_or_with_an_error_ends_in_error() -> None:
    start = {"type": "message-start", "id": "m1", "delta": _delta_of(role="assistant")}
    text = {"type": "content-start", "index": 0, "delta": _delta_of(content={"type": "text", "text": "hi"})}
    cut = parse_bytes(get_parser("cohere"), _sse(start, text))
    assert cut.message.stop_reason == "error" and cut.errors
    failed = parse_bytes(
        get_parser("cohere"),
        _sse(
            start, text, {"type": "message-end", "delta": {"finish_reason": "ERROR", "error": "overloaded"}}
        ),
    )
    assert failed.message.stop_reason == "error" and "overloaded" in failed.errors[0].error_message
    capped = parse_bytes(
        get_parser("cohere"),
        _sse(start, text, {"type": "message-end", "delta": {"finish_reason": "MAX_TOKENS"}}),
    )
    assert capped.message.stop_reason == "length" and capped.errors == []
