"""OpenRouter output adapter on the committed cassettes (real recordings, scrubbed).

OpenRouter speaks Chat Completions: the final message of every recorded call (streamed
or not) is checked against the openai SDK's accumulation, with its generic merge of
``reasoning_details``, in ``tests/test_crosscheck.py``. This module pins the
OpenRouter-specific reasoning mapping; chunk-boundary invariance and bad endings on real
bytes are in ``tests/test_stream_endings.py``, for every provider.
"""

from __future__ import annotations

import json
from typing import Any

from openai.types.chat import ChatCompletion

from harness.crosscheck import crosscheck, sdk_accumulate
from harness.emit import emit_stream, representable
from harness.model import TextPart, ThinkingSignaturePart, ThinkingTextPart
from harness.providers.openai_chat.stream import OpenAIChatParser
from harness.providers.openrouter.stream import PARSER, OpenRouterParser
from harness.stream.base import CallResult, ThinkingDelta
from harness.stream.drive import parse_bytes
from tests.support.cassettes import recorded_calls_of

PROVIDER = "openrouter"
CLAUDE = "openrouter-pai__or_claude45_reasoning_text_signature-0"
O3 = "openrouter-pai__or_o3_reasoning_encrypted-0"
GPT5_NONSTREAM = "openrouter-pai__or_gpt5mini_reasoning_details_roundtrip_NONSTREAM-1"

# OpenRouter's Chat wire only (its /responses calls are judged as Responses: test_stream_realworld.py)
_ALL: dict[str, bytes] = {
    call_id: call.body for call_id, call in recorded_calls_of(PROVIDER).items() if call.provider == PROVIDER
}
STREAMS: dict[str, bytes] = {k: v for k, v in _ALL.items() if not v.lstrip().startswith(b"{")}
BODIES: dict[str, dict[str, Any]] = {k: json.loads(v) for k, v in _ALL.items() if k not in STREAMS}


def respond(body: dict[str, Any]) -> CallResult:
    parser = OpenRouterParser()
    parser.feed_response(body)
    return parser.finish()


def reasoning(result: CallResult) -> list[tuple[str, str, str | None]]:
    """Thinking texts and signatures in order, with each signature's format."""
    out: list[tuple[str, str, str | None]] = []
    for part in result.message.parts:
        if isinstance(part, ThinkingTextPart):
            out.append(("thinking", part.text, None))
        elif isinstance(part, ThinkingSignaturePart):
            out.append(("signature", part.signature, part.format))
    return out


# ---------------------------------------------------------------- (a) real recordings


def test_recordings_found_and_models_listing_skipped() -> None:
    assert len(STREAMS) == 4  # llm-openrouter's GET /models is not a model call
    assert len(BODIES) == 2


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
    completion = sdk_accumulate(PROVIDER, STREAMS[CLAUDE])
    assert isinstance(completion, ChatCompletion)
    sdk_reasoning = (completion.choices[0].message.model_extra or {})["reasoning"]
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


def _chat_chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


USAGE: dict[str, Any] = {
    "choices": [],
    "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5, "cost": 0.1},
}


def test_plain_reasoning_without_details_is_unsigned_thinking() -> None:
    body = _sse(_chat_chunk({"reasoning": "think"}), _chat_chunk({"content": "ok"}, "stop"), USAGE) + DONE
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
            _chat_chunk({"reasoning": "a", "reasoning_details": [detail(0, text="a")]}),
            _chat_chunk({"reasoning_details": [detail(0, signature="S0")]}),
            _chat_chunk({"reasoning": "b", "reasoning_details": [detail(1, text="b")]}),
            _chat_chunk({"reasoning_details": [detail(1, signature="S1")]}),
            _chat_chunk({"content": "done"}, "stop"),
            USAGE,
        )
        + DONE
    )
    result = parse_bytes(PARSER, body)
    assert reasoning(result) == [
        ("thinking", "a", None),
        ("signature", "S0", "anthropic-claude-v1"),
        ("thinking", "b", None),
        ("signature", "S1", "anthropic-claude-v1"),
    ]
    verdict = crosscheck(PROVIDER, body)
    assert verdict.ok and "openrouter-format-verbatim" in verdict.applied


def test_encrypted_entry_between_texts_keeps_stream_order() -> None:
    """Fuzz regression: a lone ``reasoning.encrypted`` entry ends the text run (it merged "a" and "b")."""
    encrypted = {"type": "reasoning.encrypted", "data": "E", "format": "openai-responses-v1", "index": 0}
    body = (
        _sse(
            _chat_chunk({"content": "a"}),
            _chat_chunk({"reasoning_details": [encrypted]}),
            _chat_chunk({"content": "b"}, "stop"),
            USAGE,
        )
        + DONE
    )
    result = parse_bytes(PARSER, body)
    assert result.message.parts == [
        TextPart(text="a"),
        ThinkingSignaturePart(signature="E", format="openai-responses-v1", model_id="x/y"),
        TextPart(text="b"),
    ]
    assert result.errors == [] and result.message.stop_reason == "stop"
    assert representable(PROVIDER, result.message) is None  # the emitter covers the shape: it round-trips
    again = parse_bytes(PARSER, emit_stream(PROVIDER, result.message, response_id="gen-1"))
    assert again.message == result.message


def test_mid_stream_error_chunk() -> None:
    error = {
        "error": {"code": 502, "message": "Provider disconnected"},
        **_chat_chunk({"content": ""}, "error"),
    }
    result = parse_bytes(PARSER, _sse(_chat_chunk({"content": "part"}), error) + DONE)
    assert result.message.stop_reason == "error"
    assert result.message.parts == [TextPart(text="part")]
    assert len(result.errors) == 1
    assert "Provider disconnected" in result.errors[0].error_message
    assert result.errors[0].can_retry is True


def test_finish_reason_error_without_error_object() -> None:
    result = parse_bytes(PARSER, _sse(_chat_chunk({"content": "p"}, "error"), USAGE) + DONE)
    assert result.message.stop_reason == "error"
    assert len(result.errors) == 1
