"""OpenAI Chat Completions output adapter on the committed cassettes (real recordings, scrubbed).

The final message of every recorded call is checked against the openai SDK's own
accumulation (``ChatCompletionStreamState``) in ``tests/test_crosscheck.py``; this module
pins the Chat-specific behaviour. Chunk-boundary invariance and bad endings on real bytes are
in ``tests/test_stream_endings.py``, for every provider.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from openai.types.chat import ChatCompletion

from harness.crosscheck import crosscheck, sdk_accumulate
from harness.model import FilePart, TextPart, ThinkingTextPart, ToolCallPart, UserMessage
from harness.params import CallParams
from harness.providers.openai_chat.stream import PARSER, OpenAIChatParser
from harness.stream.base import TextDelta, ThinkingDelta, ToolCallStart
from harness.stream.drive import parse_bytes
from harness.targets import get_target
from tests.support.cassettes import recorded_calls_of

PROVIDER = "openai-chat"
RECORDINGS: dict[str, bytes] = {call_id: call.body for call_id, call in recorded_calls_of(PROVIDER).items()}
IDS = sorted(RECORDINGS)


def sdk_final(body: bytes) -> ChatCompletion:
    completion = sdk_accumulate(PROVIDER, body)
    assert isinstance(completion, ChatCompletion)
    return completion


# ---------------------------------------------------------------- (a) real recordings


def test_recordings_found() -> None:
    """OpenAI's own streams only: DeepSeek's and Groq's recordings are their providers'."""
    assert len(RECORDINGS) >= 2


@pytest.mark.parametrize("rec", IDS)
def test_stream_items_follow_the_parts(rec: str) -> None:
    result = parse_bytes(PARSER, RECORDINGS[rec])
    parts = result.message.parts
    assert "".join(i.text for i in result.items if isinstance(i, TextDelta)) == "".join(
        p.text for p in parts if isinstance(p, TextPart)
    )
    assert "".join(i.text for i in result.items if isinstance(i, ThinkingDelta)) == "".join(
        p.text for p in parts if isinstance(p, ThinkingTextPart)
    )
    starts = [(i.call_id, i.tool_name) for i in result.items if isinstance(i, ToolCallStart)]
    assert starts == [(p.call_id, p.tool_name) for p in parts if isinstance(p, ToolCallPart)]


@pytest.mark.parametrize("rec", IDS)
def test_non_streamed_body_gives_the_same_message(rec: str) -> None:
    completion = sdk_final(RECORDINGS[rec])
    parser = OpenAIChatParser()
    parser.feed_response(completion.model_dump(mode="json"))
    result = parser.finish()
    assert result.errors == []
    assert result.message == parse_bytes(PARSER, RECORDINGS[rec]).message


# ---------------------------------------------------------------- synthetic chunks the recordings lack


HEAD = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m"}


def _chunks(
    *deltas: dict[str, Any], finish: str | None = "stop", usage: bool = True, done: bool = True
) -> bytes:
    out: list[dict[str, Any]] = [
        {**HEAD, "choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in deltas
    ]
    if finish:
        out.append({**HEAD, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
    if usage:
        out.append(
            {**HEAD, "choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}
        )
    body = b"".join(f"data: {json.dumps(c)}\n\n".encode() for c in out)
    return body + (b"data: [DONE]\n\n" if done else b"")


def test_parallel_tool_calls_by_index() -> None:
    body = _chunks(
        {
            "tool_calls": [
                {"index": 0, "id": "a", "type": "function", "function": {"name": "f", "arguments": ""}}
            ]
        },
        {
            "tool_calls": [
                {"index": 1, "id": "b", "type": "function", "function": {"name": "g", "arguments": "{}"}}
            ]
        },
        {"tool_calls": [{"index": 0, "function": {"arguments": '{"x":'}}]},
        {"tool_calls": [{"index": 0, "function": {"arguments": "1}"}}]},
        finish="tool_calls",
    )
    result = parse_bytes(PARSER, body)
    calls = [
        (p.call_id, p.tool_name, p.arguments_json)
        for p in result.message.parts
        if isinstance(p, ToolCallPart)
    ]
    assert calls == [("a", "f", '{"x":1}'), ("b", "g", "{}")]
    assert [i for i in result.items if isinstance(i, ToolCallStart)] == [
        ToolCallStart("a", "f"),
        ToolCallStart("b", "g"),
    ]
    assert crosscheck(PROVIDER, body).ok


def test_repeated_id_and_name_are_not_concatenated() -> None:
    call = {"index": 0, "id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    body = _chunks({"tool_calls": [call]}, {"tool_calls": [call]}, finish="tool_calls")
    result = parse_bytes(PARSER, body)
    assert result.message.parts == [ToolCallPart(call_id="a", tool_name="f", arguments_json="{}{}")]
    assert result.items == [ToolCallStart("a", "f")]
    sdk_call = (sdk_final(body).choices[0].message.tool_calls or [])[0]
    assert sdk_call.id == "aa"  # the documented difference: the SDK's generic merge concatenates
    verdict = crosscheck(PROVIDER, body)
    assert verdict.ok and "chat-first-id-and-name" in verdict.applied


def test_text_after_thinking_after_text_keeps_stream_order() -> None:
    result = parse_bytes(PARSER, _chunks({"content": "a"}, {"reasoning": "r"}, {"content": "b"}))
    assert [p.type for p in result.message.parts] == ["text", "thinking_text", "text"]


def test_content_filter_is_an_error_with_partial_text() -> None:
    result = parse_bytes(PARSER, _chunks({"content": "partial"}, finish="content_filter"))
    assert result.message.stop_reason == "error"
    assert result.message.parts == [TextPart(text="partial")]
    assert len(result.errors) == 1 and "content_filter" in result.errors[0].error_message


def test_finish_reason_length() -> None:
    assert parse_bytes(PARSER, _chunks({"content": "x"}, finish="length")).message.stop_reason == "length"


def test_finish_without_usage_or_done_is_truncated() -> None:
    result = parse_bytes(PARSER, _chunks({"content": "x"}, usage=False, done=False))
    assert result.message.stop_reason == "error"
    assert "ended before the final event" in result.errors[0].error_message


def test_cached_and_cache_write_tokens() -> None:
    chunk: dict[str, Any] = {
        "id": "c1",
        "choices": [],
        "usage": {
            "prompt_tokens": 100,
            "completion_tokens": 10,
            "total_tokens": 110,
            "prompt_tokens_details": {"cached_tokens": 60, "cache_write_tokens": 30},
            "completion_tokens_details": {"reasoning_tokens": 4},
        },
    }
    body = _chunks({"content": "x"}, usage=False) + f"data: {json.dumps(chunk)}\n\n".encode()
    usage = parse_bytes(PARSER, body).message.usage
    assert usage is not None
    assert usage.model_dump() == {
        "input_tokens": 100,
        "output_tokens": 10,
        "cached_input_tokens": 60,
        "cache_creation_input_tokens": 30,
        "reasoning_tokens": 4,
        "total_tokens": 110,
    }


def test_an_integer_past_64_bits_is_read_exactly() -> None:
    """orjson (the parsers' fast path) reads 10**30 as the float 1e30; ``json.loads`` keeps the integer."""
    chunk: dict[str, Any] = {
        "id": "c1",
        "choices": [],
        "usage": {"prompt_tokens": 10**30, "completion_tokens": 2**64, "total_tokens": 10**30 + 2**64},
    }
    body = _chunks({"content": "x"}, usage=False) + f"data: {json.dumps(chunk)}\n\n".encode()
    usage = parse_bytes(PARSER, body).message.usage
    assert usage is not None
    assert (usage.input_tokens, usage.output_tokens) == (10**30, 2**64)


def test_error_body_when_not_streamed() -> None:
    parser = OpenAIChatParser()
    parser.feed_response({"error": {"message": "Rate limit", "type": "rate_limit_error", "code": 429}})
    result = parser.finish()
    assert result.message.stop_reason == "error"
    assert len(result.errors) == 1 and result.errors[0].can_retry is True


def test_assistant_audio_becomes_a_file_part_and_goes_back_by_id() -> None:
    """Synthetic (no recorded Chat audio output exists in the evidence): delta.audio pieces as
    guides/audio documents them (id, data chunks, transcript) -> one file part with the audio id,
    the transcript as text; the adapter replays the audio as ``audio: {id}``."""
    body = _chunks(
        {"role": "assistant", "audio": {"id": "audio_abc", "transcript": "Hel"}},
        {"audio": {"data": "UklGRiQA", "transcript": "lo"}},
        {"audio": {"data": "AABXQVZF"}},
        finish="stop",
    )
    result = parse_bytes(PARSER, body)
    files = [p for p in result.message.parts if isinstance(p, FilePart)]
    assert [(f.id, f.data, f.media_type) for f in files] == [("audio_abc", "UklGRiQAAABXQVZF", "audio/*")]
    assert "".join(p.text for p in result.message.parts if isinstance(p, TextPart)) == "Hello"
    history = [
        UserMessage(parts=[TextPart(text="Say hello")]),
        result.message,
        UserMessage(parts=[TextPart(text="Again")]),
    ]
    rendered = get_target("reference").render(
        "openai-chat", history, CallParams(model="gpt-4o-audio-preview")
    )
    assistant = rendered.body["messages"][1]
    assert assistant["audio"] == {"id": "audio_abc"} and assistant["content"] == "Hello"
