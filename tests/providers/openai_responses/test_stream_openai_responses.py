"""OpenAI Responses output adapter on the committed cassettes (real recordings, scrubbed).

The final message of every recorded call is checked against the openai SDK's own
accumulation (``ResponseStreamState``) in ``tests/test_crosscheck.py``; this module pins
the Responses-specific behaviour. Chunk-boundary invariance and bad endings on real bytes
are in ``tests/test_stream_endings.py``, for every provider.

One deliberate difference from the SDK (``responses-signature-from-output-item-done`` in
``harness.crosscheck.DIFFERENCES``): the SDK's final response is
``response.completed``'s ``output``, whose reasoning ``encrypted_content`` can differ from
the ``response.output_item.done`` copy (two valid encryptions of the same reasoning). We
keep the ``output_item.done`` one; the recorded follow-up request that the API accepted
replays exactly that value (asserted below).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from openai.types.responses import Response

from harness.crosscheck import RecordedCall, crosscheck, sdk_accumulate
from harness.model import (
    AssistantMessage,
    FilePart,
    ServerToolCallPart,
    ServerToolResultPart,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
)
from harness.providers.openai_responses.stream import PARSER, OpenAIResponsesParser
from harness.providers.replay import load_exchanges
from harness.stream.base import CallResult, TextDelta, ThinkingDelta, ToolCallStart
from harness.stream.drive import parse_bytes
from harness.stream.sse import SSEEvent
from harness.targets import get_target
from tests.support.cassettes import events_of, recorded_calls_of

PROVIDER = "openai-responses"
RECORDINGS: dict[str, RecordedCall] = recorded_calls_of(PROVIDER)
IDS = sorted(RECORDINGS)


ROOT = Path(__file__).resolve().parents[3]


def body_of(name: str) -> bytes:
    return RECORDINGS[name].body


def raw_events(body: bytes) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for event in events_of(body):
        for line in event.decode().split("\n"):
            if line.startswith("data: "):
                out.append(json.loads(line[6:]))
    return out


def sdk_final(body: bytes) -> Response:
    response = sdk_accumulate(PROVIDER, body)
    assert isinstance(response, Response)
    return response


def done_signatures(body: bytes) -> dict[str, str]:
    """``encrypted_content`` per reasoning item, as ``response.output_item.done`` gave it."""
    return {
        e["item"]["id"]: e["item"]["encrypted_content"]
        for e in raw_events(body)
        if e.get("type") == "response.output_item.done" and e["item"].get("type") == "reasoning"
    }


def signatures(result: CallResult) -> dict[str | None, str]:
    return {p.id: p.signature for p in result.message.parts if isinstance(p, ThinkingSignaturePart)}


# ---------------------------------------------------------------- (a) real recordings vs the SDK


def test_recordings_found() -> None:
    """The converted AI SDK fixture holds four responses back to back: four calls."""
    assert len(RECORDINGS) == 6


@pytest.mark.parametrize("name", IDS)
def test_signatures_are_the_output_item_done_values(name: str) -> None:
    """Deliberate difference from the SDK: ``output_item.done``'s encrypted_content, byte-exact."""
    body = body_of(name)
    assert signatures(parse_bytes(PARSER, body)) == done_signatures(body)


@pytest.mark.parametrize("name", [n for n in IDS if RECORDINGS[n].following is not None])
def test_the_accepted_follow_up_request_replays_our_signatures(name: str) -> None:
    """The next request of a round trip (HTTP 200) carries the reasoning items we produced."""
    body, following = body_of(name), RECORDINGS[name].following
    replayed = {i["id"]: i["encrypted_content"] for i in following["input"] if i.get("type") == "reasoning"}
    assert replayed and signatures(parse_bytes(PARSER, body)) == replayed


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


def test_gpt55_reasoning_without_summary_and_phase() -> None:
    """A reasoning item with no summary gives a signature-only part; the text keeps its
    message item's ``msg_`` id and ``phase`` (the next request replays them)."""
    result = parse_bytes(
        PARSER, body_of("openai-responses-pai__gpt55_reasoning_function_call_phase_roundtrip-0")
    )
    kinds = [p.type for p in result.message.parts]
    assert kinds == ["thinking_signature", "text", "tool_call"]
    assert result.message.stop_reason == "tool_use"
    text = result.message.parts[1]
    assert isinstance(text, TextPart)
    assert (text.item_id, text.phase) == (
        "msg_0fabc13af1ee0049006a691dfebdc881a1ae18d027c313d8ce",
        "commentary",
    )
    assert not any("phase" in n for n in result.notes)


