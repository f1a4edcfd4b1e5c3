"""Drive a parser from bytes: the one path cassettes, raw SSE files and tests share."""

from __future__ import annotations

from collections.abc import Iterable

from harness.stream.base import CallResult, StreamParser
from harness.stream.eventstream import EventStreamEvents
from harness.stream.sse import SSEDecoder

__all__ = ["chunked", "parse_bytes", "parse_chunks"]


def chunked(body: bytes, size: int | None) -> list[bytes]:
    if not size:
        return [body]
    return [body[i : i + size] for i in range(0, len(body), size)]


def parse_chunks(parser: StreamParser, chunks: Iterable[bytes]) -> CallResult:
    """Feed stream bytes (SSE, or AWS event-stream frames for such a parser) in the given chunking
    to ``parser`` and finish it (EOF)."""
    decoder = EventStreamEvents() if parser.framing == "aws-eventstream" else SSEDecoder()
    for chunk in chunks:
        parser.feed_all(decoder.feed(chunk))
    parser.feed_all(decoder.close())
    if isinstance(decoder, EventStreamEvents):
        if decoder.failure is not None:  # a bad or cut frame is the stream's error, never a silent end
            parser.error(f"{parser.provider}: event stream: {decoder.failure}")
        return parser.finish()
    if decoder.discarded_bytes:
        parser.note(f"stream ended mid-line; {decoder.discarded_bytes} bytes of an incomplete line discarded")
    if decoder.malformed_utf8:
        parser.note("stream contained bytes that are not UTF-8; replaced")
    return parser.finish()


def parse_bytes(parser_class: type[StreamParser], body: bytes, chunk_size: int | None = None) -> CallResult:
    return parse_chunks(parser_class(), chunked(body, chunk_size))
