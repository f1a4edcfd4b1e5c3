"""OpenAI Chat Completions output adapter on real recorded streams, against the openai SDK.

Oracle: the recorded bytes served through an ``httpx2.MockTransport`` to
``openai.OpenAI().chat.completions.stream(...)``; ``get_final_completion()`` is the
SDK's own accumulation (``ChatCompletionStreamState``; notes/oracles.md, section 3).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import httpx2
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from openai import OpenAI
from openai.types.chat import ChatCompletion

from harness.model import TextPart, ThinkingSignaturePart, ThinkingTextPart, ToolCallPart
from harness.stream.base import CallResult, TextDelta, ThinkingDelta, ToolCallStart
from harness.stream.drive import parse_bytes, parse_chunks
from harness.stream.openai_chat import PARSER, OpenAIChatParser

REAL = Path("/work/shared/realstreams/openai-chat")
SDK_STOP = {"stop": "stop", "length": "length", "tool_calls": "tool_use"}


# ---------------------------------------------------------------- recordings


def _load_streams(path: Path) -> list[bytes]:
    """The model-call response bodies of one recording (chunks files get ``data:`` framing, no [DONE])."""
    if path.suffix == ".txt":
        return [
            b"".join(f"data: {line}\n\n".encode() for line in path.read_text().splitlines() if line.strip())
        ]
    bodies: list[bytes] = []
    for interaction in yaml.safe_load(path.read_text())["interactions"]:
        if interaction["request"]["method"] == "POST":
            body = interaction["response"]["body"]["string"]
            bodies.append(body if isinstance(body, bytes) else body.encode())
    return bodies


RECORDINGS: dict[str, bytes] = {
    f"{path.stem}#{n}": body for path in sorted(REAL.iterdir()) for n, body in enumerate(_load_streams(path))
}
IDS = sorted(RECORDINGS)


# ---------------------------------------------------------------- oracle


_BOX: dict[str, Any] = {"body": b""}


def _serve(request: httpx2.Request) -> httpx2.Response:
    return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=_BOX["body"])


@functools.cache
def _client() -> OpenAI:
    http = httpx2.Client(transport=httpx2.MockTransport(_serve))
    return OpenAI(api_key="sk-test", base_url="http://oracle.invalid/v1", max_retries=0, http_client=http)


def sdk_final(body: bytes) -> ChatCompletion:
    _BOX["body"] = body
    with _client().chat.completions.stream(
        model="gpt-4o", messages=[{"role": "user", "content": "hi"}]
    ) as stream:
        for _ in stream:
            pass
        return stream.get_final_completion()


def expected(completion: ChatCompletion) -> dict[str, Any]:
    """The SDK completion projected onto what the canonical message must carry."""
    choice = completion.choices[0]
    message = choice.message
    extra = message.model_extra or {}
    usage = completion.usage
    assert usage is not None
    prompt, done = usage.prompt_tokens_details, usage.completion_tokens_details
    thinking = extra.get("reasoning_content") or extra.get("reasoning") or ""
    return {
        "text": message.content or "",
        "thinking": thinking,
        "signatures": [],
        "tools": [
            (c.id, c.function.name, json.loads(c.function.arguments))
            for c in message.tool_calls or ()
            if c.type == "function"
        ],
        "stop_reason": SDK_STOP[choice.finish_reason],
        "response_id": completion.id,
        "model_id": completion.model if thinking else None,
        "usage": {
            "input_tokens": usage.prompt_tokens,
            "output_tokens": usage.completion_tokens,
            "cached_input_tokens": prompt.cached_tokens if prompt else None,
            "cache_creation_input_tokens": None,
            "reasoning_tokens": done.reasoning_tokens if done else None,
            "total_tokens": usage.total_tokens,
        },
    }


def projected(result: CallResult) -> dict[str, Any]:
    message = result.message
    parts = message.parts
    thinking = [p for p in parts if isinstance(p, ThinkingTextPart)]
    return {
        "text": "".join(p.text for p in parts if isinstance(p, TextPart)),
        "thinking": "".join(p.text for p in thinking),
        "signatures": [p for p in parts if isinstance(p, ThinkingSignaturePart)],
        "tools": [
            (p.call_id, p.tool_name, json.loads(p.arguments_json))
            for p in parts
            if isinstance(p, ToolCallPart)
        ],
        "stop_reason": message.stop_reason,
        "response_id": message.response_id,
        "model_id": thinking[0].model_id if thinking else None,
        "usage": message.usage.model_dump() if message.usage else None,
    }


# ---------------------------------------------------------------- (a) real recordings vs the SDK


def test_recordings_found() -> None:
    assert len(RECORDINGS) >= 4


@pytest.mark.parametrize("rec", IDS)
def test_final_message_matches_the_sdk(rec: str) -> None:
    body = RECORDINGS[rec]
    result = parse_bytes(PARSER, body)
    assert result.errors == []
    assert projected(result) == expected(sdk_final(body))


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


def test_reasoning_content_comes_before_the_answer() -> None:
    result = parse_bytes(PARSER, RECORDINGS["pai__deepseek_reasoner_reasoning_content#0"])
    thinking, answer = result.message.parts
    assert isinstance(thinking, ThinkingTextPart) and isinstance(answer, TextPart)
    assert thinking.model_id == "deepseek-reasoner" and thinking.id is None
    assert thinking.text.startswith("Hmm") and answer.text.endswith("today?")


def test_stream_without_done_is_complete_after_finish_reason_and_usage() -> None:
    result = parse_bytes(PARSER, RECORDINGS["vercelai__groq-llama33-tool-call.chunks#0"])
    assert result.errors == []
    assert result.message.stop_reason == "tool_use"


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
    assert projected(result)["tools"] == expected(sdk_final(body))["tools"]


def test_repeated_id_and_name_are_not_concatenated() -> None:
    call = {"index": 0, "id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    body = _chunks({"tool_calls": [call]}, {"tool_calls": [call]}, finish="tool_calls")
    result = parse_bytes(PARSER, body)
    assert result.message.parts == [ToolCallPart(call_id="a", tool_name="f", arguments_json="{}{}")]
    assert result.items == [ToolCallStart("a", "f")]
    sdk_call = (sdk_final(body).choices[0].message.tool_calls or [])[0]
    assert sdk_call.id == "aa"  # the documented difference: the SDK's generic merge concatenates


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


def test_error_body_when_not_streamed() -> None:
    parser = OpenAIChatParser()
    parser.feed_response({"error": {"message": "Rate limit", "type": "rate_limit_error", "code": 429}})
    result = parser.finish()
    assert result.message.stop_reason == "error"
    assert len(result.errors) == 1 and result.errors[0].can_retry is True


# ---------------------------------------------------------------- (b) chunk boundaries


@pytest.mark.parametrize("size", [1, 3, 17, 256])
@pytest.mark.parametrize("rec", IDS)
def test_chunk_size_does_not_change_the_result(rec: str, size: int) -> None:
    body = RECORDINGS[rec]
    assert parse_bytes(PARSER, body, size) == parse_bytes(PARSER, body)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_any_split_gives_the_same_result(data: st.DataObject) -> None:
    body = RECORDINGS[data.draw(st.sampled_from(IDS))]
    cuts = sorted(set(data.draw(st.lists(st.integers(0, len(body)), max_size=20))))
    pieces = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)], strict=True)]
    assert parse_chunks(OpenAIChatParser(), pieces) == parse_bytes(PARSER, body)


# ---------------------------------------------------------------- (c) bad endings on real bytes


def _split_events(body: bytes) -> list[bytes]:
    return [event + b"\n\n" for event in body.split(b"\n\n") if event.strip()]


def _texts(result: CallResult) -> tuple[str, str, str]:
    parts = result.message.parts
    return (
        "".join(p.text for p in parts if isinstance(p, TextPart)),
        "".join(p.text for p in parts if isinstance(p, ThinkingTextPart)),
        "".join(p.arguments_json for p in parts if isinstance(p, ToolCallPart)),
    )


def _assert_one_error(result: CallResult, fragment: str) -> None:
    assert result.message.stop_reason == "error"
    assert len(result.errors) == 1, result.errors
    assert fragment in result.errors[0].error_message


def _assert_partial_of(partial: CallResult, full: CallResult) -> None:
    for got, whole in zip(_texts(partial), _texts(full), strict=True):
        assert whole.startswith(got)


@pytest.mark.parametrize("rec", IDS)
def test_truncated_mid_event(rec: str) -> None:
    body = RECORDINGS[rec]
    events = _split_events(body)
    k = len(events) * 2 // 3
    cut = len(b"".join(events[:k])) + len(events[k]) // 2
    result = parse_bytes(PARSER, body[:cut])
    assert result.message.stop_reason == "error"
    assert len(result.errors) == 1
    _assert_partial_of(result, parse_bytes(PARSER, body))


@pytest.mark.parametrize("rec", IDS)
def test_clean_eof_before_the_final_event(rec: str) -> None:
    body = RECORDINGS[rec]
    events = _split_events(body)
    result = parse_bytes(PARSER, b"".join(events[: len(events) * 2 // 3]))
    _assert_one_error(result, "ended before the final event")
    _assert_partial_of(result, parse_bytes(PARSER, body))
    assert result.message.parts


@pytest.mark.parametrize(
    "injected",
    [
        b'data: {"error":{"message":"The server had an error","type":"server_error"}}\n\n',
        b'event: error\ndata: {"error":{"message":"The server had an error","type":"server_error"}}\n\n',
    ],
    ids=["data-error-object", "event-error"],
)
@pytest.mark.parametrize("rec", IDS)
def test_error_mid_stream(rec: str, injected: bytes) -> None:
    events = _split_events(RECORDINGS[rec])
    k = len(events) // 2
    result = parse_bytes(PARSER, b"".join([*events[:k], injected, *events[k:]]))
    _assert_one_error(result, "server_error: The server had an error")
    assert result.errors[0].can_retry is True
    assert result.message.parts == parse_bytes(PARSER, RECORDINGS[rec]).message.parts


@pytest.mark.parametrize("rec", IDS)
def test_garbled_data_line(rec: str) -> None:
    events = _split_events(RECORDINGS[rec])
    k = len(events) // 2
    result = parse_bytes(PARSER, b"".join([*events[:k], b'data: {"id":"x","choi\xff\n\n', *events[k:]]))
    _assert_one_error(result, "unparseable data line")


@pytest.mark.parametrize(
    "unknown",
    [b'event: brand_new_event\ndata: {"x":1}\n\n', b'data: {"type":"brand_new_event","x":1}\n\n'],
    ids=["event-name", "non-chunk-object"],
)
@pytest.mark.parametrize("rec", IDS)
def test_unknown_event_is_only_noted(rec: str, unknown: bytes) -> None:
    events = _split_events(RECORDINGS[rec])
    k = len(events) // 2
    result = parse_bytes(PARSER, b"".join([*events[:k], unknown, *events[k:]]))
    assert result.message == parse_bytes(PARSER, RECORDINGS[rec]).message
    assert result.errors == []
    assert any("skipped" in note for note in result.notes)
