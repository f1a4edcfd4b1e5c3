"""Which wire format a recorded response body is in, and where one response ends and the next begins.

Why here, beside the URL router: replay infers the provider from a recording that has
no request URL (a raw SSE body, an AI SDK ``.chunks.txt`` fixture) by its event types,
a parser that was handed the wrong protocol names what arrived instead, and replay,
the SDK cross-check and the benchmarks all split a capture holding several responses
back to back (AI SDK multi-step fixtures) the same way. Pure functions over bytes and
decoded JSON: judges may import this module.

Per wire, what identifies an event and what starts a new response:

- ``anthropic`` (Messages streaming, https://docs.anthropic.com/en/api/messages-streaming):
  ``type`` is one of ``message_start``, ``content_block_*``, ``message_delta``,
  ``message_stop``, ``ping``; a ``message_start`` after an earlier event starts a new
  response (each stream has exactly one, first).
- ``openai-responses`` (https://platform.openai.com/docs/api-reference/responses-streaming):
  ``type`` starts with ``response.``; a ``response.created`` after an earlier event starts
  a new response (each stream opens with exactly one).
- ``openai-chat`` (https://platform.openai.com/docs/api-reference/chat-streaming): a
  ``chat.completion.chunk`` (``object``) or any object with ``choices``; every chunk of
  one completion carries the same ``id``, so a chunk with a different ``id`` after the
  finish chunk (or after ``[DONE]``) starts a new response. A changed ``id`` before any
  finish is not a boundary (one stream never finishes twice).
- ``gemini`` (https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse):
  an object with ``candidates``, ``usageMetadata``, ``promptFeedback`` or
  ``modelVersion``; every chunk of one response carries the same ``responseId``, so a
  different ``responseId`` after a chunk with a ``finishReason`` starts a new response.
- ``bedrock-converse`` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html):
  binary AWS event-stream frames, whose ``:event-type`` is one of ``messageStart``,
  ``contentBlock{Start,Delta,Stop}``, ``messageStop``, ``metadata``; a non-streamed
  ``ConverseResponse`` has ``output`` and ``stopReason``. One response per body.
  Bedrock's InvokeModelWithResponseStream sends ``chunk`` frames instead, whose payload
  ``{"bytes": base64}`` is the model's own event: its wire is the wire of that event
  (Anthropic's, for Claude).
- ``cohere-v2`` (https://docs.cohere.com/v2/docs/streaming): ``type`` is one of
  ``message-start``, ``content-{start,delta,end}``, ``tool-plan-delta``,
  ``tool-call-{start,delta,end}``, ``citation-{start,end}``, ``message-end``, ``debug``; a
  ``message-start`` after an earlier event starts a new response. A non-streamed
  ``V2ChatResponse`` has ``finish_reason`` and a ``message`` object (no ``choices``).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Iterator
from typing import Any, cast

from harness.contract.providers import PROVIDER_TABLE, WIRE_TABLE, home_provider

__all__ = [
    "PROVIDER_WIRES",
    "WIRE_PROVIDER",
    "WIRE_TITLES",
    "sniff_wire",
    "split_responses",
    "wire_of_body",
    "wire_of_event",
]

#: Human names of the wire formats, for messages.
WIRE_TITLES: dict[str, str] = {w.id: w.title for w in WIRE_TABLE}

#: The wire formats each provider id's parsers read (OpenRouter serves two).
PROVIDER_WIRES: dict[str, tuple[str, ...]] = {e.id: e.wires for e in PROVIDER_TABLE}

#: The provider to replay a wire with when nothing else (a request URL) says which: the first
#: provider whose own API speaks it.
WIRE_PROVIDER: dict[str, str] = {w.id: home_provider(w.id) for w in WIRE_TABLE}

_ANTHROPIC_TYPES = frozenset(
    {
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
        "ping",
    }
)
_BEDROCK_EVENTS = frozenset(
    {"messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata"}
)
_COHERE_TYPES = frozenset(
    {
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
    }
)
_GEMINI_KEYS = ("candidates", "usageMetadata", "promptFeedback", "modelVersion")

#: How many events ``sniff_wire`` reads at most: the protocol shows in the first few.
SNIFF_EVENTS = 16


def wire_of_event(event: str | None, data: Any) -> str | None:
    """The wire format one decoded event belongs to (None: shared or unknown, e.g. ``error``, ``[DONE]``)."""
    if not isinstance(data, dict):
        return None
    payload = cast(dict[str, Any], data)
    kind = payload.get("type")
    if not isinstance(kind, str):
        kind = event
    if isinstance(kind, str):
        if kind in _BEDROCK_EVENTS and "type" not in payload:
            return "bedrock-converse"
        if kind in _ANTHROPIC_TYPES:
            return "anthropic"
        if kind in _COHERE_TYPES:
            return "cohere-v2"
        if kind.startswith("response."):
            return "openai-responses"
    if payload.get("object") in ("chat.completion.chunk", "chat.completion") or "choices" in payload:
        return "openai-chat"
    if any(key in payload for key in _GEMINI_KEYS):
        return "gemini"
    return None


def wire_of_body(body: Any) -> str | None:
    """The wire format of a non-streamed JSON response body (or a Gemini JSON array)."""
    if isinstance(body, list):
        items = cast(list[Any], body)
        return wire_of_event(None, items[0]) if items else None
    if not isinstance(body, dict):
        return None
    payload = cast(dict[str, Any], body)
    if payload.get("type") == "message" and "content" in payload:
        return "anthropic"
    if payload.get("object") == "response" or ("output" in payload and "status" in payload):
        return "openai-responses"
    if "output" in payload and "stopReason" in payload:
        return "bedrock-converse"
    if "finish_reason" in payload and isinstance(payload.get("message"), dict) and "choices" not in payload:
        return "cohere-v2"
    return wire_of_event(None, payload)


def _events(body: bytes) -> Iterator[tuple[bytes, str | None, str]]:
    """(raw block, event name, data) per SSE event of ``body``; blocks without data give data ``""``."""
    for block in body.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n\n"):
        if not block.strip():
            continue
        name: str | None = None
        data: list[str] = []
        for line in block.decode("utf-8", errors="replace").split("\n"):
            field, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if field == "data":
                data.append(value)
            elif field == "event":
                name = value
        yield block, name, "\n".join(data)


def _load(data: str) -> Any:
    try:
        return json.loads(data)
    except ValueError:
        return None


def _event_stream_type(body: bytes) -> str | None:
    """The ``:event-type`` header of a body's first AWS event-stream frame (None: not such a frame).

    Frame layout (https://docs.aws.amazon.com/AmazonS3/latest/API/RESTSelectObjectAppendix.html,
    "Event stream encoding"): total length, headers length, prelude CRC32 (4 bytes each, big
    endian), then headers (name length byte, name, value type byte, and for a string, type 7, a
    2-byte length and the value). The prelude CRC must match, so text never passes for a frame.
    """
    if len(body) < 16:
        return None
    total, headers_length = int.from_bytes(body[0:4]), int.from_bytes(body[4:8])
    if total < 16 + headers_length or int.from_bytes(body[8:12]) != zlib.crc32(body[0:8]):
        return None
    headers, at = body[12 : 12 + headers_length], 0
    while at < len(headers):
        size = headers[at]
        name = headers[at + 1 : at + 1 + size]
        at += 1 + size
        if at >= len(headers) or headers[at] != 7:  # only string headers come before :event-type
            return None
        length = int.from_bytes(headers[at + 1 : at + 3])
        value = headers[at + 3 : at + 3 + length]
        at += 3 + length
        if name == b":event-type":
            return value.decode("ascii", errors="replace")
    return None


def _chunk_wire(body: bytes) -> str | None:
    """The wire of the event inside a body's first ``chunk`` frame (Bedrock's InvokeModelWithResponseStream:
    payload ``{"bytes": "<base64 of the model's stream event>"}``)."""
    total, headers_length = int.from_bytes(body[0:4]), int.from_bytes(body[4:8])
    document = _load(body[12 + headers_length : total - 4].decode("utf-8", errors="replace"))
    raw: Any = cast(dict[str, Any], document).get("bytes") if isinstance(document, dict) else None
    try:
        inner = base64.b64decode(raw, validate=True) if isinstance(raw, str) else b""
    except (ValueError, binascii.Error):
        return None
    return wire_of_event(None, _load(inner.decode("utf-8", errors="replace")))


def sniff_wire(body: bytes) -> str | None:
    """The wire format of a response body from its first events (None: nothing recognisable).

    Reads the first 64 KiB only (an event cut there is no JSON and is passed over), except a
    body that starts as JSON, which is one document. A body of binary AWS event-stream frames
    is Bedrock's when its first frame's ``:event-type`` is a Converse stream event."""
    frame_type = _event_stream_type(body)
    if frame_type in _BEDROCK_EVENTS:
        return "bedrock-converse"
    if frame_type == "chunk":  # InvokeModelWithResponseStream: the model's own events inside
        return _chunk_wire(body)
    stripped = body.lstrip()
    if stripped[:1] in (b"{", b"["):
        document = _load(stripped.decode("utf-8", errors="replace"))
        if document is not None:
            return wire_of_body(document)
    for n, (_, name, data) in enumerate(_events(body[: 1 << 16])):
        if n >= SNIFF_EVENTS:
            break
        wire = wire_of_event(name, _load(data)) if data and data != "[DONE]" else None
        if wire is not None:
            return wire
    return None


# A cheap test that a body may hold more than one response (a start marker, or a finish, seen
# twice); only then are its events read. Each pattern counts one kind of marker, after a count of
# a literal that every match of it holds (``bytes.count``, several times faster than the regex
# over a big body): fewer than two of those, fewer than two matches.
_MAYBE_SEVERAL: dict[str, tuple[tuple[bytes, re.Pattern[bytes]], ...]] = {
    "anthropic": ((b'"message_start"', re.compile(rb'"type"\s*:\s*"message_start"')),),
    "openai-responses": ((b'"response.created"', re.compile(rb'"type"\s*:\s*"response\.created"')),),
    "openai-chat": (
        (b'"finish_reason"', re.compile(rb'"finish_reason"\s*:\s*"')),
        (b"[DONE]", re.compile(rb"data: ?\[DONE\]")),
    ),
    "gemini": ((b'"finishReason"', re.compile(rb'"finishReason"\s*:\s*"')),),
    "cohere-v2": ((b'"message-start"', re.compile(rb'"type"\s*:\s*"message-start"')),),
}


def _maybe_several(wire: str, body: bytes) -> bool:
    patterns = _MAYBE_SEVERAL.get(wire, ())
    return any(
        body.count(literal) >= 2 and len(pattern.findall(body, 0)) >= 2 for literal, pattern in patterns
    )


def split_responses(wire: str, body: bytes) -> list[bytes]:
    """``body`` as one body per response it holds (itself when it holds one, or is JSON).

    Split bodies are the original events re-joined with ``\\n\\n`` (line ends normalised).
    """
    if body.lstrip()[:1] in (b"{", b"[") or not _maybe_several(wire, body):
        return [body]
    parts: list[list[bytes]] = [[]]
    state: dict[str, Any] = {}
    for block, name, data in _events(body):
        if _starts_response(wire, name, data, state) and parts[-1]:
            parts.append([])
            state.clear()
            _starts_response(wire, name, data, state)
        parts[-1].append(block + b"\n\n")
    return [b"".join(p) for p in parts] if len(parts) > 1 else [body]


def _starts_response(wire: str, name: str | None, data: str, state: dict[str, Any]) -> bool:
    """Whether this event opens a new response; ``state`` carries what the current response showed."""
    if data == "[DONE]":
        state["finished"] = True
        return False
    payload = _load(data) if data else None
    if not isinstance(payload, dict):
        return False
    event = cast(dict[str, Any], payload)
    kind = event.get("type")
    if wire == "anthropic":
        return kind == "message_start" or (kind is None and name == "message_start")
    if wire == "openai-responses":
        return kind == "response.created"
    if wire == "cohere-v2":
        return kind == "message-start"
    if wire == "openai-chat":
        return _new_id_after_finish(state, event.get("id"), event.get("choices"), "finish_reason")
    if wire == "gemini":
        return _new_id_after_finish(state, event.get("responseId"), event.get("candidates"), "finishReason")
    return False


def _new_id_after_finish(state: dict[str, Any], response_id: Any, choices: Any, finish_key: str) -> bool:
    """Chat and Gemini have no start event: a new response is a new id after one that finished."""
    new = bool(state.get("finished")) and response_id is not None and response_id != state.get("id")
    if response_id is not None and (new or "id" not in state):
        state["id"] = response_id
    if new:
        return True
    if isinstance(choices, list) and any(
        isinstance(c, dict) and cast(dict[str, Any], c).get(finish_key) for c in cast(list[Any], choices)
    ):
        state["finished"] = True
    return False
