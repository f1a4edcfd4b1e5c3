"""Output-side fuzzing: every provider parser, fed garbage and damaged streams, never raises and always
ends in exactly one final assistant message with a stop reason.

Two families per parser:

- garbage: random bytes, random SSE lines, and well-framed events of the provider's own
  types whose JSON is random (keys from the provider's vocabulary, so the fuzz reaches
  deep into the handlers). Without the provider's completion marker the result must be
  ``error`` with an error event.
- damaged emitted streams (``harness.emit``): truncated at any offset class (event
  boundary, mid-line, inside a UTF-8 character, anywhere), an error event injected,
  unknown events and comments injected, events duplicated or reordered. Each kind has
  its own expectation (see ``damaged``).

Every result must also be chunking-invariant (any split of the bytes gives the same
message and errors) and derive its runtime events without raising. The default profile
keeps this small; ``--hypothesis-profile=deep`` runs 10,000 cases per family and parser.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.contract.providers import CHAT_DIALECTS
from harness.emit import PROVIDERS, emit_stream
from harness.invariants.cuts import decoder_cuts
from harness.model import AssistantMessage
from harness.providers import get_parser
from harness.strategies import representable_messages
from harness.stream.base import CallResult
from harness.stream.drive import parse_bytes, parse_chunks
from harness.stream.events import derive_events
from tests.support.messages import RICH

DEEP = (settings.default.max_examples if settings.default else 0) >= 5000  # --hypothesis-profile=harness-deep
FUZZ = settings(
    max_examples=10_000 if DEEP else 30,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

#: Substrings without which a body cannot hold a provider's completion marker.
COMPLETION_MARKERS: dict[str, tuple[bytes, ...]] = {
    "anthropic": (b"message_stop",),
    "openai-chat": (b"[DONE]", b"finish_reason"),
    "openrouter": (b"[DONE]", b"finish_reason"),
    "openai-responses": (b"response.completed", b"response.incomplete", b"response.failed"),
    "gemini": (b"finishReason", b"blockReason"),
}

#: Event types and JSON keys each provider's parser looks at.
EVENT_TYPES: dict[str, tuple[str, ...]] = {
    "anthropic": (
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
        "ping",
        "error",
    ),
    "openai-responses": (
        "response.created",
        "response.in_progress",
        "response.completed",
        "response.incomplete",
        "response.failed",
        "response.output_item.added",
        "response.output_item.done",
        "response.reasoning_summary_text.delta",
        "response.reasoning_summary_text.done",
        "response.reasoning_text.delta",
        "response.output_text.delta",
        "response.output_text.done",
        "response.refusal.delta",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
        "error",
    ),
}
VOCABULARY: dict[str, tuple[str, ...]] = {
    "anthropic": (
        "type",
        "index",
        "message",
        "content_block",
        "delta",
        "usage",
        "id",
        "model",
        "text",
        "thinking",
        "signature",
        "data",
        "name",
        "input",
        "partial_json",
        "stop_reason",
        "error",
        "input_tokens",
        "output_tokens",
        "cache_read_input_tokens",
        "output_tokens_details",
        "thinking_tokens",
        "text_delta",
        "thinking_delta",
        "signature_delta",
        "input_json_delta",
        "tool_use",
        "redacted_thinking",
    ),
    "openai-chat": (
        "id",
        "model",
        "choices",
        "index",
        "delta",
        "content",
        "reasoning",
        "reasoning_content",
        "refusal",
        "tool_calls",
        "function",
        "name",
        "arguments",
        "finish_reason",
        "usage",
        "prompt_tokens",
        "completion_tokens",
        "prompt_tokens_details",
        "cached_tokens",
        "error",
        "message",
        "code",
        "x_groq",
        "function_call",
    ),
    "openai-responses": (
        "type",
        "response",
        "id",
        "model",
        "output",
        "status",
        "usage",
        "item",
        "item_id",
        "summary_index",
        "content_index",
        "delta",
        "text",
        "arguments",
        "call_id",
        "name",
        "encrypted_content",
        "summary",
        "content",
        "incomplete_details",
        "reason",
        "error",
        "code",
        "message",
        "refusal",
        "phase",
        "input_tokens",
        "input_tokens_details",
        "output_tokens_details",
    ),
    "gemini": (
        "candidates",
        "content",
        "parts",
        "text",
        "thought",
        "thoughtSignature",
        "functionCall",
        "name",
        "args",
        "id",
        "partialArgs",
        "jsonPath",
        "stringValue",
        "numberValue",
        "willContinue",
        "finishReason",
        "index",
        "usageMetadata",
        "promptTokenCount",
        "thoughtsTokenCount",
        "responseId",
        "modelVersion",
        "promptFeedback",
        "blockReason",
        "error",
        "code",
        "status",
        "message",
    ),
}
VOCABULARY["openrouter"] = (
    *VOCABULARY["openai-chat"],
    "reasoning_details",
    "summary",
    "signature",
    "data",
    "format",
)
ERROR_EVENTS: dict[str, bytes] = {
    "anthropic": b'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
    "openai-chat": b'data: {"error":{"message":"boom","type":"server_error","code":500}}\n\n',
    "openrouter": b'data: {"error":{"message":"boom","code":502}}\n\n',
    "openai-responses": b'event: error\ndata: {"type":"error","code":"server_error","message":"boom"}\n\n',
    "gemini": b'data: {"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}}\n\n',
}
UNKNOWN_EVENTS: dict[str, tuple[bytes, ...]] = {
    "anthropic": (b'event: x_future\ndata: {"type":"x_future","index":0}\n\n',),
    "openai-responses": (b'event: response.x_future\ndata: {"type":"response.x_future"}\n\n',),
    "openai-chat": (b'event: x_future\ndata: {"choices":[]}\n\n',),
    "openrouter": (b'event: x_future\ndata: {"choices":[]}\n\n',),
    "gemini": (b'event: x_future\ndata: {"candidates":[]}\n\n',),
}
# The OpenAI-compatible dialects stream Chat Completions chunks: Chat's tables (reasoning fields included).
for _dialect in CHAT_DIALECTS:
    for _table in (COMPLETION_MARKERS, EVENT_TYPES, VOCABULARY, ERROR_EVENTS, UNKNOWN_EVENTS):
        if "openai-chat" in _table:  # EVENT_TYPES is keyed by wire
            _table[_dialect] = _table["openai-chat"]  # pyright: ignore[reportArgumentType]
# Cohere v2 Chat: its own event types (the cohere SDK's V2ChatStreamResponse union); an error ends
# the message (message-end delta.error, ChatMessageEndEventDelta), and an error object carries message.
COMPLETION_MARKERS["cohere"] = (b"message-end",)
EVENT_TYPES["cohere"] = (
    "message-start",
    "content-start",
    "content-delta",
    "content-end",
    "tool-plan-delta",
    "tool-call-start",
    "tool-call-delta",
    "tool-call-end",
    "citation-start",
    "citation-end",
    "message-end",
    "debug",
)
VOCABULARY["cohere"] = (
    "type",
    "id",
    "index",
    "delta",
    "message",
    "role",
    "content",
    "text",
    "thinking",
    "tool_plan",
    "tool_calls",
    "function",
    "name",
    "arguments",
    "finish_reason",
    "usage",
    "tokens",
    "billed_units",
    "input_tokens",
    "output_tokens",
    "cached_tokens",
    "error",
)
ERROR_EVENTS["cohere"] = (
    b'event: message-end\ndata: {"type":"message-end","delta":{"error":"internal error","finish_reason":"ERROR"}}\n\n'
)
UNKNOWN_EVENTS["cohere"] = (b'event: x-future\ndata: {"type":"x-future","index":0}\n\n',)
HARMLESS_LINES = (b": keep-alive\n\n", b": OPENROUTER PROCESSING\n\n", b"retry: 1000\n\n", b"id: 7\n\n")


# ---------------------------------------------------------------- the properties every result keeps


def run(provider: str, body: bytes) -> CallResult:
    return parse_bytes(get_parser(provider), body)


def assert_sane(provider: str, body: bytes, result: CallResult, split: list[int]) -> None:
    """One final message with a stop reason and usage; ``error`` exactly when there are error events;
    ``error`` whenever the completion marker cannot be there; chunking-invariant; events derivable."""
    message = result.message
    assert isinstance(message, AssistantMessage)
    assert message.stop_reason in ("stop", "length", "tool_use", "error")
    assert message.usage is not None
    assert (message.stop_reason == "error") == bool(result.errors), (message.stop_reason, result.errors)
    if not any(marker in body for marker in COMPLETION_MARKERS[provider]):
        assert message.stop_reason == "error"
    assert AssistantMessage.model_validate(message.model_dump()) == message
    chunks = [body[a:b] for a, b in pairwise([0, *sorted(set(split)), len(body)])]
    again = parse_chunks(get_parser(provider)(), chunks)
    assert (again.message, again.errors) == (message, result.errors)
    derive_events(result)


# ---------------------------------------------------------------- family 1: garbage


@functools.cache  # building a recursive strategy is costly: once per provider
def _json_values(provider: str) -> st.SearchStrategy[Any]:
    keys = st.sampled_from(VOCABULARY[provider]) | st.text(max_size=3)
    # a fixed menu of awkward scalars reaches the handlers' type confusions faster than random ones
    scalars = st.sampled_from([None, True, False, 0, -1, 3, 1.5, 10**20, "", "x", "é", "[DONE]"]) | st.text(
        max_size=6
    )
    return st.recursive(
        scalars | st.sampled_from(VOCABULARY[provider]),
        lambda children: st.lists(children, max_size=3) | st.dictionaries(keys, children, max_size=4),
        max_leaves=10,
    )


@st.composite
def _random_events(draw: st.DrawFn, provider: str) -> bytes:
    """Well-framed events of the provider's own types with random JSON."""
    out: list[bytes] = []
    values = _json_values(provider)
    for _ in range(draw(st.integers(1, 4))):
        payload = draw(st.dictionaries(st.sampled_from(VOCABULARY[provider]), values, max_size=4))
        name: str | None = None
        if provider in EVENT_TYPES:
            name = draw(st.sampled_from(EVENT_TYPES[provider]))
            payload["type"] = name
        elif draw(st.integers(0, 5)) == 5:
            name = draw(st.sampled_from(["error", "message", "x_future"]))
        head = f"event: {name}\n" if name else ""
        out.append(f"{head}data: {json.dumps(payload)}\n\n".encode())
    return b"".join(out)


