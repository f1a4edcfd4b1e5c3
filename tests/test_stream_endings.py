"""Generic stream-parser properties on every recorded model call, for every provider.

Each committed cassette's model calls (multi-response bodies split per call, as the
crosscheck does) are parsed whole and then: re-chunked (fixed sizes and arbitrary
splits, which must not change the result), and given bad endings on the real bytes —
truncated mid-event, clean EOF before the final event, an injected error mid-stream, a
garbled data line, and an unknown event type (only noted). The per-provider framing of
the injected events is the table below; provider-specific mapping rules and synthetic
edge cases stay in the ``test_stream_<provider>.py`` modules.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.contract.providers import CHAT_DIALECTS
from harness.crosscheck import RecordedCall
from harness.model import TextPart, ThinkingSignaturePart, ThinkingTextPart, ToolCallPart
from harness.providers import get_parser
from harness.stream.base import CallResult
from harness.stream.drive import parse_bytes, parse_chunks
from tests.support.cassettes import recorded_calls_of


@dataclass(frozen=True)
class Framing:
    """How one provider frames the events injected into its real streams."""

    errors: dict[str, bytes]  # injected error event(s), by id
    error_fragment: str  # in the one error's message
    garbled: bytes  # a data line that is not JSON
    unknowns: dict[str, bytes]  # event(s) of a type the parser does not know, by id
    unknown_note: str  # in a note about the skipped event
    eof_fragment: str  # in the error for a clean EOF before the final event
    final_marker: bytes  # in the first event that completes the response


_FRAMINGS: dict[str, Framing] = {
    "anthropic": Framing(
        errors={
            "event-error": b"event: error\n"
            b'data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
        },
        error_fragment="overloaded_error: Overloaded",
        garbled=b'event: content_block_delta\ndata: {"type":"content_block_delta","ind\x00ex',
        unknowns={"event-name": b'event: brand_new_event\ndata: {"type":"brand_new_event","x":1}'},
        unknown_note="brand_new_event",
        eof_fragment="ended before the final event",
        final_marker=b"event: message_stop",
    ),
    "openai-chat": Framing(
        errors={
            "data-error-object": b'data: {"error":{"message":"The server had an error","type":"server_error"}}',
            "event-error": b"event: error\n"
            b'data: {"error":{"message":"The server had an error","type":"server_error"}}',
        },
        error_fragment="server_error: The server had an error",
        garbled=b'data: {"id":"x","choi\xff',
        unknowns={
            "event-name": b'event: brand_new_event\ndata: {"x":1}',
            "non-chunk-object": b'data: {"type":"brand_new_event","x":1}',
        },
        unknown_note="skipped",
        eof_fragment="ended before the final event",
        final_marker=b'"finish_reason":"',
    ),
    "openrouter": Framing(
        errors={"event-error": b'event: error\ndata: {"error":{"code":503,"message":"upstream overloaded"}}'},
        error_fragment="upstream overloaded",
        garbled=b'data: {"id":"gen-1","cho',
        unknowns={"event-name": b'event: brand_new_event\ndata: {"x":1}'},
        unknown_note="brand_new_event",
        eof_fragment="ended before the final event",
        final_marker=b'"finish_reason":"',
    ),
    "openai-responses": Framing(
        errors={
            "event-error": b"event: error\n"
            b'data: {"type":"error","code":"server_error","message":"boom","param":null}',
        },
        error_fragment="openai-responses: error event: server_error: boom",
        garbled=b'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","de',
        unknowns={
            "event-name": b'event: response.future_thing\ndata: {"type":"response.future_thing","x":1}'
        },
        unknown_note="response.future_thing",
        eof_fragment="truncated",
        final_marker=b'"response.completed"',
    ),
    "gemini": Framing(
        errors={
            "event-error": b"event: error\n"
            b'data: {"error": {"code": 503, "message": "overloaded", "status": "UNAVAILABLE"}}',
            "error-object": b'data: {"error": {"code": 503, "message": "overloaded", "status": "UNAVAILABLE"}}',
        },
        error_fragment="gemini: UNAVAILABLE (503): overloaded",
        garbled=b'data: {"candidates": [{"content": {"parts": [{"text": "bro',
        unknowns={"event-name": b"event: ping\ndata: {}"},
        unknown_note="'ping'",
        eof_fragment="truncated",
        final_marker=b"finishReason",
    ),
}


#: The OpenAI-compatible dialects frame their Chat streams as Chat Completions does.
FRAMINGS: dict[str, Framing] = _FRAMINGS | {dialect: _FRAMINGS["openai-chat"] for dialect in CHAT_DIALECTS}
#: Streams these SSE injections do not apply to, and where their endings are tested instead.
NOT_SSE = {
    "bedrock": "AWS event-stream frames: endings, CRC and exception frames in tests/test_stream_eventstream.py "
    "and tests/providers/bedrock/test_bedrock.py",
}


def _is_stream(call: RecordedCall) -> bool:
    return not call.body.lstrip().startswith((b"{", b"["))  # a non-streamed JSON body has no events


def _is_chat_framed(call: RecordedCall) -> bool:
    """A dialect's stream from its Responses-compatible endpoint (DeepSeek) is Responses-framed."""
    return call.provider not in CHAT_DIALECTS or b"response.created" not in call.body


