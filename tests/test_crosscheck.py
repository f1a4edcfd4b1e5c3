"""Official cross-check: every recorded model call, our final message against the official SDK's.

For every committed cassette and every model call in it, the same bytes go through our
output adapter and through the provider's official client (``harness.crosscheck``);
the two final messages must agree on text, thinking, signatures (decoded bytes), tool
calls, stop reason, usage and response id, with no disagreement beyond the documented
``DIFFERENCES``. Synthetic streams cover the differences the recordings never show, and
every entry must be needed by at least one case (no stale entries).
"""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest

from harness.contract.providers import CHAT_DIALECTS
from harness.crosscheck import (
    DIFFERENCES,
    PROVIDERS,
    RecordedCall,
    SdkComparison,
    compare,
    crosscheck,
    ours,
    sdk_accumulate,
)
from harness.stream.base import CallResult
from tests.support.cassettes import cassette_cases, recorded_calls_of

#: Bedrock has no SDK accumulator here: its calls are cross-checked against botocore's decoding in
#: tests/providers/bedrock/test_bedrock.py. The cohere SDK accumulates nothing (``chat_stream`` yields the events; its
#: recorded calls are non-streamed bodies, replayed in tests/providers/cohere/test_stream_cohere.py).
#: Every other bundled call (the dialects' on their wire) is judged here.
NO_ACCUMULATOR = ("bedrock", "cohere")
CALLS: dict[str, RecordedCall] = {
    name: call for name, call in recorded_calls_of().items() if call.provider not in NO_ACCUMULATOR
}


# ---------------------------------------------------------------- synthetic streams for what recordings lack


def _sse(*payloads: dict[str, Any], events: bool = False, done: bool = False) -> bytes:
    """``data:`` lines (with ``event: <type>`` lines for Anthropic and Responses)."""
    out = b"".join(
        (f"event: {p['type']}\n" if events else "").encode() + f"data: {json.dumps(p)}\n\n".encode()
        for p in payloads
    )
    return out + (b"data: [DONE]\n\n" if done else b"")


def _anthropic(*blocks: tuple[dict[str, Any], list[dict[str, Any]]], stop: str = "end_turn") -> bytes:
    message: dict[str, Any] = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-x",
        "content": [],
    }
    payloads: list[dict[str, Any]] = [
        {"type": "message_start", "message": {**message, "usage": {"input_tokens": 5, "output_tokens": 1}}}
    ]
    for index, (block, deltas) in enumerate(blocks):
        payloads.append({"type": "content_block_start", "index": index, "content_block": block})
        payloads += [{"type": "content_block_delta", "index": index, "delta": d} for d in deltas]
        payloads.append({"type": "content_block_stop", "index": index})
    payloads.append({"type": "message_delta", "delta": {"stop_reason": stop}, "usage": {"output_tokens": 3}})
    payloads.append({"type": "message_stop"})
    return _sse(*payloads, events=True)