_line = st.one_of(
    st.text(max_size=20).map(lambda t: f"data: {t}"),
    st.text(max_size=10).map(lambda t: f"event: {t}"),
    st.text(max_size=10).map(lambda t: f": {t}"),
    st.sampled_from(
        ["", "data:", "data: {", 'data: {"a":', "data: null", "data: []", "data: 1", "id: 1", "retry: x"]
    ),
    st.text(max_size=20),
)


@st.composite
def _random_lines(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(_line, max_size=12))
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    return newline.join(lines).encode("utf-8", errors="surrogatepass")


@functools.cache
def garbage(provider: str) -> st.SearchStrategy[bytes]:
    return st.one_of(st.binary(max_size=400), _random_lines(), _random_events(provider))


#: Providers whose streams are SSE: the garbage and damage generators write SSE events. Bedrock's
#: binary frames are damaged bit by bit and cut at every offset in tests/test_stream_eventstream.py.
SSE_PROVIDERS = [p for p in PROVIDERS if p != "bedrock"]


@pytest.mark.parametrize("provider", SSE_PROVIDERS)
@FUZZ
@given(data=st.data())
def test_garbage_never_crashes_and_ends_in_error(provider: str, data: st.DataObject) -> None:
    body = data.draw(garbage(provider), label="body")
    result = run(provider, body)
    assert_sane(
        provider, body, result, data.draw(st.lists(st.integers(0, len(body)), max_size=6), label="split")
    )


