"""OpenRouter output adapter on real recordings, against the openai SDK's accumulation.

Oracle: OpenRouter speaks Chat Completions, so the recorded bytes go through an
``httpx2.MockTransport`` to ``openai.OpenAI().chat.completions.stream(...)``. The SDK
merges OpenRouter's extra delta fields generically (notes/oracles.md, section 3):
``reasoning`` strings concatenated, ``reasoning_details`` merged by ``index`` into
``message.model_extra``. The non-streamed recording goes through ``create()``.
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
from harness.stream.base import CallResult, ThinkingDelta
from harness.stream.drive import parse_bytes, parse_chunks
from harness.stream.openai_chat import OpenAIChatParser
from harness.stream.openrouter import PARSER, OpenRouterParser

REAL = Path("/work/shared/realstreams/openrouter")
SDK_STOP = {"stop": "stop", "length": "length", "tool_calls": "tool_use"}
CLAUDE = "pai__or_claude45_reasoning_text_signature#0"
O3 = "pai__or_o3_reasoning_encrypted#0"
GPT5_NONSTREAM = "pai__or_gpt5mini_reasoning_details_roundtrip_NONSTREAM#1"


# ---------------------------------------------------------------- recordings


def _load(path: Path) -> list[bytes | dict[str, Any]]:
    """Model-call responses of one cassette: SSE bytes, or the JSON body of a non-streamed call.

    Calls that are not model calls (llm-openrouter's ``GET /models``) are skipped.
    """
    out: list[bytes | dict[str, Any]] = []
    for interaction in yaml.safe_load(path.read_text())["interactions"]:
        if interaction["request"]["method"] != "POST":
            continue
        response = interaction["response"]
        if "parsed_body" in response:
            out.append(response["parsed_body"])
        else:
            body = response["body"]["string"]
            out.append(body if isinstance(body, bytes) else body.encode())
    return out


_ALL = {f"{path.stem}#{n}": r for path in sorted(REAL.iterdir()) for n, r in enumerate(_load(path))}
STREAMS: dict[str, bytes] = {k: v for k, v in _ALL.items() if isinstance(v, bytes)}
BODIES: dict[str, dict[str, Any]] = {k: v for k, v in _ALL.items() if isinstance(v, dict)}
IDS = sorted(STREAMS)


# ---------------------------------------------------------------- oracle


_BOX: dict[str, Any] = {"body": b"", "type": "text/event-stream"}


def _serve(request: httpx2.Request) -> httpx2.Response:
    return httpx2.Response(200, headers={"content-type": _BOX["type"]}, content=_BOX["body"])


@functools.cache
def _client() -> OpenAI:
    http = httpx2.Client(transport=httpx2.MockTransport(_serve))
    return OpenAI(api_key="sk-test", base_url="http://oracle.invalid/v1", max_retries=0, http_client=http)


def sdk_stream(body: bytes) -> ChatCompletion:
    _BOX.update(body=body, type="text/event-stream")
    with _client().chat.completions.stream(model="m", messages=[{"role": "user", "content": "hi"}]) as stream:
        for _ in stream:
            pass
        return stream.get_final_completion()


def sdk_body(body: dict[str, Any]) -> ChatCompletion:
    _BOX.update(body=json.dumps(body).encode(), type="application/json")
    return _client().chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])


def _unrepeat(value: str) -> str:
    """Undo the SDK merge's concatenation of a string repeated in every chunk ("abab" -> "ab")."""
    for size in range(1, len(value) + 1):
        if len(value) % size == 0 and value[:size] * (len(value) // size) == value:
            return value[:size]
    return value


def _sdk_reasoning(extra: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The SDK's merged ``reasoning_details`` (or plain ``reasoning``) as thinking/signature parts."""
    details: list[dict[str, Any]] = extra.get("reasoning_details") or []
    if not details:
        return [("thinking", extra["reasoning"])] if extra.get("reasoning") else []
    out: list[tuple[Any, ...]] = []
    for detail in details:
        fmt = _unrepeat(detail.get("format") or "unknown")
        if detail["type"] == "reasoning.text":
            out.append(("thinking", detail.get("text") or ""))
            if detail.get("signature"):
                out.append(("signature", detail["signature"], fmt, detail.get("id")))
        elif detail["type"] == "reasoning.summary":
            out.append(("thinking", detail.get("summary") or ""))
        elif detail["type"] == "reasoning.encrypted":
            out.append(("signature", detail["data"], fmt, detail.get("id")))
    return out


def expected(completion: ChatCompletion) -> dict[str, Any]:
    choice = completion.choices[0]
    message = choice.message
    usage = completion.usage
    assert usage is not None
    prompt, done = usage.prompt_tokens_details, usage.completion_tokens_details
    return {
        "text": message.content or "",
        "reasoning": _sdk_reasoning(message.model_extra or {}),
        "tools": [
            (c.id, c.function.name, json.loads(c.function.arguments))
            for c in message.tool_calls or ()
            if c.type == "function"
        ],
        "stop_reason": SDK_STOP[choice.finish_reason],
        "response_id": completion.id,
        "usage": {
            "input_tokens": usage.prompt_tokens,
            "output_tokens": usage.completion_tokens,
            "cached_input_tokens": prompt.cached_tokens if prompt else None,
            "cache_creation_input_tokens": prompt.cache_write_tokens if prompt else None,
            "reasoning_tokens": done.reasoning_tokens if done else None,
            "total_tokens": usage.total_tokens,
        },
    }


def projected(result: CallResult) -> dict[str, Any]:
    message = result.message
    parts = message.parts
    reasoning: list[tuple[Any, ...]] = []
    for part in parts:
        if isinstance(part, ThinkingTextPart):
            reasoning.append(("thinking", part.text))
        elif isinstance(part, ThinkingSignaturePart):
            reasoning.append(("signature", part.signature, part.format, part.id))
    return {
        "text": "".join(p.text for p in parts if isinstance(p, TextPart)),
        "reasoning": reasoning,
        "tools": [
            (p.call_id, p.tool_name, json.loads(p.arguments_json))
            for p in parts
            if isinstance(p, ToolCallPart)
        ],
        "stop_reason": message.stop_reason,
        "response_id": message.response_id,
        "usage": message.usage.model_dump() if message.usage else None,
    }


def respond(body: dict[str, Any]) -> CallResult:
    parser = OpenRouterParser()
    parser.feed_response(body)
    return parser.finish()


# ---------------------------------------------------------------- (a) real recordings vs the SDK


def test_recordings_found_and_models_listing_skipped() -> None:
    assert len(STREAMS) == 4  # llm-openrouter's GET /models is not a model call
    assert len(BODIES) == 2


@pytest.mark.parametrize("rec", IDS)
def test_streamed_message_matches_the_sdk(rec: str) -> None:
    body = STREAMS[rec]
    result = parse_bytes(PARSER, body)
    assert result.errors == []
    assert projected(result) == expected(sdk_stream(body))


@pytest.mark.parametrize("rec", sorted(BODIES))
def test_non_streamed_message_matches_the_sdk(rec: str) -> None:
    result = respond(BODIES[rec])
    assert result.errors == []
    assert projected(result) == expected(sdk_body(BODIES[rec]))


def test_signature_follows_its_thinking_with_the_verbatim_format() -> None:
    result = parse_bytes(PARSER, STREAMS[CLAUDE])
    thinking, signature, text = result.message.parts
    assert isinstance(thinking, ThinkingTextPart) and isinstance(signature, ThinkingSignaturePart)
    assert thinking.text == "This is a simple arithmetic question. 2+2 equals 4."
    assert signature.format == "anthropic-claude-v1"
    assert signature.signature.startswith("Et0BCkgIChACGAIq") and signature.signature.endswith("YAQ==")
    assert thinking.model_id == signature.model_id == "anthropic/claude-sonnet-4.5"
    assert text == TextPart(text="2 + 2 = 4")


def test_reasoning_and_reasoning_details_are_not_counted_twice() -> None:
    result = parse_bytes(PARSER, STREAMS[CLAUDE])
    sdk_reasoning = (sdk_stream(STREAMS[CLAUDE]).choices[0].message.model_extra or {})["reasoning"]
    thinking = "".join(i.text for i in result.items if isinstance(i, ThinkingDelta))
    assert thinking == sdk_reasoning == "This is a simple arithmetic question. 2+2 equals 4."


def test_encrypted_reasoning_alone_is_a_signature_with_its_item_id() -> None:
    parts = parse_bytes(PARSER, STREAMS[O3]).message.parts
    assert [p.type for p in parts] == ["thinking_signature", "text"]
    signature = parts[0]
    assert isinstance(signature, ThinkingSignaturePart)
    assert signature.format == "openai-responses-v1"
    assert signature.id == "rs_0aa4f2c435e6d1dc0169082486816c8193a029b5fc4ef1764f"
    assert signature.signature.startswith("gAAAAA")


def test_summary_and_encrypted_of_one_index_are_one_thinking_unit() -> None:
    parts = respond(BODIES[GPT5_NONSTREAM]).message.parts
    assert [p.type for p in parts] == ["thinking_text", "thinking_signature", "text"]
    thinking, signature = parts[0], parts[1]
    assert isinstance(thinking, ThinkingTextPart) and isinstance(signature, ThinkingSignaturePart)
    assert thinking.text.startswith("**Structuring Voltaire")
    assert (signature.format, signature.id) == (
        "openai-responses-v1",
        "rs_0e67143e70e2c03a01690231c4b7c08195b5bfcc5c216e88b2",
    )


def test_chat_parser_would_take_only_the_plain_reasoning() -> None:
    """The plain Chat parser reads ``delta.reasoning`` (no signatures): OpenRouter needs its own."""
    parts = parse_bytes(OpenAIChatParser, STREAMS[CLAUDE]).message.parts
    assert [p.type for p in parts] == ["thinking_text", "text"]


# ---------------------------------------------------------------- synthetic chunks the recordings lack


HEAD = {"id": "gen-1", "object": "chat.completion.chunk", "created": 1, "model": "x/y"}
DONE = b"data: [DONE]\n\n"


def _sse(*chunks: dict[str, Any]) -> bytes:
    return b"".join(f"data: {json.dumps({**HEAD, **c})}\n\n".encode() for c in chunks)


def _delta(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


USAGE: dict[str, Any] = {
    "choices": [],
    "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5, "cost": 0.1},
}


def test_plain_reasoning_without_details_is_unsigned_thinking() -> None:
    body = _sse(_delta({"reasoning": "think"}), _delta({"content": "ok"}, "stop"), USAGE) + DONE
    result = parse_bytes(PARSER, body)
    assert [(p.type, getattr(p, "text", None)) for p in result.message.parts] == [
        ("thinking_text", "think"),
        ("text", "ok"),
    ]


def test_two_reasoning_units_by_index() -> None:
    def detail(index: int, **fields: str) -> dict[str, Any]:
        return {"type": "reasoning.text", "format": "anthropic-claude-v1", "index": index, **fields}

    body = (
        _sse(
            _delta({"reasoning": "a", "reasoning_details": [detail(0, text="a")]}),
            _delta({"reasoning_details": [detail(0, signature="S0")]}),
            _delta({"reasoning": "b", "reasoning_details": [detail(1, text="b")]}),
            _delta({"reasoning_details": [detail(1, signature="S1")]}),
            _delta({"content": "done"}, "stop"),
            USAGE,
        )
        + DONE
    )
    result = parse_bytes(PARSER, body)
    assert projected(result)["reasoning"] == [
        ("thinking", "a"),
        ("signature", "S0", "anthropic-claude-v1", None),
        ("thinking", "b"),
        ("signature", "S1", "anthropic-claude-v1", None),
    ]
    assert projected(result) == expected(sdk_stream(body))


def test_mid_stream_error_chunk() -> None:
    error = {"error": {"code": 502, "message": "Provider disconnected"}, **_delta({"content": ""}, "error")}
    result = parse_bytes(PARSER, _sse(_delta({"content": "part"}), error) + DONE)
    assert result.message.stop_reason == "error"
    assert result.message.parts == [TextPart(text="part")]
    assert len(result.errors) == 1
    assert "Provider disconnected" in result.errors[0].error_message
    assert result.errors[0].can_retry is True


def test_finish_reason_error_without_error_object() -> None:
    result = parse_bytes(PARSER, _sse(_delta({"content": "p"}, "error"), USAGE) + DONE)
    assert result.message.stop_reason == "error"
    assert len(result.errors) == 1


# ---------------------------------------------------------------- (b) chunk boundaries


@pytest.mark.parametrize("size", [1, 3, 17, 256])
@pytest.mark.parametrize("rec", IDS)
def test_chunk_size_does_not_change_the_result(rec: str, size: int) -> None:
    body = STREAMS[rec]
    assert parse_bytes(PARSER, body, size) == parse_bytes(PARSER, body)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_any_split_gives_the_same_result(data: st.DataObject) -> None:
    body = STREAMS[data.draw(st.sampled_from(IDS))]
    cuts = sorted(set(data.draw(st.lists(st.integers(0, len(body)), max_size=20))))
    pieces = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)], strict=True)]
    assert parse_chunks(OpenRouterParser(), pieces) == parse_bytes(PARSER, body)


