"""Drive a parser from bytes: the one path cassettes, raw SSE files and tests share."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from harness.contract.chunking import Chunking, split
from harness.contract.wires import PROVIDER_WIRES, WIRE_TITLES, sniff_wire
from harness.stream.base import CallResult, StreamParser
from harness.stream.eventstream import EventStreamEvents, is_frame_start
from harness.stream.not_utf8 import not_utf8_error
from harness.stream.sse import SSEDecoder

__all__ = ["chunked", "parse_bytes", "parse_chunks"]


#: Bytes kept from a body's start to tell what it is when no event of the parser's format arrived
#: (an AWS event-stream frame's prelude and headers fit well within).
_HEAD = 1024
#: Bytes that tell AWS event-stream frames from SSE (a frame's prelude).
_PRELUDE = 12


def chunked(body: bytes, size: Chunking) -> list[bytes]:
    """``body`` in the chunks ``size`` names (``harness.contract.chunking``)."""
    return split(body, size)


def parse_chunks(parser: StreamParser, chunks: Iterable[bytes]) -> CallResult:
    """Feed stream bytes (SSE, or AWS event-stream frames for such a parser) in the given chunking
    to ``parser`` and finish it (EOF).

    An SSE parser given AWS event-stream frames (Bedrock's InvokeModelWithResponseStream, whose
    ``chunk`` frames carry the model's own stream events: ``eventstream.chunk_event``) reads the
    events inside them: the framing is told by the first 12 bytes (a prelude whose CRC matches)."""
    decoder: SSEDecoder | EventStreamEvents | None = (
        EventStreamEvents() if parser.framing == "aws-eventstream" else None
    )
    head = undecided = b""
    rest = iter(chunks)
    for chunk in rest:
        if len(head) < _HEAD:
            head += chunk[: _HEAD - len(head)]
        if decoder is None:
            undecided += chunk
            if len(undecided) < _PRELUDE:
                continue
            decoder = EventStreamEvents() if is_frame_start(undecided) else SSEDecoder()
            chunk, undecided = undecided, b""
        if isinstance(decoder, EventStreamEvents):
            parser.feed_frames(decoder.feed_frames(chunk))
        else:
            parser.feed_all(decoder.feed(chunk))
        if isinstance(decoder, SSEDecoder):
            head = _feed_sse(parser, decoder, rest, head)  # the remaining chunks, in a tighter loop
    if decoder is None:  # fewer than 12 bytes in all: not a frame
        decoder = SSEDecoder()
        parser.feed_all(decoder.feed(undecided))
    parser.feed_all(decoder.close())
    if isinstance(decoder, SSEDecoder) and parser.wire and (wire := sniff_wire(head)) == "bedrock-converse":
        # binary AWS event-stream frames hold no SSE event: say what they are, not "empty stream"
        parser.error(_other_wire(parser, wire))
    if isinstance(decoder, EventStreamEvents):
        if decoder.not_utf8 is not None:
            byte, frame = decoder.not_utf8
            parser.error(not_utf8_error(parser.provider, byte, f"frame {frame}"))
        if decoder.failure is not None:  # a bad or cut frame is the stream's error, never a silent end
            parser.error(_frame_failure(parser, decoder))
        return parser.finish()
    if decoder.discarded_bytes:
        parser.note(f"stream ended mid-line; {decoder.discarded_bytes} bytes of an incomplete line discarded")
    if decoder.not_utf8 is not None:
        byte, offset = decoder.not_utf8
        parser.error(not_utf8_error(parser.provider, byte, f"byte {offset} of the stream"))
    return parser.finish()


def _feed_sse(parser: StreamParser, decoder: SSEDecoder, chunks: Iterator[bytes], head: bytes) -> bytes:
    """``parse_chunks``' loop once the stream is known to be SSE: a chunk cut where no line ends
    (most chunks of the judges' cut chunkings) gives no event, and the base ``feed_all`` does
    nothing with none, so it is not called then. Returns the body's head."""
    feed, feed_all = decoder.feed, parser.feed_all
    every = type(parser).feed_all is not StreamParser.feed_all  # an override sees every call
    for chunk in chunks:
        if len(head) < _HEAD:
            head += chunk[: _HEAD - len(head)]
        events = feed(chunk)
        if events or every:
            feed_all(events)
    return head


def _frame_failure(parser: StreamParser, decoder: EventStreamEvents) -> str:
    """The error for a failed frame; when not one frame decoded, what the body is instead."""
    where = f"{parser.provider}: event stream: {decoder.failure}"
    if decoder.frames:
        return where
    wire = sniff_wire(decoder.head)
    if wire is not None:
        return _other_wire(parser, wire)
    return f"{parser.provider}: no recognisable AWS event-stream frame in the stream ({decoder.failure})"


def _other_wire(parser: StreamParser, wire: str) -> str:
    hint = " or ".join(f"--provider {p}" for p, wires in PROVIDER_WIRES.items() if wires == (wire,))
    return (
        f"{parser.provider}: no {WIRE_TITLES[parser.wire]} event in the stream: these are "
        f"{WIRE_TITLES[wire]} events; replay with {hint or 'the provider that serves them'}"
    )


def parse_bytes(parser_class: type[StreamParser], body: bytes, chunk_size: Chunking = None) -> CallResult:
    return parse_chunks(parser_class(), chunked(body, chunk_size))
