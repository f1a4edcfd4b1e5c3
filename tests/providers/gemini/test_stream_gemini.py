"""Gemini output adapter on the committed cassettes (real recordings, scrubbed).

google-genai has no stream accumulator: ``tests/test_crosscheck.py`` checks every
recorded call against its parsed chunks (text and thought runs, function calls,
signatures as decoded bytes, usage, stop reason), with our merge rules and minted call
ids as the documented differences (``gemini-merge``, ``gemini-minted-call-id``). The
merge rules themselves (which chunks form one part, where a signature stands) are ours
and are pinned by the structure tests below; chunk-boundary invariance and bad endings on
real bytes are in ``tests/test_stream_endings.py``, for every provider.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import pytest

from harness.crosscheck import RecordedCall, decode_signature
from harness.model import FilePart, TextPart, ThinkingSignaturePart, ThinkingTextPart, ToolCallPart
from harness.providers.gemini.stream import PARSER, GeminiParser, parse_json_array
from harness.stream.base import CallResult, TextDelta, ThinkingDelta, ToolCallStart
from harness.stream.drive import parse_bytes
from harness.stream.sse import SSEEvent
from tests.support.adapters import sig
from tests.support.cassettes import events_of, recorded_calls_of

PROVIDER = "gemini"
RECORDINGS: dict[str, RecordedCall] = recorded_calls_of(PROVIDER)
IDS = sorted(RECORDINGS)


def body_of(name: str) -> bytes:
    return RECORDINGS[name].body


def payloads(body: bytes) -> list[dict[str, Any]]:
    return [json.loads(e.decode().removeprefix("data: ")) for e in events_of(body)]


# ---------------------------------------------------------------- (a) real recordings

STRUCTURE = {
    # gemini-3 call with its signature, then an empty text part + STOP (no signature)
    "gemini-pai__gemini3pro_functioncall_thoughtsig_roundtrip-0": ["tool_call", "thinking_signature"],
    "gemini-pai__gemini3pro_functioncall_thoughtsig_roundtrip-1": ["text"],
    # four thought chunks -> one thinking part; 18 text chunks -> one text part, signed on its first chunk
    "gemini-pai__gemini25pro_thought_parts-0": ["thinking_text", "text", "thinking_signature"],
    "gemini-vercelai__google-tool-call-gemini3-0": ["tool_call", "thinking_signature"],
}


@pytest.mark.parametrize("name", IDS)
def test_part_structure(name: str) -> None:
    parts = parse_bytes(PARSER, body_of(name)).message.parts
    assert [p.type for p in parts] == STRUCTURE[name]
    assert all(p.format == "google" and p.id is None for p in parts if isinstance(p, ThinkingSignaturePart))


@pytest.mark.parametrize("name", IDS)
def test_stream_items(name: str) -> None:
    result = parse_bytes(PARSER, body_of(name))
    parts = result.message.parts
    text = "".join(i.text for i in result.items if isinstance(i, TextDelta))
    thinking = "".join(i.text for i in result.items if isinstance(i, ThinkingDelta))
    starts = [(i.call_id, i.tool_name) for i in result.items if isinstance(i, ToolCallStart)]
    assert text == "".join(p.text for p in parts if isinstance(p, TextPart))
    assert thinking == "".join(p.text for p in parts if isinstance(p, ThinkingTextPart))
    assert starts == [(p.call_id, p.tool_name) for p in parts if isinstance(p, ToolCallPart)]


def test_minted_call_id_is_deterministic() -> None:
    name = "gemini-pai__gemini3pro_functioncall_thoughtsig_roundtrip-0"
    call = parse_bytes(PARSER, body_of(name)).message.parts[0]
    assert isinstance(call, ToolCallPart)
    assert call.call_id == "call_QUVVadTSNJ6_qtsPvN7J8Q0_0"
    assert call.arguments_json == "{}"


def test_the_accepted_follow_up_request_carries_our_signature_on_the_call() -> None:
    """Turn 2 (HTTP 200) sent the signature on the functionCall part, base64url: same bytes as ours."""
    call = RECORDINGS["gemini-pai__gemini3pro_functioncall_thoughtsig_roundtrip-0"]
    body, following = call.body, call.following
    assert following is not None
    model_part = following["contents"][1]["parts"][0]
    call, signature = parse_bytes(PARSER, body).message.parts
    assert isinstance(call, ToolCallPart) and isinstance(signature, ThinkingSignaturePart)
    assert model_part["functionCall"]["name"] == call.tool_name
    assert decode_signature(model_part["thoughtSignature"]) == decode_signature(signature.signature)
    assert model_part["thoughtSignature"] != signature.signature  # base64url there, standard base64 here


BAD = "gemini-pai__gemini25pro_thought_parts-0"


# ---------------------------------------------------------------- JSON array framing (no alt=sse)


def feed_elements(elements: list[dict[str, Any]]) -> CallResult:
    parser = GeminiParser()
    for element in elements:
        parser.feed(SSEEvent(None, json.dumps(element)))
    return parser.finish()


def as_json_array(body: bytes) -> bytes:
    """The same responses framed the way Gemini sends them without alt=sse."""
    return ("[" + ",\r\n".join(json.dumps(p, indent=2) for p in payloads(body)) + "]").encode()


@pytest.mark.parametrize("name", IDS)
def test_json_array_framing_gives_the_same_message(name: str) -> None:
    body = body_of(name)
    elements = parse_json_array(as_json_array(body))
    assert elements == payloads(body)
    assert feed_elements(elements).message == parse_bytes(PARSER, body).message


def test_json_array_cut_short_keeps_complete_elements() -> None:
    array = as_json_array(body_of(BAD))
    elements = parse_json_array(array[: len(array) // 2])
    assert 0 < len(elements) < len(payloads(body_of(BAD)))
    result = feed_elements(elements)
    assert result.message.stop_reason == "error" and "truncated" in result.errors[0].error_message


def test_json_array_edge_cases() -> None:
    assert parse_json_array(b"") == []
    assert parse_json_array(b"[]") == []
    assert parse_json_array(b' {"a": 1} ') == [{"a": 1}]
    assert parse_json_array(b'[{"a": 1}, 2, {"b": 2}]') == [{"a": 1}, {"b": 2}]
    assert parse_json_array(b'[{"a": 1}, {"b": ') == [{"a": 1}]


def test_whole_array_in_one_event() -> None:
    elements = payloads(body_of(BAD))
    parser = GeminiParser()
    parser.feed(SSEEvent(None, json.dumps(elements)))
    assert parser.finish().message == parse_bytes(PARSER, body_of(BAD)).message


# ---------------------------------------------------------------- non-streamed body


def test_non_streamed_response() -> None:
    body = {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [
                        {"text": "plan", "thought": True},
                        {"text": "Hi!", "thoughtSignature": "c2ln"},
                        {
                            "functionCall": {"id": "fc-1", "name": "f", "args": {"x": "é"}},
                            "thoughtSignature": "c2ln",
                        },
                    ],
                },
                "finishReason": "STOP",
            }
        ],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": "gemini-2.5-flash",
        "responseId": "r1",
    }
    parser = GeminiParser()
    parser.feed_response(body)
    result = parser.finish()
    model = "gemini-2.5-flash"
    assert result.message.parts == [
        ThinkingTextPart(text="plan", model_id=model),
        TextPart(text="Hi!"),
        ThinkingSignaturePart(signature="c2ln", model_id=model, format="google"),
        ToolCallPart(call_id="fc-1", tool_name="f", arguments_json='{"x":"é"}'),
        ThinkingSignaturePart(signature="c2ln", model_id=model, format="google"),
    ]
    assert result.message.stop_reason == "tool_use" and result.message.response_id == "r1"


# ---------------------------------------------------------------- synthetic edge cases


def chunk(*parts: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}, "index": 0}
    if finish:
        candidate["finishReason"] = finish
    return {"candidates": [candidate], "responseId": "r1", "modelVersion": "gemini-3-pro-preview", **extra}


#: A Gemini 3 thought signature (what the stream's parts carry).
gemini_sig = partial(sig, fmt="google", model="gemini-3-pro-preview")


def test_trailing_empty_text_signature_signs_the_text_run() -> None:
    result = feed_elements(
        [
            chunk({"text": "Hello "}),
            chunk({"text": "world"}),
            chunk({"text": "", "thoughtSignature": "AAA"}, finish="STOP"),
        ]
    )
    assert result.message.parts == [TextPart(text="Hello world"), gemini_sig("AAA")]


def test_trailing_empty_text_signature_after_an_unsigned_call_signs_the_call() -> None:
    result = feed_elements(
        [
            chunk({"functionCall": {"name": "f", "args": {}}}),
            chunk({"text": "", "thoughtSignature": "AAA"}, finish="STOP"),
        ]
    )
    assert [p.type for p in result.message.parts] == ["tool_call", "thinking_signature"]


def test_signature_after_a_signed_part_stands_alone() -> None:
    result = feed_elements(
        [
            chunk({"functionCall": {"name": "f", "args": {}}, "thoughtSignature": "AAA"}),
            chunk({"text": "", "thoughtSignature": "BBB"}, finish="STOP"),
        ]
    )
    parts = result.message.parts
    assert [p.type for p in parts] == ["tool_call", "thinking_signature", "thinking_signature"]
    assert parts[1:] == [gemini_sig("AAA"), gemini_sig("BBB")]


def test_second_signature_in_a_run_starts_a_new_part() -> None:
    result = feed_elements(
        [
            chunk({"text": "a", "thoughtSignature": "AAA"}),
            chunk({"text": "b"}),
            chunk({"text": "c", "thoughtSignature": "BBB"}, finish="STOP"),
        ]
    )
    assert result.message.parts == [
        TextPart(text="ab"),
        gemini_sig("AAA"),
        TextPart(text="c"),
        gemini_sig("BBB"),
    ]


def test_thought_then_text_are_separate_parts_and_thought_signature_stays_on_thoughts() -> None:
    result = feed_elements(
        [
            chunk({"text": "hmm", "thought": True}),
            chunk({"thought": True, "thoughtSignature": "AAA"}),
            chunk({"text": "ok"}, finish="STOP"),
        ]
    )
    model = "gemini-3-pro-preview"
    assert result.message.parts == [
        ThinkingTextPart(text="hmm", model_id=model),
        gemini_sig("AAA"),
        TextPart(text="ok"),
    ]
    assert result.items == [ThinkingDelta("hmm"), TextDelta("ok")]


def test_parallel_calls_get_distinct_deterministic_ids() -> None:
    elements = [
        chunk(
            {"functionCall": {"name": "f", "args": {"a": 1}}}, {"functionCall": {"name": "f"}}, finish="STOP"
        )
    ]
    first, second = feed_elements(elements), feed_elements(elements)
    calls = [p for p in first.message.parts if isinstance(p, ToolCallPart)]
    assert [(c.call_id, c.arguments_json) for c in calls] == [("call_r1_0", '{"a":1}'), ("call_r1_1", "{}")]
    assert first.message == second.message


def test_streamed_function_call_arguments() -> None:
    """Vertex ``streamFunctionCallArguments``: partialArgs at JSONPaths, willContinue until the end."""
    result = feed_elements(
        [
            chunk({"functionCall": {"name": "book", "willContinue": True}, "thoughtSignature": "AAA"}),
            chunk(
                {
                    "functionCall": {
                        "partialArgs": [
                            {"jsonPath": "$.city", "stringValue": "San ", "willContinue": True},
                            {"jsonPath": "$.guests", "numberValue": 2},
                        ],
                        "willContinue": True,
                    }
                }
            ),
            chunk(
                {
                    "functionCall": {
                        "partialArgs": [
                            {"jsonPath": "$.city", "stringValue": "Francisco"},
                            {"jsonPath": "$.opts.late", "boolValue": True},
                            {"jsonPath": "$.rooms[1].kind", "stringValue": "twin"},
                            {"jsonPath": "$['note']", "nullValue": "NULL_VALUE"},
                        ],
                        "willContinue": True,
                    }
                }
            ),
            chunk({"functionCall": {}}, finish="STOP"),
        ]
    )
    call, signature = result.message.parts
    assert isinstance(call, ToolCallPart) and signature == gemini_sig("AAA")
    assert call.call_id == "call_r1_0" and call.tool_name == "book"
    assert json.loads(call.arguments_json) == {
        "city": "San Francisco",
        "guests": 2,
        "opts": {"late": True},
        "rooms": [None, {"kind": "twin"}],
        "note": None,
    }
    assert list(json.loads(call.arguments_json)) == ["city", "guests", "opts", "rooms", "note"]
    assert result.items == [ToolCallStart("call_r1_0", "book")]
    assert result.message.stop_reason == "tool_use"


def test_streamed_call_cut_short_keeps_what_arrived() -> None:
    result = feed_elements(
        [
            chunk({"functionCall": {"name": "book", "id": "c9", "willContinue": True}}),
            chunk(
                {
                    "functionCall": {
                        "partialArgs": [{"jsonPath": "$.city", "stringValue": "Par"}],
                        "willContinue": True,
                    }
                }
            ),
        ]
    )
    assert result.message.parts == [
        ToolCallPart(call_id="c9", tool_name="book", arguments_json='{"city":"Par"}')
    ]
    assert result.message.stop_reason == "error"


def test_usage_mapping() -> None:
    usage = {
        "promptTokenCount": 100,
        "cachedContentTokenCount": 60,
        "toolUsePromptTokenCount": 7,
        "candidatesTokenCount": 20,
        "thoughtsTokenCount": 30,
        "totalTokenCount": 157,
    }
    message = feed_elements([chunk({"text": "x"}, finish="STOP", usageMetadata=usage)]).message
    assert message.usage is not None
    assert message.usage.model_dump() == {
        "input_tokens": 107,
        "output_tokens": 50,
        "cached_input_tokens": 60,
        "cache_creation_input_tokens": None,
        "reasoning_tokens": 30,
        "total_tokens": 157,
    }


def test_garbage_usage_is_an_error_event_and_the_parts_stay() -> None:
    """Fuzz regression: a non-integer count used to fail only in ``finish()``, dropping every part."""
    good = {"promptTokenCount": 4, "candidatesTokenCount": 2, "totalTokenCount": 6}
    result = feed_elements(
        [
            chunk({"text": "a", "thought": True}, usageMetadata=good),
            chunk({"text": "b"}, finish="STOP", usageMetadata={"promptTokenCount": "x"}),
        ]
    )
    assert result.message.parts == [
        ThinkingTextPart(text="a", model_id="gemini-3-pro-preview"),
        TextPart(text="b"),
    ]
    assert result.message.stop_reason == "error"
    assert len(result.errors) == 1
    assert "usageMetadata.promptTokenCount" in result.errors[0].error_message
    assert result.message.usage is not None and result.message.usage.total_tokens == 6  # the valid totals


def test_max_tokens_is_length() -> None:
    result = feed_elements([chunk({"text": "x"}, finish="MAX_TOKENS")])
    assert result.message.stop_reason == "length" and result.errors == []


@pytest.mark.parametrize(
    "reason", ["SAFETY", "RECITATION", "PROHIBITED_CONTENT", "MALFORMED_FUNCTION_CALL", "OTHER"]
)
def test_filter_and_malformed_stops_are_errors(reason: str) -> None:
    result = feed_elements([chunk({"text": "partial"}), chunk(finish=reason, **{})])
    assert result.message.stop_reason == "error"
    assert [e.error_message for e in result.errors] == [f"gemini: generation stopped: {reason}"]
    assert result.message.parts == [TextPart(text="partial")]


def test_finish_message_is_reported() -> None:
    element = chunk(finish="MALFORMED_FUNCTION_CALL")
    element["candidates"][0]["finishMessage"] = "Malformed function call: f(x=)"
    result = feed_elements([element])
    assert (
        result.errors[0].error_message
        == "gemini: generation stopped: MALFORMED_FUNCTION_CALL: Malformed function call: f(x=)"
    )


def test_prompt_blocked() -> None:
    result = feed_elements([{"promptFeedback": {"blockReason": "SAFETY"}, "responseId": "r1"}])
    assert result.message.stop_reason == "error"
    assert [e.error_message for e in result.errors] == ["gemini: prompt blocked (SAFETY)"]


def test_other_candidates_are_noted_and_inline_output_data_is_a_file_part() -> None:
    element = chunk({"inlineData": {"mimeType": "image/png", "data": "AAAA"}}, {"text": "hi"}, finish="STOP")
    element["candidates"].append({"content": {"parts": [{"text": "other"}]}, "index": 1})
    result = feed_elements([element])
    assert result.message.parts == [FilePart(media_type="image/png", data="AAAA"), TextPart(text="hi")]
    assert any("candidate 0" in n for n in result.notes)