def test_codex_summary_then_signature() -> None:
    result = parse_bytes(PARSER, body_of("openai-responses-vercelai__openai-reasoning-encrypted-content.1-0"))
    text, sig, call = result.message.parts
    assert isinstance(text, ThinkingTextPart) and isinstance(sig, ThinkingSignaturePart)
    assert text.id == sig.id and text.id is not None and text.id.startswith("rs_")
    assert isinstance(call, ToolCallPart) and call.item_id is not None and call.item_id.startswith("fc_")


# ---------------------------------------------------------------- bad endings (generic ones: test_stream_endings.py)


def test_cut_inside_a_text_delta_keeps_the_phase_from_output_item_added() -> None:
    body = body_of("openai-responses-pai__gpt55_reasoning_function_call_phase_roundtrip-0")
    cut = body.index(b'"delta":"Land"')  # inside an output_text.delta event
    result = parse_bytes(PARSER, body[:cut])
    assert result.message.stop_reason == "error" and result.errors
    kept = result.message.parts
    assert [p.type for p in kept] == ["thinking_signature", "text"]
    assert kept[1] == TextPart(
        text="I\u2019ll check the capital lookup tool for \u201cPotato",
        item_id="msg_0fabc13af1ee0049006a691dfebdc881a1ae18d027c313d8ce",
        phase="commentary",  # from output_item.added: the item never finished
    )


# ---------------------------------------------------------------- non-streamed body


@pytest.mark.parametrize("name", IDS)
def test_non_streamed_response_body(name: str) -> None:
    """The Response object (``response.completed``'s) gives the same message, its own signatures."""
    body = body_of(name)
    final = next(e["response"] for e in raw_events(body) if e["type"] == "response.completed")
    parser = OpenAIResponsesParser()
    parser.feed_response(final)
    result = parser.finish()
    assert result.errors == []
    assert unsigned(result) == unsigned(parse_bytes(PARSER, body))
    sdk = sdk_final(body)
    assert signatures(result) == {i.id: i.encrypted_content for i in sdk.output if i.type == "reasoning"}
    assert crosscheck(PROVIDER, json.dumps(final).encode()).ok  # the SDK's create() on the same body


def unsigned(result: CallResult) -> AssistantMessage:
    """The message with signature values blanked: a body's differ from the stream's by design (above)."""
    parts = [
        p.model_copy(update={"signature": ""}) if isinstance(p, ThinkingSignaturePart) else p
        for p in result.message.parts
    ]
    return result.message.model_copy(update={"parts": parts})


# ---------------------------------------------------------------- synthetic edge cases


def run(*events: dict[str, Any]) -> CallResult:
    parser = OpenAIResponsesParser()
    for event in events:
        parser.feed(SSEEvent(event["type"], json.dumps(event)))
    return parser.finish()


def created() -> dict[str, Any]:
    return {
        "type": "response.created",
        "response": {"id": "resp_1", "model": "gpt-5", "status": "in_progress"},
    }


def completed(status: str = "completed", **extra: Any) -> dict[str, Any]:
    usage = {
        "input_tokens": 100,
        "input_tokens_details": {"cached_tokens": 60, "cache_write_tokens": 5},
        "output_tokens": 40,
        "output_tokens_details": {"reasoning_tokens": 30},
        "total_tokens": 140,
    }
    response = {"id": "resp_1", "model": "gpt-5", "status": status, "usage": usage, **extra}
    return {
        "type": f"response.{status}" if status != "completed" else "response.completed",
        "response": response,
    }


def test_usage_mapping() -> None:
    usage = run(created(), completed()).message.usage
    assert usage is not None
    assert usage.model_dump() == {
        "input_tokens": 100,
        "output_tokens": 40,
        "cached_input_tokens": 60,
        "cache_creation_input_tokens": 5,
        "reasoning_tokens": 30,
        "total_tokens": 140,
    }