# ---------------------------------------------------------------- (c) bad endings on real bytes


def _split_events(body: bytes) -> list[bytes]:
    """Data events only (the ``: OPENROUTER PROCESSING`` comments stay attached to nothing)."""
    return [event + b"\n\n" for event in body.split(b"\n\n") if event.strip() and not event.startswith(b":")]


def _texts(result: CallResult) -> tuple[str, str, str, str]:
    parts = result.message.parts
    return (
        "".join(p.text for p in parts if isinstance(p, TextPart)),
        "".join(p.text for p in parts if isinstance(p, ThinkingTextPart)),
        "".join(p.signature for p in parts if isinstance(p, ThinkingSignaturePart)),
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
    body = STREAMS[rec]
    events = _split_events(body)
    k = len(events) * 2 // 3
    cut = len(b"".join(events[:k])) + len(events[k]) // 2
    result = parse_bytes(PARSER, b"".join(events)[:cut])
    assert result.message.stop_reason == "error"
    assert len(result.errors) == 1
    _assert_partial_of(result, parse_bytes(PARSER, body))


@pytest.mark.parametrize("rec", IDS)
def test_clean_eof_before_the_final_event(rec: str) -> None:
    body = STREAMS[rec]
    events = _split_events(body)
    result = parse_bytes(PARSER, b"".join(events[: len(events) * 2 // 3]))
    _assert_one_error(result, "ended before the final event")
    _assert_partial_of(result, parse_bytes(PARSER, body))
    assert result.message.parts


@pytest.mark.parametrize("rec", IDS)
def test_error_event_mid_stream(rec: str) -> None:
    events = _split_events(STREAMS[rec])
    k = len(events) // 2
    injected = b'event: error\ndata: {"error":{"code":503,"message":"upstream overloaded"}}\n\n'
    result = parse_bytes(PARSER, b"".join([*events[:k], injected, *events[k:]]))
    _assert_one_error(result, "upstream overloaded")
    assert result.errors[0].can_retry is True
    assert result.message.parts == parse_bytes(PARSER, STREAMS[rec]).message.parts


@pytest.mark.parametrize("rec", IDS)
def test_garbled_data_line(rec: str) -> None:
    events = _split_events(STREAMS[rec])
    k = len(events) // 2
    result = parse_bytes(PARSER, b"".join([*events[:k], b'data: {"id":"gen-1","cho\n\n', *events[k:]]))
    _assert_one_error(result, "unparseable data line")


@pytest.mark.parametrize("rec", IDS)
def test_unknown_event_is_only_noted(rec: str) -> None:
    events = _split_events(STREAMS[rec])
    k = len(events) // 2
    unknown = b'event: brand_new_event\ndata: {"x":1}\n\n'
    result = parse_bytes(PARSER, b"".join([*events[:k], unknown, *events[k:]]))
    assert result.message == parse_bytes(PARSER, STREAMS[rec]).message
    assert result.errors == []
    assert any("brand_new_event" in note for note in result.notes)