def _chat(*deltas: dict[str, Any], finish: str = "stop") -> bytes:
    head: dict[str, Any] = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m"}
    chunks = [{**head, "choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in deltas]
    chunks.append({**head, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
    usage = {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}
    chunks.append({**head, "choices": [], "usage": usage})
    return _sse(*chunks, done=True)


_RESPONSE: dict[str, Any] = {
    "id": "resp_1",
    "object": "response",
    "created_at": 1,
    "model": "gpt-5",
    "output": [],
}
_USAGE = {
    "input_tokens": 10,
    "input_tokens_details": {"cached_tokens": 0},
    "output_tokens": 4,
    "output_tokens_details": {"reasoning_tokens": 0},
    "total_tokens": 14,
}


def _responses(items: list[dict[str, Any]], *, status: str = "completed", **final: Any) -> bytes:
    """A Responses stream: each item added, its content streamed whole, done; then the terminal event."""
    payloads: list[dict[str, Any]] = [
        {"type": "response.created", "response": {**_RESPONSE, "status": "in_progress"}}
    ]
    for n, item in enumerate(items):
        payloads.append(
            {"type": "response.output_item.added", "output_index": n, "item": {**item, "content": []}}
        )
        for c, part in enumerate(item.get("content") or ()):
            kind = "refusal" if part["type"] == "refusal" else "output_text"
            empty = {"type": part["type"], kind if kind == "refusal" else "text": ""}
            where = {"item_id": item["id"], "output_index": n, "content_index": c}
            payloads.append({"type": "response.content_part.added", **where, "part": empty})
            delta_type = "response.refusal.delta" if kind == "refusal" else "response.output_text.delta"
            text = part.get("refusal") or part.get("text")
            payloads.append({"type": delta_type, **where, "delta": text})
        payloads.append({"type": "response.output_item.done", "output_index": n, "item": item})
    terminal = {**_RESPONSE, "status": status, "output": items, "usage": _USAGE, **final}
    payloads.append({"type": f"response.{status}", "response": terminal})
    for n, payload in enumerate(payloads):
        payload["sequence_number"] = n
    return _sse(*payloads, events=True)


def _gemini(*chunks: tuple[list[dict[str, Any]], str | None]) -> bytes:
    usage = {"promptTokenCount": 4, "candidatesTokenCount": 2, "totalTokenCount": 6}
    payloads: list[dict[str, Any]] = []
    for parts, finish in chunks:
        candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
        if finish:
            candidate["finishReason"] = finish
        payloads.append(
            {"candidates": [candidate], "usageMetadata": usage, "modelVersion": "g", "responseId": "r1"}
        )
    return _sse(*payloads)


def _message(*content: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": list(content),
    }


SYNTHETIC: dict[str, tuple[str, bytes]] = {
    "anthropic-refusal": (
        "anthropic",
        _anthropic(
            ({"type": "text", "text": "I "}, [{"type": "text_delta", "text": "won't"}]), stop="refusal"
        ),
    ),
    "anthropic-server-tool": (
        "anthropic",
        _anthropic(
            (
                {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}},
                [{"type": "input_json_delta", "partial_json": '{"q": "x"}'}],
            ),
            ({"type": "text", "text": ""}, [{"type": "text_delta", "text": "found it"}]),
        ),
    ),
    "anthropic-two-signature-deltas": (
        "anthropic",
        _anthropic(
            (
                {"type": "thinking", "thinking": "", "signature": ""},
                [
                    {"type": "thinking_delta", "thinking": "hmm"},
                    {"type": "signature_delta", "signature": "AAAA"},
                    {"type": "signature_delta", "signature": "BBBB"},
                ],
            ),
        ),
    ),
    "anthropic-redacted-thinking": (
        "anthropic",
        _anthropic(({"type": "redacted_thinking", "data": "EmwK"}, [])),
    ),
    "openai-chat-repeated-id-and-name": (
        "openai-chat",
        _chat(
            *[
                {
                    "tool_calls": [
                        {"index": 0, "id": "a", "type": "function", "function": {"name": "f", "arguments": a}}
                    ]
                }
                for a in ('{"x":', "1}")
            ],
            finish="tool_calls",
        ),
    ),
    "openai-chat-text-thinking-text": (
        "openai-chat",
        _chat({"content": "a"}, {"reasoning": "r"}, {"content": "b"}),
    ),
    "openai-chat-refusal": ("openai-chat", _chat({"refusal": "I can't "}, {"refusal": "help with that."})),
    "openai-chat-content-filter": ("openai-chat", _chat({"content": "partial"}, finish="content_filter")),
    "openrouter-unknown-reasoning-detail": (
        "openrouter",
        _chat(
            {"reasoning_details": [{"type": "reasoning.future", "index": 0, "format": "x"}]},
            {"content": "ok"},
        ),
    ),
    "openai-responses-refusal": (
        "openai-responses",
        _responses([_message({"type": "refusal", "refusal": "I can't help with that."})]),
    ),
    "openai-responses-incomplete-content-filter": (
        "openai-responses",
        _responses(
            [_message({"type": "output_text", "text": "partial", "annotations": []})],
            status="incomplete",
            incomplete_details={"reason": "content_filter"},
        ),
    ),
    "openai-responses-web-search": (
        "openai-responses",
        _responses(
            [
                {"id": "ws_1", "type": "web_search_call", "status": "completed"},
                _message({"type": "output_text", "text": "found it", "annotations": []}),
            ]
        ),
    ),
    "gemini-safety": ("gemini", _gemini(([{"text": "partial"}], None), ([], "SAFETY"))),
    "gemini-inline-data": (
        "gemini",
        _gemini(([{"inlineData": {"mimeType": "image/png", "data": "AAAA"}}, {"text": "a cat"}], "STOP")),
    ),
    # the shape of traffic/pydantic-ai/models__test_anthropic__test_anthropic_mcp_servers_stream.yaml
    "anthropic-mcp-tool-input": (
        "anthropic",
        _anthropic(
            (
                {
                    "type": "mcp_tool_use",
                    "id": "mcptoolu_1",
                    "name": "ask",
                    "server_name": "wiki",
                    "input": {},
                },
                [{"type": "input_json_delta", "partial_json": '{"question": "what?"}'}],
            ),
            ({"type": "text", "text": ""}, [{"type": "text_delta", "text": "it is"}]),
        ),
    ),
    # the shape of traffic/pydantic-ai-more/models__test_groq__test_groq_model_web_search_tool_stream.yaml
    "openai-chat-executed-tools-repeated": (
        "openai-chat",
        _chat(
            {"executed_tools": [{"index": 0, "type": "search", "arguments": '{"q": "x"}'}]},
            {"executed_tools": [{"index": 0, "arguments": '{"q": "x"}', "output": "found"}]},
            {"content": "done"},
        ),
    ),
}


# ---------------------------------------------------------------- cached results (each SDK run once per case)


def _case(name: str) -> tuple[str, bytes]:
    if name in CALLS:
        return CALLS[name].provider, CALLS[name].body
    return SYNTHETIC[name]


# The SDK's own refusal of a recorded stream: there is nothing to compare, so the case is a skip
# with this reason (GitHub Copilot's /responses rotates the response id; openai's Responses stream
# accumulator raises "Lifecycle response identity changed"). tests/test_stream_realworld.py checks
# that recording on the same stream with the ids restored.
_SDK_REFUSALS = ("Lifecycle response identity changed",)


def _refused(name: str) -> str | None:
    from openai import APIError

    try:
        _results(name)
    except APIError as exc:
        # An in-stream ``error`` event (Groq's tool_use_failed, cassettes/groq/): the SDK raises instead
        # of returning a message; ours must end the message as an error naming it.
        provider, body = _case(name)
        result = ours(provider, body)
        assert result.message.stop_reason == "error" and result.errors, name
        return f"the SDK raised on the stream's error event: {exc}"
    except RuntimeError as exc:
        if any(reason in str(exc) for reason in _SDK_REFUSALS):
            return str(exc)
        raise
    return None


@functools.cache
def _results(name: str) -> tuple[CallResult, Any]:
    provider, body = _case(name)
    return ours(provider, body), sdk_accumulate(provider, body)


def _compare(name: str, disabled: frozenset[str] = frozenset()) -> SdkComparison:
    provider, body = _case(name)
    result, sdk = _results(name)
    return compare(provider, result, sdk, body, disabled=disabled)


# ---------------------------------------------------------------- every recorded call


def test_every_cassette_has_model_calls() -> None:
    cassettes = {
        f"{provider}-{path.stem}" for provider, path in cassette_cases() if provider not in NO_ACCUMULATOR
    }
    assert cassettes and all(any(c.startswith(f"{name}-") for c in CALLS) for name in cassettes)
    # Bedrock: no SDK accumulator; its recordings are cross-checked against botocore's decoding and
    # event parsing in tests/providers/bedrock/test_bedrock.py. The dialects' calls are judged on their wire (OpenAI's SDK).
    assert {call.provider for call in CALLS.values()} == set(PROVIDERS) - set(NO_ACCUMULATOR) - set(
        CHAT_DIALECTS
    )


@pytest.mark.parametrize("name", sorted(CALLS))
def test_our_final_message_agrees_with_the_sdk(name: str) -> None:
    if refusal := _refused(name):
        pytest.skip(f"the official SDK refuses this recorded stream: {refusal}")
    verdict = _compare(name)
    assert verdict.ok, str(verdict)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_agreement_holds_when_both_read_small_chunks(name: str) -> None:
    call = CALLS[name]
    if refusal := _refused(name):
        pytest.skip(f"the official SDK refuses this recorded stream: {refusal}")
    verdict = crosscheck(call.provider, call.body, chunk_size=13)
    assert verdict.ok, str(verdict)


@pytest.mark.parametrize("name", sorted(SYNTHETIC))
def test_synthetic_stream_agrees_with_the_sdk(name: str) -> None:
    verdict = _compare(name)
    assert verdict.ok, str(verdict)


# ---------------------------------------------------------------- the differences list itself


def test_differences_are_well_formed() -> None:
    keys = [(d.id, d.provider) for d in DIFFERENCES]
    assert len(keys) == len(set(keys))
    for difference in DIFFERENCES:
        assert difference.provider in PROVIDERS, difference.id
        assert difference.where.strip() and difference.why.strip(), difference.id


@pytest.mark.parametrize("difference", list(dict.fromkeys(d.id for d in DIFFERENCES)))
def test_every_difference_is_needed_by_some_case(difference: str) -> None:
    """Switched off alone, the entry turns an agreeing case into a disagreement: it is not stale."""
    providers = {d.provider for d in DIFFERENCES if d.id == difference}
    needed_by = [
        name
        for name in [*sorted(CALLS), *sorted(SYNTHETIC)]
        if _case(name)[0] in providers
        and (name not in CALLS or not _refused(name))
        and _compare(name).ok
        and not _compare(name, frozenset({difference})).ok
    ]
    assert needed_by, f"{difference}: no cassette or synthetic case needs it"


def test_an_undocumented_difference_fails() -> None:
    """A change no entry explains (a tool-call id here) is reported, not normalised away."""
    name = "openai-chat-pai__gpt4omini_tool_call_roundtrip-0"
    provider, body = _case(name)
    result, sdk = _results(name)
    parts = [
        part.model_copy(update={"call_id": "other"}) if part.type == "tool_call" else part
        for part in result.message.parts
    ]
    tampered = CallResult(result.message.model_copy(update={"parts": parts}), result.items, result.errors)
    verdict = compare(provider, tampered, sdk, body)
    assert not verdict.ok
    assert any("tool_call" in m and "other" in m for m in verdict.mismatches)


def test_a_difference_only_applies_where_its_rule_holds() -> None:
    """The signature rule rewrites only the SDK's response.completed copy, not any unequal signature."""
    name = "openai-responses-vercelai__openai-reasoning-encrypted-content.1-0"
    provider, body = _case(name)
    result, sdk = _results(name)
    parts = [
        part.model_copy(update={"signature": "AAAA"}) if part.type == "thinking_signature" else part
        for part in result.message.parts
    ]
    tampered = CallResult(result.message.model_copy(update={"parts": parts}), result.items, result.errors)
    assert not compare(provider, tampered, sdk, body).ok
