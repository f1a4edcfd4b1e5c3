"""Incremental decoder of AWS event-stream binary frames (``application/vnd.amazon.eventstream``).

Why our own: Bedrock's ``ConverseStream`` answers in these frames, not SSE, and replay must
decode them from any byte chunking (cassettes, raw files, hypothesis splits at every
offset). botocore's ``EventStreamBuffer`` is the oracle (``tests/test_stream_eventstream.py``
compares both on every recorded body), but it re-copies its whole buffer per message and
says nothing when the input ends inside a frame; here that is an error, as is a CRC
mismatch, never a silent end.

The format (https://docs.aws.amazon.com/transcribe/latest/dg/streaming-setting-up.html
"Event stream encoding"; botocore/eventstream.py), all integers big-endian:

    prelude   total length (u32), headers length (u32), CRC32 of those 8 bytes (u32)
    headers   repeated: name length (u8), name (UTF-8), type (u8), value
    payload   total - 12 - headers length - 4 bytes
    trailer   CRC32 of everything before it (u32)

Header value types: 0 true, 1 false, 2 int8, 3 int16, 4 int32, 5 int64, 6 bytes (u16
length), 7 string (u16 length), 8 timestamp (int64 ms), 9 UUID (16 bytes). Limits are
botocore's: headers at most 128 KiB, payload at most 24 MiB.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass, field
from struct import Struct
from sys import intern
from typing import cast
from zlib import crc32

from harness.stream.not_utf8 import first_not_utf8
from harness.stream.sse import SSEEvent

__all__ = [
    "EventStreamDecoder",
    "EventStreamError",
    "EventStreamEvents",
    "EventStreamMessage",
    "FrameName",
    "Frames",
    "HeaderValue",
    "chunk_event",
    "frame_payloads",
    "frames_to_events",
    "is_frame_start",
    "message_to_event",
]

HeaderValue = bool | int | bytes | str
#: A decoded frame's name as ``Frames`` holds it: an ``event`` frame's ``:event-type`` (str or
#: None), or an exception, error or ``chunk`` frame's headers (``message_to_event`` builds its event).
FrameName = str | dict[str, HeaderValue] | None
# SSEEvent is a frozen dataclass: its __init__ sets each field through object.__setattr__; the
# slots' descriptors give the same object for less (as in ``harness.stream.sse``).
_new_event = object.__new__
_set_event = SSEEvent.__dict__["event"].__set__
_set_data = SSEEvent.__dict__["data"].__set__
_set_id = SSEEvent.__dict__["id"].__set__
_PRELUDE = Struct("!III")
_U32 = Struct("!I")
_LENGTHS = Struct("!II")
_NO_HEADERS: dict[str, bool | int | bytes | str] = {}


def _frame_name(headers: dict[str, HeaderValue]) -> FrameName:
    """The name ``Frames`` holds for a frame with these headers: what ``message_to_event`` names
    its event, or the headers themselves for an exception or error frame, or an InvokeModel
    ``chunk``, whose event it builds from the payload."""
    kind = headers.get(":message-type", "event")
    if kind == "exception" or kind == "error":
        return headers
    name = headers.get(":event-type")
    if name == "chunk":
        return headers
    return name if isinstance(name, str) else None


def _prelude_error(frame: int, total: int, headers_length: int, expected: int, crc: int) -> EventStreamError:
    """Why a prelude is refused, checked in this order: its CRC, the headers' length, the payload's."""
    if crc != expected:
        return EventStreamError(
            f"frame {frame}: prelude CRC mismatch: expected 0x{expected:08x}, calculated 0x{crc:08x}"
        )
    if headers_length > _MAX_HEADERS:
        return EventStreamError(f"frame {frame}: headers length {headers_length} exceeds {_MAX_HEADERS}")
    payload_length = total - _MIN_TOTAL - headers_length
    if payload_length < 0:
        return EventStreamError(
            f"frame {frame}: total length {total} is shorter than its prelude, headers and CRC"
        )
    return EventStreamError(f"frame {frame}: payload length {payload_length} exceeds {_MAX_PAYLOAD}")


def _prelude_fits(prelude: tuple[int, int, int], crc: int) -> bool:
    """Whether a prelude (total length, headers length, CRC) passes: ``crc`` (of its first 8
    bytes) matches, and the lengths are within the limits (``_prelude_error`` says which fails)."""
    total, headers_length, prelude_crc = prelude
    payload_length = total - _MIN_TOTAL - headers_length
    return crc == prelude_crc and headers_length <= _MAX_HEADERS and 0 <= payload_length <= _MAX_PAYLOAD


_PRELUDE_LENGTH = 12
_MIN_TOTAL = _PRELUDE_LENGTH + 4
_MAX_HEADERS = 128 * 1024
_MAX_PAYLOAD = 24 * 1024 * 1024
_INTS: dict[int, Struct] = {
    2: Struct("!b"),
    3: Struct("!h"),
    4: Struct("!i"),
    5: Struct("!q"),
    8: Struct("!q"),
}
_U16 = Struct("!H")


@dataclass(slots=True)
class Frames:
    """Decoded frames as the replay path carries them: each one's name (``FrameName``) and raw
    payload, in two lists of one length. No object per frame: payloads stay bytes (a parser that
    reads JSON needs no text), and the input checks read them as they are (``frame_payloads``)."""

    names: list[FrameName] = field(default_factory=lambda: [])
    payloads: list[bytes] = field(default_factory=lambda: [])


class EventStreamError(ValueError):
    """A frame that cannot be trusted (CRC mismatch, bad lengths or headers, truncation); one line."""


@dataclass(frozen=True, slots=True)
class EventStreamMessage:
    """One decoded frame: typed headers and the raw payload."""

    headers: dict[str, HeaderValue]
    payload: bytes

    @property
    def message_type(self) -> str:
        kind = self.headers.get(":message-type", "event")
        return kind if isinstance(kind, str) else "event"


def _parse_headers(data: bytes, offset: int, end: int, frame: int) -> dict[str, HeaderValue]:
    headers: dict[str, HeaderValue] = {}
    while offset < end:
        name_length = data[offset]
        offset += 1
        if offset + name_length + 1 > end:
            raise EventStreamError(f"frame {frame}: header name runs past the headers section")
        name = data[offset : offset + name_length].decode("utf-8")
        offset += name_length
        kind = data[offset]
        offset += 1
        value: HeaderValue
        if kind == 0 or kind == 1:
            value = kind == 0
        elif kind in _INTS:
            unpacker = _INTS[kind]
            if offset + unpacker.size > end:
                raise EventStreamError(f"frame {frame}: header {name!r} value runs past the headers section")
            value = unpacker.unpack_from(data, offset)[0]
            offset += unpacker.size
        elif kind == 6 or kind == 7:
            if offset + 2 > end:
                raise EventStreamError(f"frame {frame}: header {name!r} length runs past the headers section")
            length = _U16.unpack_from(data, offset)[0]
            offset += 2
            if offset + length > end:
                raise EventStreamError(f"frame {frame}: header {name!r} value runs past the headers section")
            raw = data[offset : offset + length]
            # interned: a parser's ``name == "contentBlockDelta"`` per frame is then one identity test
            value = intern(raw.decode("utf-8")) if kind == 7 else raw
            offset += length
        elif kind == 9:
            if offset + 16 > end:
                raise EventStreamError(f"frame {frame}: header {name!r} UUID runs past the headers section")
            value = data[offset : offset + 16]
            offset += 16
        else:
            raise EventStreamError(f"frame {frame}: header {name!r} has unknown value type {kind}")
        if name in headers:
            raise EventStreamError(f"frame {frame}: duplicate header {name!r}")
        headers[name] = value
    return headers


def frame_payloads(body: bytes) -> list[bytes] | None:
    """The payloads of ``body``'s AWS event-stream frames, for the input checks
    (``harness.inputs.check_json_documents``); None when ``body`` does not start with a frame.

    The JSON of such a body is in its payloads, each parsed on its own: the depth, line-length
    and escape checks read those, not the binary preludes, headers and CRCs around them (random
    bytes there would count as brackets, quotes and newlines). The first frame's prelude CRC
    must match (text never passes for a frame). The frames are decoded here, every check on
    (``EventStreamDecoder``), and the decoder is kept for the replay that follows
    (``EventStreamEvents`` takes it when fed the same bytes object): one pass over the frames,
    not two. From the first frame that fails a check, the frames are walked by their lengths
    only (a parser never reads those); from the first whose lengths do not fit, the rest of the
    body is one more piece as it is.
    """
    size = len(body)
    if size < _MIN_TOTAL:
        return None
    total, headers_length, prelude_crc = _PRELUDE.unpack_from(body)
    if crc32(body[:8]) != prelude_crc:
        return None
    decoder = EventStreamDecoder()
    frames = decoder.feed_frames(body)
    pieces: list[bytes] = []  # after the decoded frames
    append = pieces.append
    unpack = _LENGTHS.unpack_from
    offset = decoder.consumed
    while size - offset >= _MIN_TOTAL:
        total, headers_length = unpack(body, offset)
        start = offset + _PRELUDE_LENGTH + headers_length
        end = offset + total - 4
        if end < start or offset + total > size:
            break
        append(body[start:end])
        offset += total
    if offset < size:
        append(body[offset:])
    _decoded.clear()
    _decoded[id(body)] = (body, decoder, frames)
    return frames.payloads + pieces if pieces else frames.payloads


#: The body ``frame_payloads`` last decoded, its decoder (state after the whole body) and frames.
#: The input check and the replay of a body are one after the other on the same bytes object;
#: the one entry is taken (and dropped) by the replay, so nothing is held past it but the last body.
_decoded: dict[int, tuple[bytes, EventStreamDecoder, Frames]] = {}


def _take_decoded(body: bytes) -> tuple[EventStreamDecoder, Frames] | None:
    """The decoder and frames of ``body`` when ``frame_payloads`` decoded this very object last
    (taken in one step: another thread's replay never gets them)."""
    entry = _decoded.pop(id(body), None)
    return (entry[1], entry[2]) if entry is not None and entry[0] is body else None


class EventStreamDecoder:
    """Feed bytes in any chunking; get whole, checked messages.

    The first frame that fails a check sets ``failure`` (one line) and the decoder stays
    failed: the messages before it are returned, later input is counted in
    ``discarded_bytes``. ``close`` sets it when the input ended inside a frame. ``strict``
    decoders raise EventStreamError at that point instead.
    """

    __slots__ = (
        "_buffer",
        "_headers",
        "_preludes",
        "consumed",
        "discarded_bytes",
        "failure",
        "frames",
        "strict",
    )

    def __init__(self, *, strict: bool = False) -> None:
        self.strict = strict
        self._headers: dict[bytes, dict[str, HeaderValue]] = {}
        # Preludes already checked (CRC and lengths, a function of their 12 bytes): frames repeat a few.
        self._preludes: set[tuple[int, int, int]] = set()
        self._buffer = bytearray()  # the start of a frame not yet whole
        self.frames = 0
        #: Bytes of the whole frames decoded so far.
        self.consumed = 0
        self.failure: str | None = None
        self.discarded_bytes = 0

    @property
    def pending(self) -> int:
        """Bytes received but not yet part of a whole message."""
        return len(self._buffer)

    def feed(self, chunk: bytes) -> list[EventStreamMessage]:
        frames = Frames()
        self._feed(chunk, frames, True)
        headers = cast(list[dict[str, HeaderValue]], frames.names)
        return [EventStreamMessage(dict(h), p) for h, p in zip(headers, frames.payloads, strict=True)]

    def feed_frames(self, chunk: bytes) -> Frames:
        """``feed``, the messages as the replay path carries them (``Frames``)."""
        frames = Frames()
        self._feed(chunk, frames, False)
        return frames

    def feed_events(self, chunk: bytes) -> list[SSEEvent]:
        """``feed``, each message already as ``message_to_event`` gives it."""
        return frames_to_events(self.feed_frames(chunk))

    def _feed(self, chunk: bytes, frames: Frames, messages: bool) -> None:
        if self.failure is not None:
            self.discarded_bytes += len(chunk)
            return
        buffer = self._buffer
        if buffer:
            buffer += chunk
            if not self._has_frame(buffer):
                return
            data = bytes(buffer)  # copied once a frame is whole: each byte about once in all
            buffer.clear()
        else:  # a chunk holding whole frames (one body in one chunk): decoded in place, no copy
            data = chunk if type(chunk) is bytes else bytes(chunk)
        offset = 0
        try:
            offset = self._drain(data, frames, messages)
        except _Failed as failed:
            self.failure = str(failed.error)
            self.discarded_bytes += len(data) - failed.offset
            if self.strict:
                raise failed.error from None
            return
        if offset < len(data):
            buffer += data[offset:]

    def _has_frame(self, buffer: bytearray) -> bool:
        """Whether ``buffer`` holds a whole frame, or a prelude that fails its checks (``_drain``
        raises for it); else the frame is awaited without copying the bytes so far."""
        if len(buffer) < _PRELUDE_LENGTH:
            return False
        prelude = _PRELUDE.unpack_from(buffer)
        if len(buffer) >= prelude[0] or prelude in self._preludes:
            return len(buffer) >= prelude[0]
        return not _prelude_fits(prelude, crc32(buffer[:8]))

    def _drain(self, data: bytes, frames: Frames, messages: bool) -> int:
        """Decode the whole frames at the start of ``data`` into ``frames`` (for ``messages``, each
        frame's headers in place of its name); the offset after the last. ``frames`` and
        ``consumed`` advance; a frame that fails a check raises ``_Failed`` with its offset,
        after the frames before it."""
        size = len(data)
        offset = 0
        names, payloads = frames.names, frames.payloads
        add_name, add_payload = names.append, payloads.append
        first = len(names) - self.frames  # ``count`` of a frame is len(names) - first
        preludes = self._preludes
        # A frame's prelude and header block, as bytes -> its total length, the CRC of those bytes
        # (its message CRC goes on from there over the payload alone) and its entry in ``names``
        # (``FrameName``, or for ``messages`` the headers), kept once the frame passed every check.
        # Frames repeat a few: a frame whose first ``skip`` bytes (the last frame's prelude and
        # headers) are known needs one slice and one lookup, and only its message CRC checked.
        # Those bytes fix its lengths and headers, so a match is never wrong.
        known: dict[bytes, tuple[int, int, FrameName | dict[str, HeaderValue]]] = {}
        skip = _PRELUDE_LENGTH
        last = size - 12  # the last offset a prelude fits at
        unpack = _PRELUDE.unpack_from
        unpack_u32 = _U32.unpack_from
        try:
            while True:  # ends at a frame not whole: a slice short of ``skip`` is never known
                entry = known.get(data[offset : offset + skip])
                if entry is not None:  # nearly every frame
                    total, seed, key = entry
                    after = offset + total
                    if after > size:
                        break
                    end = after - 4
                    payload = data[offset + skip : end]
                    if crc32(payload, seed) != unpack_u32(data, end)[0]:
                        raise _message_crc_error(len(names) - first, crc32(payload, seed), data, end)
                    add_name(key)
                    add_payload(payload)
                    offset = after
                    continue
                if offset > last:
                    break
                prelude = unpack(data, offset)
                total, headers_length, prelude_crc = prelude
                if prelude not in preludes:
                    crc = crc32(data[offset : offset + 8])
                    if not _prelude_fits(prelude, crc):
                        raise _prelude_error(len(names) - first, total, headers_length, prelude_crc, crc)
                    if len(preludes) < 4096:
                        preludes.add(prelude)
                after = offset + total
                if after > size:
                    break
                skip = _PRELUDE_LENGTH + headers_length
                head = data[offset : offset + skip]
                end = after - 4
                payload = data[offset + skip : end]
                seed = crc32(head)
                if crc32(payload, seed) != unpack_u32(data, end)[0]:
                    raise _message_crc_error(len(names) - first, crc32(payload, seed), data, end)
                parsed = self._headers_of(head[_PRELUDE_LENGTH:], len(names) - first)  # once the CRC holds
                key = parsed if messages else _frame_name(parsed)
                if len(known) < 4096:
                    known[head] = (total, seed, key)
                add_name(key)
                add_payload(payload)
                offset = after
        except EventStreamError as exc:
            raise _Failed(exc, offset) from None
        finally:  # also when a frame fails: the frames before it are decoded
            self.frames = len(names) - first
            self.consumed += offset
        return offset

    def _headers_of(self, raw: bytes, frame: int) -> dict[str, HeaderValue]:
        """A frame's headers, parsed once per distinct header block (a stream repeats a few)."""
        known = self._headers
        parsed = known.get(raw)
        if parsed is None:
            try:
                parsed = _parse_headers(raw, 0, len(raw), frame)
            except UnicodeDecodeError as exc:
                raise EventStreamError(f"frame {frame}: header is not UTF-8 ({exc.reason})") from None
            if len(known) < 64:
                known[raw] = parsed
        return parsed

    def close(self) -> str | None:
        """End of input: the failure, set here when bytes of an unfinished frame remain."""
        if self.failure is None and self.pending:
            pending = self.pending
            self.failure = f"stream ended inside frame {self.frames}: {pending} bytes of an incomplete frame"
            self.discarded_bytes += pending
            if self.strict:
                raise EventStreamError(self.failure)
        return self.failure


def _message_crc_error(frame: int, crc: int, data: bytes, end: int) -> EventStreamError:
    (expected,) = _U32.unpack_from(data, end)
    return EventStreamError(
        f"frame {frame}: message CRC mismatch: expected 0x{expected:08x}, calculated 0x{crc:08x}"
    )


class _Failed(Exception):
    """A frame's EventStreamError, with the offset of that frame in the bytes being decoded."""

    def __init__(self, error: EventStreamError, offset: int) -> None:
        super().__init__(error, offset)
        self.error = error
        self.offset = offset


def frames_to_events(frames: Frames) -> list[SSEEvent]:
    """Frames as the events a parser reads (``message_to_event`` of each)."""
    events: list[SSEEvent] = []
    append = events.append
    for name, payload in zip(frames.names, frames.payloads, strict=True):
        if isinstance(name, dict):
            append(message_to_event(EventStreamMessage(dict(name), payload)))
        else:  # message_to_event's event case, inlined: this runs once per frame
            event = _new_event(SSEEvent)
            _set_event(event, name)
            _set_data(event, str(payload, "utf-8", "replace"))
            _set_id(event, None)
            append(event)
    return events


def message_to_event(message: EventStreamMessage) -> SSEEvent:
    """A decoded frame as the event a parser reads: the ``:event-type`` and the payload text.

    ``exception`` frames (``:exception-type``, JSON payload with ``message``) and ``error``
    frames (``:error-code``, ``:error-message``) become an ``error`` event whose data is
    ``{"error": {"type", "message"}}``, the shape every parser's error path reads.
    """
    headers = message.headers
    kind = message.message_type
    text = message.payload.decode("utf-8", errors="replace")
    if kind == "exception":
        name = headers.get(":exception-type", "exception")
        detail = text
        try:
            loaded = json.loads(text)
            if isinstance(loaded, dict) and "message" in loaded:
                detail = str(loaded["message"])  # pyright: ignore[reportUnknownArgumentType]
        except ValueError:
            pass
        return SSEEvent("error", json.dumps({"error": {"message": detail, "type": str(name)}}))
    if kind == "error":
        code = headers.get(":error-code", "error")
        detail = headers.get(":error-message", text)
        return SSEEvent("error", json.dumps({"error": {"message": str(detail), "type": str(code)}}))
    name = headers.get(":event-type")
    if name == "chunk":
        return chunk_event(text)
    return SSEEvent(name if isinstance(name, str) else None, text)


def chunk_event(text: str) -> SSEEvent:
    """A ``chunk`` frame of Bedrock's InvokeModelWithResponseStream as the event inside it.

    The payload is ``{"bytes": "<base64>"}`` (botocore's ``PayloadPart``, a blob in the JSON
    protocol); the bytes are the model's own stream event, for Anthropic's models one Messages
    stream event as JSON, named by its ``type``, as the anthropic SDK's Bedrock decoder names it
    (``anthropic/lib/bedrock/_stream_decoder.py`` ``_chunk_bytes_to_sse``). A chunk whose bytes are
    not base64 is the stream's error, never skipped."""
    try:
        loaded: object = json.loads(text)
        raw = cast(dict[str, object], loaded)["bytes"] if isinstance(loaded, dict) else None
        inner = base64.b64decode(raw, validate=True).decode("utf-8") if isinstance(raw, str) else None
    except (ValueError, KeyError, binascii.Error):
        inner = None
    if inner is None:
        message = f"chunk frame without base64 'bytes': {text[:80]}"
        return SSEEvent("error", json.dumps({"error": {"message": message, "type": "chunk"}}))
    try:
        data: object = json.loads(inner)
    except ValueError:
        data = None
    kind = cast(dict[str, object], data).get("type") if isinstance(data, dict) else None
    return SSEEvent(kind if isinstance(kind, str) else None, inner)


def is_frame_start(head: bytes) -> bool:
    """Whether ``head`` (at least 12 bytes) starts with an AWS event-stream prelude: a CRC32 of the
    two lengths that matches, which text (SSE, JSON) does with chance 2**-32."""
    if len(head) < _PRELUDE_LENGTH:
        return False
    total, headers_length, prelude_crc = _PRELUDE.unpack_from(head, 0)
    return crc32(head[:8]) == prelude_crc and total >= _MIN_TOTAL + headers_length


class EventStreamEvents:
    """The SSE decoder's interface over event-stream bytes, for the one replay path (``drive``).

    A frame that fails its checks ends decoding: ``failure`` names it, and the parser reports
    it as the stream's error (``harness.stream.drive``), never a silent end.
    """

    __slots__ = ("_decoder", "head", "malformed_utf8", "not_utf8")

    def __init__(self) -> None:
        self._decoder = EventStreamDecoder()
        self.malformed_utf8 = False
        #: The first payload byte that is not UTF-8: (its value, its frame's 0-based number).
        self.not_utf8: tuple[int, int] | None = None
        #: The first bytes, to name what arrived when not even one frame decodes.
        self.head = b""

    @property
    def frames(self) -> int:
        return self._decoder.frames

    @property
    def failure(self) -> str | None:
        return self._decoder.failure

    @property
    def discarded_bytes(self) -> int:
        return self._decoder.discarded_bytes

    def feed(self, chunk: bytes) -> list[SSEEvent]:
        return frames_to_events(self.feed_frames(chunk))

    def feed_frames(self, chunk: bytes) -> Frames:
        """``feed``'s frames before they become events (``StreamParser.feed_frames``). A body the
        input check decoded (``frame_payloads``) is not decoded again: its decoder is taken over."""
        if len(self.head) < 65536:
            self.head += chunk[: 65536 - len(self.head)]
        decoder = self._decoder
        frames: Frames | None = None
        if not (decoder.consumed or decoder.pending or decoder.failure):
            taken = _take_decoded(chunk)
            if taken is not None:
                self._decoder, frames = taken
        if frames is None:
            frames = decoder.feed_frames(chunk)
        if self.not_utf8 is None:
            first = self._decoder.frames - len(frames.payloads)
            for n, payload in enumerate(frames.payloads):
                found = first_not_utf8(payload)  # bytes.isascii first: one native pass per frame
                if found is not None:
                    self.not_utf8 = (found[0], first + n)
                    self.malformed_utf8 = True
                    break
        return frames

    def close(self) -> list[SSEEvent]:
        self._decoder.close()
        return []
