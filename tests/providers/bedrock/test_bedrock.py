"""Provider ``bedrock`` (AWS Bedrock Converse): stream parser, adapter, oracles.

The parser is checked against botocore's own reading of every recorded ConverseStream
body (``harness.crosscheck.bedrock``) under random chunkings; endings without
``messageStop``, exception frames and broken frames are errors; every recorded non-streamed
Converse answer parses; the adapter maps each canonical part to its Converse block and the
oracles refuse what the service model refuses.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.codec import loads_history
from harness.contract.routing import route
from harness.crosscheck.bedrock import botocore_accumulate, project
from harness.model import HistoryEvent
from harness.oracles import validate
from harness.params import CallParams, ThinkingParams
from harness.providers.bedrock.profile import family, reasoning_style, takes_tool_result_images, top_k_field
from harness.providers.bedrock.request import ADAPTER
from harness.providers.bedrock.stream import PARSER
from harness.providers.replay import load_exchanges, replay_exchange
from harness.stream.drive import parse_bytes, parse_chunks
from tests.support.bodies import BEDROCK, PNG
from tests.support.eventstream import event_frame

ROOT = Path(__file__).resolve().parents[3]
TRAFFIC = ROOT / "traffic" / "pydantic-ai-more"
_STOP = {"end_turn": "stop", "tool_use": "tool_use", "max_tokens": "length", "stop_sequence": "stop"}


@cache
def streams() -> tuple[tuple[str, bytes], ...]:
    out: list[tuple[str, bytes]] = []
    for path in sorted(TRAFFIC.glob("*stream*.yaml")):
        for n, exchange in enumerate(load_exchanges(path, None)):
            if exchange.uri.endswith("/converse-stream"):
                out.append((f"{path.name}#{n}", exchange.body))
    return tuple(out)


# ---------------------------------------------------------------- stream


def test_every_recorded_stream_is_routed_to_bedrock() -> None:
    routed = route(
        "POST",
        "https://bedrock-runtime.us-east-1.amazonaws.com/model/us.amazon.nova-micro-v1%3A0/converse-stream",
    )
    assert routed is not None and (routed.provider, routed.wire) == ("bedrock", "bedrock-converse")
    assert route("POST", "https://bedrock-runtime.us-east-1.amazonaws.com/model/x/invoke") is None
    assert len(streams()) == 8


@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_replay_equals_botocore_accumulation_under_any_chunking(data: st.DataObject) -> None:
    for where, body in streams():
        ours_size = data.draw(st.integers(1, 400), label=f"{where} ours")
        sdk = botocore_accumulate(body, data.draw(st.integers(1, 400), label="botocore"))
        result = parse_bytes(PARSER, body, ours_size)
        assert result.errors == [], where
        assert project(result.message) == [p for b in sdk["blocks"] for p in b["pieces"]], where
        assert result.message.stop_reason == _STOP[sdk["stop_reason"]], where
        usage = result.message.usage
        assert usage is not None
        assert (usage.input_tokens - (usage.cached_input_tokens or 0), usage.output_tokens) == (
            sdk["usage"]["input"],
            sdk["usage"]["output"],
        ), where


def _frames(body: bytes) -> list[bytes]:
    out: list[bytes] = []
    offset = 0
    while offset < len(body):
        size = int.from_bytes(body[offset : offset + 4], "big")
        out.append(body[offset : offset + size])
        offset += size
    return out


def test_a_stream_without_message_stop_ends_as_error() -> None:
    for where, body in streams():
        kept = [f for f in _frames(body) if b"messageStop" not in f[:120]]
        result = parse_bytes(PARSER, b"".join(kept))
        assert result.message.stop_reason == "error", where
        assert any("truncated" in e.error_message for e in result.errors), where


def test_a_cut_or_corrupt_frame_is_the_stream_error() -> None:
    _, body = streams()[0]
    cut = parse_bytes(PARSER, body[:-3])
    assert cut.message.stop_reason == "error"
    assert any("incomplete frame" in e.error_message for e in cut.errors)
    broken = bytearray(body)
    broken[len(_frames(body)[0]) + 40] ^= 0x20
    corrupt = parse_bytes(PARSER, bytes(broken))
    assert corrupt.message.stop_reason == "error"
    assert any("CRC mismatch" in e.error_message for e in corrupt.errors)


def test_an_exception_frame_is_the_stream_error() -> None:
    body = (
        event_frame("messageStart", {"role": "assistant"})
        + event_frame("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": "Hel"}})
        + event_frame("throttlingException", {"message": "Too many requests"}, kind="exception")
    )
    result = parse_chunks(PARSER(), [body[:30], body[30:]])
    assert result.message.stop_reason == "error"
    assert [(e.error_message, e.can_retry) for e in result.errors] == [
        ("bedrock: throttlingException: Too many requests", True)
    ]
    assert project(result.message) == [{"text": "Hel"}]


def test_tool_use_without_input_and_stop_reasons() -> None:
    body = (
        event_frame("messageStart", {"role": "assistant"})
        + event_frame(
            "contentBlockStart",
            {"contentBlockIndex": 0, "start": {"toolUse": {"toolUseId": "t1", "name": "now"}}},
        )
        + event_frame("contentBlockStop", {"contentBlockIndex": 0})
        + event_frame("messageStop", {"stopReason": "content_filtered"})
        + event_frame("metadata", {"usage": {"inputTokens": 3, "outputTokens": 1, "cacheReadInputTokens": 5}})
    )
    result = parse_bytes(PARSER, body)
    assert project(result.message) == [{"arguments": {}, "id": "t1", "tool": "now"}]
    assert result.message.stop_reason == "error"  # a filtered turn is never a normal stop
    usage = result.message.usage
    assert usage is not None and (usage.input_tokens, usage.cached_input_tokens) == (8, 5)


def test_every_recorded_converse_answer_parses() -> None:
    seen = 0
    for path in sorted(TRAFFIC.glob("*.yaml")):
        for exchange in load_exchanges(path, None):
            if exchange.uri.endswith("/converse") and "bedrock-runtime" in exchange.uri:
                result = replay_exchange(PARSER, exchange)
                seen += 1
                if exchange.status >= 400:
                    assert result.message.stop_reason == "error", path.name
                    continue
                document = json.loads(exchange.body)
                assert result.errors == [], (path.name, result.errors)
                assert result.message.stop_reason == _STOP[document["stopReason"]], path.name
                usage = result.message.usage
                assert usage is not None and usage.output_tokens == document["usage"]["outputTokens"]
    assert seen >= 140


# ---------------------------------------------------------------- adapter


def _history(*lines: dict[str, Any]) -> list[HistoryEvent]:
    return loads_history("\n".join(json.dumps(line) for line in lines))


CONVERSATION = _history(
    {"role": "system", "parts": [{"type": "text", "text": "Be brief."}]},
    {"role": "user", "parts": [{"type": "text", "text": "Weather?"}, {"type": "image_url", "url": f"data:image/png;base64,{PNG}"}]},
    {"role": "assistant", "id": "m1", "parts": [
        {"type": "thinking_text", "text": "Look it up.", "model_id": "us.anthropic.claude-sonnet-4-5-20250929-v1:0"},
        {"type": "thinking_signature", "signature": "c2ln", "format": "bedrock", "model_id": "us.anthropic.claude-sonnet-4-5-20250929-v1:0"},
        {"type": "thinking_signature", "signature": "cmVk", "format": "bedrock-redacted"},
        {"type": "tool_call", "call_id": "tooluse_1", "tool_name": "get_weather", "arguments_json": "{\"city\": \"Paris\"}"},
    ]},
    {"role": "tool", "call_id": "tooluse_1", "tool_name": "get_weather", "status": "error", "output_text": "boom",
     "parts": [{"type": "image_url", "url": f"data:image/png;base64,{PNG}"}]},
    {"role": "developer", "parts": [{"type": "text", "text": "Answer in French."}]},
)  # fmt: skip
TOOLS = [{"name": "get_weather", "description": "Weather", "parameters": {"type": "object"}}]


def _render(model: str, **params: Any) -> tuple[dict[str, Any], set[str]]:
    rendered = ADAPTER.render(
        CONVERSATION, CallParams.model_validate({"model": model, "tools": TOOLS, **params})
    )
    return rendered.body, {w.code for w in rendered.warnings}


def test_every_canonical_part_maps_to_its_converse_block() -> None:
    body, _ = _render("us.anthropic.claude-sonnet-4-5-20250929-v1:0")
    assert body["system"] == [{"text": "Be brief."}]
    user, assistant, results = body["messages"]
    assert user["content"][1] == {"image": {"format": "png", "source": {"bytes": PNG}}}
    assert assistant["content"] == [
        {"reasoningContent": {"reasoningText": {"signature": "c2ln", "text": "Look it up."}}},
        {"reasoningContent": {"redactedContent": "cmVk"}},
        {"toolUse": {"input": {"city": "Paris"}, "name": "get_weather", "toolUseId": "tooluse_1"}},
    ]
    result = results["content"][0]["toolResult"]
    assert result["status"] == "error" and result["toolUseId"] == "tooluse_1"
    assert result["content"][:2] == [{"text": "boom"}, {"image": {"format": "png", "source": {"bytes": PNG}}}]
    assert (
        result["content"][2]["text"].strip() == "Answer in French."
    )  # developer text degraded into the result
    assert body["toolConfig"]["tools"][0]["toolSpec"]["inputSchema"] == {"json": {"type": "object"}}
    assert "modelId" not in body and "stream" not in body
    assert validate("bedrock", body).ok


def test_model_families_differ_as_the_profile_says() -> None:
    mistral, codes = _render("us.mistral.pixtral-large-2502-v1:0")
    assert "tool-image-moved" in codes
    assert all("image" not in c for c in mistral["messages"][2]["content"][0]["toolResult"]["content"])
    assert mistral["messages"][2]["content"][1] == {"image": {"format": "png", "source": {"bytes": PNG}}}
    claude, _ = _render(
        "us.anthropic.claude-sonnet-4-5-20250929-v1:0", thinking=ThinkingParams(budget_tokens=2000)
    )
    assert claude["additionalModelRequestFields"] == {"thinking": {"budget_tokens": 2000, "type": "enabled"}}
    assert "inferenceConfig" not in claude  # Bedrock's default maxTokens exceeds the budget (accepted)
    small, codes = _render(
        "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        thinking=ThinkingParams(budget_tokens=2000),
        max_tokens=1500,
    )
    assert small["inferenceConfig"]["maxTokens"] > 2000 and "max-tokens-raised" in codes
    oss, _ = _render("openai.gpt-oss-120b-1:0", thinking=ThinkingParams(effort="high"))
    assert oss["additionalModelRequestFields"] == {"reasoning_effort": "high"}
    nova, codes = _render("us.amazon.nova-micro-v1:0", thinking=ThinkingParams())
    assert "additionalModelRequestFields" not in nova and "thinking-unsupported" in codes
    assert family("us.meta.llama4-maverick-17b-instruct-v1:0") == "meta" and takes_tool_result_images(
        "meta.llama4"
    )
    assert reasoning_style("anthropic.claude-3-5-sonnet-20240620-v1:0") is None
    assert top_k_field("us.amazon.nova-micro-v1:0") == ("inferenceConfig", "topK")
    for model in (
        "us.mistral.pixtral-large-2502-v1:0",
        "openai.gpt-oss-120b-1:0",
        "us.amazon.nova-micro-v1:0",
    ):
        body, _ = _render(model)
        assert validate("bedrock", body).ok, model


def test_foreign_signatures_are_not_sent() -> None:
    history = copy.deepcopy(CONVERSATION)
    body, codes = _render("us.anthropic.claude-sonnet-4-6")  # another model: its reasoning is dropped
    assert "thinking-foreign" in codes
    assert all(
        "reasoningContent" not in b or "redactedContent" in b["reasoningContent"]
        for b in body["messages"][1]["content"]
    )
    assert history == CONVERSATION


# ---------------------------------------------------------------- oracles


Change = Callable[[dict[str, Any]], object]
ORACLE_CASES: list[tuple[Change, str, set[str]]] = [
        (lambda b: b["messages"][0]["content"][1]["image"].update(format="image/png"), "messages/0/content/1/image/format", {"spec"}),
        (lambda b: b["messages"][0]["content"][0].update(image={"format": "png", "source": {"bytes": PNG}}), "messages/0/content/0", {"spec", "sdk"}),
        (lambda b: b["messages"][0]["content"][1]["image"]["source"].update(bytes="not base64!"), "messages/0/content/1/image/source/bytes", {"spec", "sdk"}),
        (lambda b: b["messages"][1]["content"][3]["toolUse"].update(toolUseId="call 1"), "messages/1/content/3/toolUse/toolUseId", {"spec"}),
        (lambda b: b.update(model="x"), "", {"spec", "sdk"}),
        (lambda b: b["messages"][2].update(role="tool"), "messages/2/role", {"spec"}),
        (lambda b: b["inferenceConfig"].update(maxTokens=0), "inferenceConfig/maxTokens", {"spec", "sdk"}),
    ]  # fmt: skip


@pytest.mark.parametrize(("change", "where", "oracles"), ORACLE_CASES)
def test_oracles_refuse_what_the_service_model_refuses(change: Change, where: str, oracles: set[str]) -> None:
    body = copy.deepcopy(BEDROCK)
    change(body)
    report = validate("bedrock", body)
    assert {e.oracle for e in report.errors} == oracles, str(report)
    assert all(e.path.startswith(where) for e in report.errors), str(report)