# ---------------------------------------------------------------- family 2: damaged emitted streams


def _boundaries(body: bytes) -> list[int]:
    """Offsets right after each event (an SSE event ends with a blank line)."""
    out: list[int] = []
    start = 0
    while (found := body.find(b"\n\n", start)) >= 0:
        out.append(found + 2)
        start = found + 2
    return out


def _events(body: bytes) -> list[bytes]:
    cuts = [0, *_boundaries(body)]
    return [body[a:b] for a, b in pairwise(cuts)]


@dataclass(frozen=True)
class Damaged:
    """A damaged stream, what was done to it, and the intact stream's body."""

    kind: str
    body: bytes
    intact: bytes


@st.composite
def damaged(draw: st.DrawFn, provider: str) -> Damaged:
    message = draw(representable_messages(provider, max_units=4), label="message")
    intact = emit_stream(provider, message)
    events = _events(intact)
    kind = draw(st.sampled_from(["truncated", "error", "unknown", "duplicated", "reordered"]))
    if kind == "truncated":
        inside_char = [i for i, byte in enumerate(intact) if byte & 0xC0 == 0x80]
        mid_line = [i + 6 for i in range(len(intact)) if intact.startswith(b"data: ", i)]
        classes = [_boundaries(intact)[:-1], mid_line, inside_char, list(range(len(intact)))]
        offsets = draw(st.sampled_from([c for c in classes if c]))
        cut = offsets[draw(st.integers(0, len(offsets) - 1))]
        return Damaged(kind, intact[:cut], intact)
    at = draw(st.integers(0, len(events)))
    if kind == "error":
        return Damaged(kind, b"".join([*events[:at], ERROR_EVENTS[provider], *events[at:]]), intact)
    if kind == "unknown":
        extra = draw(st.sampled_from([*UNKNOWN_EVENTS[provider], *HARMLESS_LINES]))
        return Damaged(kind, b"".join([*events[:at], extra, *events[at:]]), intact)
    at = min(at, len(events) - 1)
    if kind == "duplicated":
        return Damaged(kind, b"".join([*events[: at + 1], events[at], *events[at + 1 :]]), intact)
    other = draw(st.integers(0, len(events) - 1))
    swapped = list(events)
    swapped[at], swapped[other] = swapped[other], swapped[at]
    return Damaged(kind, b"".join(swapped), intact)


