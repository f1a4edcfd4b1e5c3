"""Anthropic output adapter on the committed cassettes (real recordings, scrubbed).

The final message of every recorded call is checked against the anthropic SDK's own
accumulation (``get_final_message``) in ``tests/test_crosscheck.py``; this module pins
the Anthropic-specific behaviour; chunk-boundary invariance and bad endings on real bytes are
in ``tests/test_stream_endings.py``, for every provider.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from anthropic.types import Message

from harness.crosscheck import crosscheck, project_ours, sdk_accumulate
from harness.model import ServerToolCallPart, TextPart, ThinkingSignaturePart, ThinkingTextPart, ToolCallPart
from harness.providers.anthropic.stream import PARSER, AnthropicParser
from harness.stream.base import TextDelta, ThinkingDelta, ToolCallStart
from harness.stream.drive import parse_bytes
from tests.support.cassettes import recorded_calls_of

PROVIDER = "anthropic"
RECORDINGS: dict[str, bytes] = {call_id: call.body for call_id, call in recorded_calls_of(PROVIDER).items()}
IDS = sorted(RECORDINGS)


# ---------------------------------------------------------------- (a) real recordings


def test_recordings_found() -> None:
    assert len(RECORDINGS) >= 6


@pytest.mark.parametrize("rec", IDS)
def test_stream_items_follow_the_parts(rec: str) -> None:
    result = parse_bytes(PARSER, RECORDINGS[rec])
    text = "".join(i.text for i in result.items if isinstance(i, TextDelta))
    thinking = "".join(i.text for i in result.items if isinstance(i, ThinkingDelta))
    starts = [(i.call_id, i.tool_name) for i in result.items if isinstance(i, ToolCallStart)]
    parts = result.message.parts
    assert text == "".join(p.text for p in parts if isinstance(p, TextPart))
    assert thinking == "".join(p.text for p in parts if isinstance(p, ThinkingTextPart))
    assert starts == [(p.call_id, p.tool_name) for p in parts if isinstance(p, ToolCallPart)]


@pytest.mark.parametrize("rec", IDS)
def test_non_streamed_body_gives_the_same_message(rec: str) -> None:
    """The SDK's final ``Message``, fed back as a non-streamed body, maps to the same message."""
    message = sdk_accumulate(PROVIDER, RECORDINGS[rec])
    assert isinstance(message, Message)
    parser = AnthropicParser()
    parser.feed_response(message.model_dump(mode="json"))
    result = parser.finish()
    assert result.errors == []
    assert project_ours(result) == project_ours(parse_bytes(PARSER, RECORDINGS[rec]))


def test_partial_json_split_mid_token_is_kept_byte_exact() -> None:
    result = parse_bytes(PARSER, RECORDINGS["anthropic-pai__sonnet45_thinking_tool_use_roundtrip-0"])
    call = result.message.parts[-1]
    assert isinstance(call, ToolCallPart)
    assert call.arguments_json == '{"city": "Utrecht"}'
    assert result.message.stop_reason == "tool_use"


def test_no_args_tool_gets_an_empty_object() -> None:
    result = parse_bytes(PARSER, RECORDINGS["anthropic-vercelai__anthropic-tool-no-args-0"])
    calls = [p for p in result.message.parts if isinstance(p, ToolCallPart)]
    assert [(c.tool_name, c.arguments_json) for c in calls] == [("updateIssueList", "{}")]


def test_empty_thinking_delta_before_signature_pairs_the_signature() -> None:
    result = parse_bytes(PARSER, RECORDINGS["anthropic-pai__sonnet40_thinking_then_text-0"])
    kinds = [p.type for p in result.message.parts]
    assert kinds == ["thinking_text", "thinking_signature", "text"]


# ---------------------------------------------------------------- synthetic events the recordings lack


def _events(*payloads: dict[str, Any]) -> bytes:
    return b"".join(f"event: {p['type']}\ndata: {json.dumps(p)}\n\n".encode() for p in payloads)


