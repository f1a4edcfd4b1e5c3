"""AWS event-stream frames and Bedrock payloads for tests, written from the format description.

Independent of both decoders under test (ours in ``harness.stream.eventstream`` and botocore's)
and of the emitter (``harness.emit.bedrock``): a frame is its prelude (total and headers length,
CRC), its headers, its payload and the CRC of all that.
"""

from __future__ import annotations

import json
import struct
from typing import Any
from zlib import crc32

from harness.stream.eventstream import HeaderValue

__all__ = ["content_delta", "event_frame", "frame", "string_frame"]


def _header(name: str, kind: int, value: HeaderValue) -> bytes:
    raw = name.encode()
    head = bytes([len(raw)]) + raw + bytes([kind])
    if kind in (0, 1):
        return head
    if kind in (6, 7):
        data = value.encode() if isinstance(value, str) else bytes(value)  # pyright: ignore[reportArgumentType]
        return head + struct.pack("!H", len(data)) + data
    if kind == 9:
        return head + bytes(value)  # pyright: ignore[reportArgumentType]
    return head + struct.pack({2: "!b", 3: "!h", 4: "!i", 5: "!q", 8: "!q"}[kind], value)


def frame(headers: list[tuple[str, int, HeaderValue]], payload: bytes) -> bytes:
    """A frame with headers of any type: ``(name, type code, value)`` each."""
    head = b"".join(_header(*h) for h in headers)
    total = 12 + len(head) + len(payload) + 4
    prelude = struct.pack("!II", total, len(head))
    prelude += struct.pack("!I", crc32(prelude))
    body = prelude + head + payload
    return body + struct.pack("!I", crc32(body))


def string_frame(headers: dict[str, str], payload: bytes) -> bytes:
    """A frame whose headers are all strings (type 7), as Bedrock sends them."""
    return frame([(name, 7, value) for name, value in headers.items()], payload)


def event_frame(event: str, payload: dict[str, Any], kind: str = "event") -> bytes:
    """A Bedrock ConverseStream frame: a JSON ``event`` (or, with ``kind="exception"``, an exception)."""
    type_header = ":exception-type" if kind == "exception" else ":event-type"
    headers = {type_header: event, ":content-type": "application/json", ":message-type": kind}
    return string_frame(headers, json.dumps(payload).encode())


def content_delta(index: object, delta: object, **extra: object) -> bytes:
    """A ``contentBlockDelta`` frame's payload (any JSON values, for hostile cases too)."""
    return json.dumps({"contentBlockIndex": index, "delta": delta, **extra}).encode()