def _ends_cleanly(call: RecordedCall) -> bool:
    """A recording that already ends in the provider's error event (Groq's tool_use_failed) is no
    base for injected endings: what follows its error is not the provider's stream any more."""
    return parse_bytes(get_parser(call.provider), call.body).message.stop_reason != "error"


CALLS: dict[str, RecordedCall] = {
    k: c
    for k, c in recorded_calls_of().items()
    if _is_stream(c) and c.provider not in NOT_SSE and _is_chat_framed(c) and _ends_cleanly(c)
}
IDS = sorted(CALLS)


def test_every_provider_has_calls_and_a_framing() -> None:
    streamed = {call.provider for call in recorded_calls_of().values() if _is_stream(call)}
    assert {call.provider for call in CALLS.values()} == streamed - set(NOT_SSE)
    assert {call.provider for call in CALLS.values()} <= set(FRAMINGS)


# ---------------------------------------------------------------- helpers


def events_of(body: bytes) -> list[bytes]:
    """The body's SSE events (blank-line separated, comment-only ones dropped), without terminators."""
    events = body.replace(b"\r\n", b"\n").split(b"\n\n")
    return [e for e in events if e.strip() and not e.startswith(b":")]


def join(events: list[bytes]) -> bytes:
    return b"".join(e + b"\n\n" for e in events)


def parse(provider: str, body: bytes, chunk_size: int | None = None) -> CallResult:
    return parse_bytes(get_parser(provider), body, chunk_size)


def full(call_id: str) -> CallResult:
    call = CALLS[call_id]
    return parse(call.provider, call.body)


def injected(call_id: str, event: bytes) -> CallResult:
    """The call with ``event`` inserted between its middle two events."""
    call = CALLS[call_id]
    events = events_of(call.body)
    k = len(events) // 2
    return parse(call.provider, join([*events[:k], event, *events[k:]]))


def texts(result: CallResult) -> tuple[str, str, str, str]:
    parts = result.message.parts
    return (
        "".join(p.text for p in parts if isinstance(p, TextPart)),
        "".join(p.text for p in parts if isinstance(p, ThinkingTextPart)),
        "".join(p.arguments_json for p in parts if isinstance(p, ToolCallPart)),
        "".join(p.signature for p in parts if isinstance(p, ThinkingSignaturePart)),
    )


def assert_one_error(result: CallResult, fragment: str = "") -> None:
    assert result.message.stop_reason == "error"
    assert len(result.errors) == 1, result.errors
    assert fragment in result.errors[0].error_message