EXPECT: dict[str, Callable[[CallResult, CallResult], bool]] = {
    # a cut stream is either still complete (only the tail after the final event was lost) or an error
    "truncated": lambda got, full: (
        (got.message, got.errors) == (full.message, full.errors)
        or (got.message.stop_reason == "error" and bool(got.errors))
    ),
    "error": lambda got, full: got.message.stop_reason == "error" and bool(got.errors),
    # unknown events and comments are skipped: the same message, no error
    "unknown": lambda got, full: (got.message, got.errors) == (full.message, full.errors),
    "duplicated": lambda got, full: True,
    "reordered": lambda got, full: True,
}


@pytest.mark.parametrize("provider", SSE_PROVIDERS)
@FUZZ
@given(data=st.data())
def test_damaged_streams_never_crash(provider: str, data: st.DataObject) -> None:
    case = data.draw(damaged(provider), label="case")
    full = run(provider, case.intact)
    got = run(provider, case.body)
    assert EXPECT[case.kind](got, full), (case.kind, got.message, got.errors, full.message)
    split = data.draw(st.lists(st.integers(0, len(case.body)), max_size=6), label="split")
    assert_sane(provider, case.body, got, split)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_truncation_of_a_rich_stream(provider: str) -> None:
    """Offsets of one stream with every part kind: complete, or error with an error event.

    Every offset under harness-deep; by default each offset where a decoder can go wrong
    (``harness.invariants.cuts``: line ends, field separators, inside characters or frame
    fields) and every 7th byte (mid-payload cuts are all alike: an incomplete line is dropped).
    """
    intact = emit_stream(provider, RICH[provider])
    full = run(provider, intact)
    offsets = range(len(intact)) if DEEP else sorted({0, *decoder_cuts(intact), *range(0, len(intact), 7)})
    for cut in offsets:
        got = run(provider, intact[:cut])
        assert EXPECT["truncated"](got, full), (cut, intact[:cut][-80:], got.message, got.errors)


# ---------------------------------------------------------------- regressions (minimal fuzz counterexamples)

#: Values of the wrong JSON type used to be stored as they came and to fail only when the final
#: message was built, so ``finish()`` raised (ValidationError, TypeError). ``StreamParser`` now
#: rejects them where they arrive (an error event for that event) and ``finish()`` has a last
#: line of defence; each body here raised before.
WRONG_TYPES: list[tuple[str, bytes]] = [
    ("gemini", b'data: {"responseId":[null]}\n\n'),
    (
        "gemini",
        b'data: {"modelVersion":5,"candidates":[{"content":{"parts":[{"text":"a","thought":true}]}}]}\n\n',
    ),
    (
        "gemini",
        b'data: {"usageMetadata":{"promptTokenCount":"x"},"candidates":[{"finishReason":"STOP"}]}\n\n',
    ),
    ("openai-chat", b'data: {"usage":null,"id":[]}\n\n'),
    ("openai-chat", b'data: {"choices":[{"delta":{"content":5}}]}\n\n'),
    ("openai-chat", b'data: {"model":3,"choices":[{"delta":{"reasoning_content":"x"}}]}\n\n'),
    ("openrouter", b'data: {"usage":null,"id":[]}\n\n'),
    ("anthropic", b'event: message_start\ndata: {"type":"message_start","message":{"id":1}}\n\n'),
    (
        "anthropic",
        b'data: {"type":"message_start","message":{"model":1}}\n\n'
        b'data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking"}}\n\n',
    ),
    ("openai-responses", b'data: {"type":"response.created","response":{"id":[1]}}\n\n'),
    (
        "openai-responses",
        b'data: {"type":"response.created","response":{"model":[1]}}\n\n'
        b'data: {"type":"response.reasoning_summary_text.delta","item_id":"r","delta":"x"}\n\n',
    ),
]


@pytest.mark.parametrize(
    ("provider", "body"), WRONG_TYPES, ids=[f"{p}-{n}" for n, (p, _) in enumerate(WRONG_TYPES)]
)
def test_values_of_the_wrong_type_are_error_events_not_exceptions(provider: str, body: bytes) -> None:
    result = run(provider, body)
    assert result.message.stop_reason == "error"
    assert result.errors
    assert_sane(provider, body, result, [len(body) // 2])