def _start(**usage: int) -> dict[str, Any]:
    message: dict[str, Any] = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-x",
        "content": [],
    }
    return {"type": "message_start", "message": {**message, "usage": {"input_tokens": 5, **usage}}}


START = _start()
STOP = {"type": "message_stop"}


def _delta_stop(reason: str) -> dict[str, Any]:
    return {"type": "message_delta", "delta": {"stop_reason": reason}, "usage": {"output_tokens": 3}}


def test_redacted_thinking_is_a_signature_only_part() -> None:
    body = _events(
        START,
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "redacted_thinking", "data": "EmwK=="},
        },
        {"type": "content_block_stop", "index": 0},
        _delta_stop("end_turn"),
        STOP,
    )
    result = parse_bytes(PARSER, body)
    assert result.message.parts == [
        ThinkingSignaturePart(signature="EmwK==", format="anthropic-redacted", model_id="claude-x")
    ]
    assert crosscheck(PROVIDER, body).ok


def test_cache_tokens_count_as_input() -> None:
    start = _start(cache_read_input_tokens=100, cache_creation_input_tokens=20)
    body = _events(start, _delta_stop("max_tokens"), STOP)
    result = parse_bytes(PARSER, body)
    assert crosscheck(PROVIDER, body).ok
    usage = result.message.usage
    assert usage is not None
    assert (usage.input_tokens, usage.cached_input_tokens, usage.cache_creation_input_tokens) == (
        125,
        100,
        20,
    )
    assert usage.output_tokens == 3
    assert result.message.stop_reason == "length"


def test_refusal_is_an_error_with_the_partial_text_kept() -> None:
    body = _events(
        START,
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": "I "}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "won't"}},
        {"type": "content_block_stop", "index": 0},
        _delta_stop("refusal"),
        STOP,
    )
    result = parse_bytes(PARSER, body)
    assert result.message.stop_reason == "error"
    assert result.message.parts == [TextPart(text="I won't")]
    assert len(result.errors) == 1
    assert "refusal" in result.errors[0].error_message


def test_server_tool_use_is_a_server_tool_call_never_a_client_one() -> None:
    body = _events(
        START,
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {
                "type": "server_tool_use",
                "id": "srvtoolu_1",
                "name": "web_search",
                "input": {},
            },
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": '{"q":1}'},
        },
        {"type": "content_block_stop", "index": 0},
        _delta_stop("end_turn"),
        STOP,
    )
    result = parse_bytes(PARSER, body)
    assert result.message.parts == [
        ServerToolCallPart(
            call_id="srvtoolu_1",
            tool_name="web_search",
            provider="anthropic",
            input_json='{"q":1}',
            raw={"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"q": 1}},
        )
    ]
    assert result.message.stop_reason == "stop"
    assert not any(isinstance(p, ToolCallPart) for p in result.message.parts)


# ---------------------------------------------------------------- bad endings (generic ones: test_stream_endings.py)


def test_eof_right_before_message_stop() -> None:
    body = RECORDINGS["anthropic-pai__sonnet45_thinking_tool_use_roundtrip-0"]
    events = [event + b"\n\n" for event in body.split(b"\n\n") if event.strip()]
    result = parse_bytes(PARSER, b"".join(events[:-1]))
    assert result.message.stop_reason == "error"
    assert len(result.errors) == 1 and "ended before the final event" in result.errors[0].error_message
    assert [p.type for p in result.message.parts] == ["thinking_text", "thinking_signature", "tool_call"]


def test_error_body_when_not_streamed() -> None:
    parser = AnthropicParser()
    parser.feed_response({"type": "error", "error": {"type": "invalid_request_error", "message": "bad"}})
    result = parser.finish()
    assert result.message.stop_reason == "error"
    assert len(result.errors) == 1 and "invalid_request_error: bad" in result.errors[0].error_message
    assert result.errors[0].can_retry is False