def assert_partial_of(partial: CallResult, whole: CallResult) -> None:
    """Text, thinking, arguments and signatures kept are prefixes of the full parse's."""
    for got, complete in zip(texts(partial), texts(whole), strict=True):
        assert complete.startswith(got)


def cases(attr: str) -> list[tuple[str, str]]:
    """(call id, injected-event id) for every call and its provider's events of one kind."""
    return [(cid, kind) for cid in IDS for kind in getattr(FRAMINGS[CALLS[cid].provider], attr)]


# ---------------------------------------------------------------- chunk boundaries


@pytest.mark.parametrize("size", [1, 3, 7, 17, 64, 256, 1000])
@pytest.mark.parametrize("cid", IDS)
def test_chunk_size_does_not_change_the_result(cid: str, size: int) -> None:
    call = CALLS[cid]
    assert parse(call.provider, call.body, size) == full(cid)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_any_split_gives_the_same_result(data: st.DataObject) -> None:
    call = CALLS[data.draw(st.sampled_from(IDS))]
    body = call.body
    cuts = sorted(set(data.draw(st.lists(st.integers(0, len(body)), max_size=20))))
    pieces = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)], strict=True)]
    assert parse_chunks(get_parser(call.provider)(), pieces) == parse(call.provider, body)


# ---------------------------------------------------------------- bad endings on real bytes


@pytest.mark.parametrize("cid", IDS)
def test_truncated_mid_event(cid: str) -> None:
    events = events_of(CALLS[cid].body)
    k = len(events) * 2 // 3
    cut = len(join(events[:k])) + len(events[k]) // 2
    result = parse(CALLS[cid].provider, join(events)[:cut])
    assert_one_error(result)
    assert_partial_of(result, full(cid))


@pytest.mark.parametrize("cut", ["two-thirds", "before-final"])
@pytest.mark.parametrize("cid", IDS)
def test_clean_eof_before_the_final_event(cid: str, cut: str) -> None:
    framing = FRAMINGS[CALLS[cid].provider]
    events = events_of(CALLS[cid].body)
    if cut == "two-thirds":
        keep = len(events) * 2 // 3
    else:
        keep = next(n for n, event in enumerate(events) if framing.final_marker in event)
    result = parse(CALLS[cid].provider, join(events[:keep]))
    assert_one_error(result, framing.eof_fragment)
    assert_partial_of(result, full(cid))
    if cut == "two-thirds":
        assert result.message.parts  # the partial parts are kept


@pytest.mark.parametrize("then", ["rest", "eof"])
@pytest.mark.parametrize(("cid", "kind"), cases("errors"))
def test_error_mid_stream(cid: str, kind: str, then: str) -> None:
    """An error event between the middle two events, then the rest of the stream or EOF."""
    framing = FRAMINGS[CALLS[cid].provider]
    if then == "rest":
        result = injected(cid, framing.errors[kind])
    else:
        events = events_of(CALLS[cid].body)
        result = parse(CALLS[cid].provider, join([*events[: len(events) // 2], framing.errors[kind]]))
    assert_one_error(result, framing.error_fragment)
    assert result.errors[0].can_retry is True
    assert result.errors[0].response_id is not None
    if then == "rest":
        assert result.message.parts == full(cid).message.parts
    else:
        assert_partial_of(result, full(cid))


@pytest.mark.parametrize("cid", IDS)
def test_garbled_data_line(cid: str) -> None:
    result = injected(cid, FRAMINGS[CALLS[cid].provider].garbled)
    assert_one_error(result, "unparseable")


@pytest.mark.parametrize(("cid", "kind"), cases("unknowns"))
def test_unknown_event_is_only_noted(cid: str, kind: str) -> None:
    framing = FRAMINGS[CALLS[cid].provider]
    result = injected(cid, framing.unknowns[kind])
    assert result.message == full(cid).message
    assert result.errors == []
    assert any(framing.unknown_note in note for note in result.notes)