def test_summary_parts_each_a_thinking_part_signature_after_the_last() -> None:
    rs = "rs_1"
    result = run(
        created(),
        {"type": "response.output_item.added", "item": {"id": rs, "type": "reasoning", "summary": []}},
        {"type": "response.reasoning_summary_text.delta", "item_id": rs, "summary_index": 0, "delta": "one"},
        {"type": "response.reasoning_summary_text.delta", "item_id": rs, "summary_index": 1, "delta": "two"},
        {
            "type": "response.output_item.done",
            "item": {
                "id": rs,
                "type": "reasoning",
                "summary": [
                    {"type": "summary_text", "text": "one"},
                    {"type": "summary_text", "text": "two!"},
                ],
                "encrypted_content": "gAAA-enc",
            },
        },
        completed(),
    )
    assert result.message.parts == [
        ThinkingTextPart(id=rs, text="one", model_id="gpt-5"),
        ThinkingTextPart(id=rs, text="two!", model_id="gpt-5"),  # the done item's missing tail is added
        ThinkingSignaturePart(id=rs, signature="gAAA-enc", model_id="gpt-5", format="openai-responses"),
    ]


def test_raw_reasoning_text() -> None:
    result = run(
        created(),
        {"type": "response.reasoning_text.delta", "item_id": "rs_2", "content_index": 0, "delta": "raw"},
        {
            "type": "response.output_item.done",
            "item": {
                "id": "rs_2",
                "type": "reasoning",
                "summary": [],
                "content": [{"type": "reasoning_text", "text": "raw"}],
            },
        },
        completed(),
    )
    assert result.message.parts == [ThinkingTextPart(id="rs_2", text="raw", model_id="gpt-5")]


def test_items_without_deltas_come_from_output_item_done() -> None:
    message: dict[str, Any] = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "hello", "annotations": []}],
    }
    call = {"id": "fc_1", "type": "function_call", "call_id": "call_1", "name": "f", "arguments": '{"a":1}'}
    result = run(
        created(),
        {"type": "response.output_item.done", "item": message},
        {"type": "response.output_item.done", "item": call},
        completed(),
    )
    assert result.message.parts == [
        TextPart(text="hello", item_id="msg_1"),
        ToolCallPart(call_id="call_1", tool_name="f", arguments_json='{"a":1}', item_id="fc_1"),
    ]
    assert result.items == [TextDelta("hello"), ToolCallStart("call_1", "f")]
    assert result.message.stop_reason == "tool_use"


def test_completed_output_fills_items_never_streamed() -> None:
    message = {"id": "msg_1", "type": "message", "content": [{"type": "output_text", "text": "late"}]}
    result = run(created(), completed(output=[message]))
    assert result.message.parts == [TextPart(text="late", item_id="msg_1")]


def test_incomplete_max_output_tokens_is_length() -> None:
    result = run(created(), completed("incomplete", incomplete_details={"reason": "max_output_tokens"}))
    assert result.message.stop_reason == "length" and result.errors == []


def test_incomplete_content_filter_is_an_error() -> None:
    result = run(created(), completed("incomplete", incomplete_details={"reason": "content_filter"}))
    assert result.message.stop_reason == "error"
    assert [e.error_message for e in result.errors] == [
        "openai-responses: response incomplete (content_filter)"
    ]


def test_failed_response() -> None:
    result = run(created(), completed("failed", error={"code": "server_error", "message": "kaput"}))
    assert result.message.stop_reason == "error"
    assert [e.error_message for e in result.errors] == [
        "openai-responses: response failed: server_error: kaput"
    ]
    assert result.errors[0].response_id == "resp_1"


def test_nested_error_event() -> None:
    result = run(created(), {"type": "error", "error": {"type": "invalid_request_error", "message": "bad"}})
    assert [e.error_message for e in result.errors] == [
        "openai-responses: error event: invalid_request_error: bad"
    ]
    assert result.message.stop_reason == "error"


def test_refusal_is_kept_as_text() -> None:
    result = run(
        created(),
        {"type": "response.refusal.delta", "item_id": "msg_1", "content_index": 0, "delta": "I can't"},
        {"type": "response.refusal.done", "item_id": "msg_1", "content_index": 0, "refusal": "I can't help."},
        completed(),
    )
    assert result.message.parts == [TextPart(text="I can't help.", item_id="msg_1")]
    assert result.message.stop_reason == "stop"
    assert any("refusal" in n for n in result.notes)


def test_hosted_tool_items_are_server_tool_parts() -> None:
    search: dict[str, Any] = {"id": "ws_1", "type": "web_search_call", "status": "completed"}
    result = run(
        created(),
        {"type": "response.output_item.added", "item": search},
        {"type": "response.web_search_call.completed", "item_id": "ws_1"},
        {"type": "response.output_item.done", "item": search},
        completed(),
    )
    assert result.errors == []
    assert result.message.parts == [
        ServerToolCallPart(
            call_id="ws_1", tool_name="web_search", provider="openai-responses", input_json="{}", raw=search
        ),
        ServerToolResultPart(
            call_id="ws_1", tool_name="web_search", provider="openai-responses", status="success"
        ),
    ]
    assert not any("web_search_call" in n for n in result.notes)  # its progress events carry nothing more


def test_error_body_as_non_streamed_response() -> None:
    parser = OpenAIResponsesParser()
    parser.feed_response({"error": {"code": "rate_limit_exceeded", "message": "slow down"}})
    result = parser.finish()
    assert result.message.stop_reason == "error"
    assert [e.error_message for e in result.errors] == [
        "openai-responses: error event: rate_limit_exceeded: slow down"
    ]


def test_phase_known_only_from_output_item_done_reaches_the_text() -> None:
    """Text streamed before the phase was seen gets it from the item's ``done`` copy."""
    added: dict[str, Any] = {"id": "msg_1", "type": "message", "role": "assistant", "content": []}
    done: dict[str, Any] = {
        **added,
        "phase": "final_answer",
        "content": [{"type": "output_text", "text": "hi", "annotations": []}],
    }
    result = run(
        created(),
        {"type": "response.output_item.added", "item": added},
        {"type": "response.output_text.delta", "item_id": "msg_1", "content_index": 0, "delta": "hi"},
        {"type": "response.output_item.done", "item": done},
        completed(),
    )
    assert result.message.parts == [TextPart(text="hi", item_id="msg_1", phase="final_answer")]


# ---------------------------------------------------------------- generated images


def test_recorded_image_generation_yields_the_image_as_a_file_part() -> None:
    """Recorded (pydantic-ai, non-streamed Response): the image_generation_call's result is the
    assistant's file part, its media type from output_format, its id the item's."""
    exchange = load_exchanges(
        ROOT
        / "traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_image_generation_jpeg.yaml",
        "openai-responses",
    )
    results = [get_target("reference").replay("openai-responses", e) for e in exchange]
    files = [p for r in results for p in r.message.parts if isinstance(p, FilePart)]
    assert (
        len(files) == 1
        and files[0].media_type == "image/jpeg"
        and files[0].id
        and files[0].id.startswith("ig_")
    )
    assert files[0].data and files[0].data.startswith("/9j/")


def _sse(*events: dict[str, Any]) -> bytes:
    return b"".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events)


def test_partial_images_are_replaced_and_kept_when_the_stream_is_cut() -> None:
    """Synthetic (labelled; the recorded stream, LangChain's, is replayed in
    tests/test_replay_other_clients.py): partial images replace each other; the final item's result replaces them; a stream cut before it keeps the last partial."""
    created: dict[str, Any] = {
        "type": "response.created",
        "response": {"id": "resp_1", "model": "gpt-5", "output": []},
    }
    added = {
        "type": "response.output_item.added",
        "output_index": 0,
        "item": {"id": "ig_1", "type": "image_generation_call", "status": "in_progress"},
    }
    partial: list[dict[str, Any]] = [
        {
            "type": "response.image_generation_call.partial_image",
            "item_id": "ig_1",
            "output_index": 0,
            "partial_image_index": i,
            "partial_image_b64": b64,
        }
        for i, b64 in enumerate(["AAAA", "BBBB"])
    ]
    cut = parse_bytes(PARSER, _sse(created, added, *partial))
    assert [(p.data, p.media_type) for p in cut.message.parts if isinstance(p, FilePart)] == [
        ("BBBB", "image/png")
    ]
    done = {
        "type": "response.output_item.done",
        "output_index": 0,
        "item": {
            "id": "ig_1",
            "type": "image_generation_call",
            "status": "completed",
            "output_format": "webp",
            "result": "CCCC",
        },
    }
    completed = {
        "type": "response.completed",
        "response": {
            "id": "resp_1",
            "model": "gpt-5",
            "status": "completed",
            "output": [done["item"]],
            "usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2},
        },
    }
    full = parse_bytes(PARSER, _sse(created, added, *partial, done, completed))
    assert [(p.data, p.media_type, p.id) for p in full.message.parts if isinstance(p, FilePart)] == [
        ("CCCC", "image/webp", "ig_1")
    ]
