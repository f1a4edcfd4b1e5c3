"""I11's cuts: one replay cut at every offset where a decoder can go wrong catches what 1-byte chunks catch.

Each buggy decoder below is right on a whole body and wrong only at one kind of split (a CRLF
split in two, a blank line arriving alone, a chunk that starts at a field separator, a UTF-8
character split between chunks, an event-stream prelude split between reads). The cuts of
``harness.invariants.cuts`` expose each of them, directly and through I11 (``run_invariants``).
"""

from __future__ import annotations

from collections.abc import Generator
from contextlib import contextmanager

import pytest
from hypothesis import settings

from harness.contract.chunking import Chunking, chunking_from_json, split
from harness.emit import emit_stream
from harness.invariants import run_invariants
from harness.invariants.cuts import decoder_cuts, frame_cuts, text_cuts
from harness.invariants.round_trips import CHUNK_SIZES, chunkings
from harness.model import AssistantMessage, HistoryEvent, TextPart, Usage, UserMessage
from harness.params import CallParams
from harness.stream import drive, eventstream
from harness.stream.eventstream import EventStreamDecoder, Frames
from harness.stream.sse import SSEDecoder, SSEEvent

#: A hand-written (synthetic) SSE body: CRLF and LF line ends, two data lines, a comment, UTF-8 text.
SSE = (
    b'event: message_start\r\ndata: {"a": 1}\r\n\r\n'
    b": keep-alive\n\n"
    b"data: first\r\ndata: second\r\n\r\n"
    b"data: \xe2\x9c\x93 caf\xc3\xa9 \xf0\x9f\x98\x80\n\n"
)


def _events(decoder: SSEDecoder, chunks: list[bytes]) -> list[SSEEvent]:
    return [event for chunk in chunks for event in decoder.feed(chunk)] + decoder.close()


class SplitCRLF(SSEDecoder):
    """Normalises line ends per chunk: a CRLF split in two reads as two line ends."""

    def feed(self, chunk: bytes) -> list[SSEEvent]:
        return super().feed(chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n"))


class SkipsBlankChunks(SSEDecoder):
    """Drops a chunk of only whitespace as keep-alive padding: a blank line arriving alone is lost."""

    def feed(self, chunk: bytes) -> list[SSEEvent]:
        return [] if not chunk.strip() else super().feed(chunk)


class CommentByChunk(SSEDecoder):
    """Takes a chunk that starts with ``:`` for a comment line: a line cut at its field separator."""

    def feed(self, chunk: bytes) -> list[SSEEvent]:
        return [] if chunk.startswith(b":") else super().feed(chunk)


class Utf8PerChunk(SSEDecoder):
    """Decodes each chunk on its own: a character split between chunks becomes U+FFFD."""

    def feed(self, chunk: bytes) -> list[SSEEvent]:
        return super().feed(chunk.decode("utf-8", errors="replace").encode())


SSE_BUGS = [SplitCRLF, SkipsBlankChunks, CommentByChunk, Utf8PerChunk]


@pytest.mark.parametrize("bug", SSE_BUGS, ids=[b.__name__ for b in SSE_BUGS])
def test_the_cuts_expose_a_decoder_wrong_only_at_one_kind_of_split(bug: type[SSEDecoder]) -> None:
    whole = _events(SSEDecoder(), [SSE])
    assert _events(bug(), [SSE]) == whole  # right on the whole body
    assert _events(SSEDecoder(), split(SSE, decoder_cuts(SSE))) == whole
    assert _events(bug(), split(SSE, decoder_cuts(SSE))) != whole


def test_text_cuts_are_the_line_ends_separators_and_utf8_insides() -> None:
    body = b"event: a\r\ndata:\xc3\xa9\n\n"
    cuts = set(text_cuts(body))
    for n, byte in enumerate(body):
        if byte in b"\r\n":
            assert {n, n + 1} - {len(body)} <= cuts, n
        if 0x80 <= byte < 0xC0:
            assert n in cuts, n
    assert {5, 6, 7} <= cuts  # "event" | ":" | " " | "a"
    assert {14, 15} <= cuts  # "data" | ":" | no space
    assert 11 not in cuts and 3 not in cuts  # inside a field name: no decoder state changes there
    assert frame_cuts(body) is None


# ---------------------------------------------------------------- AWS event-stream frames


def _bedrock_body() -> bytes:
    message = AssistantMessage(
        parts=[TextPart(text="Bonjour, ça va ? ✓")],
        usage=Usage(input_tokens=3, output_tokens=5),
        stop_reason="stop",
    )
    return emit_stream("bedrock", message)


class PreludeInOneRead(EventStreamDecoder):
    """Expects each frame's 12-byte prelude to arrive in one read, and drops a shorter start of one."""

    def _feed(self, chunk: bytes, frames: Frames, messages: bool) -> None:
        # the one intake behind feed (messages) and feed_frames (the replay path's frames)
        if self.pending == 0 and len(chunk) < 12:
            return
        super()._feed(chunk, frames, messages)


def _messages(decoder: EventStreamDecoder, chunks: list[bytes]) -> list[tuple[object, bytes]]:
    out = [m for chunk in chunks for m in decoder.feed(chunk)]
    decoder.close()
    return [(sorted(m.headers.items()), m.payload) for m in out]


def test_frame_cuts_split_every_prelude_byte_and_catch_a_prelude_read_at_once() -> None:
    body = _bedrock_body()
    cuts = frame_cuts(body)
    assert cuts is not None and decoder_cuts(body) == cuts
    assert set(range(1, 13)) <= set(cuts)
    whole = _messages(EventStreamDecoder(), [body])
    assert len(whole) > 2
    assert _messages(PreludeInOneRead(), [body]) == whole
    assert _messages(EventStreamDecoder(), split(body, cuts)) == whole
    assert _messages(PreludeInOneRead(), split(body, cuts)) != whole


# ---------------------------------------------------------------- through I11


def _history(text: str) -> list[HistoryEvent]:
    return [
        UserMessage(parts=[TextPart(text="Say hello in French.")]),
        AssistantMessage(
            parts=[TextPart(text=text)],
            usage=Usage(input_tokens=4, output_tokens=6, total_tokens=10),
            stop_reason="stop",
            response_id="resp_1",
        ),
    ]


def _i11(provider: str) -> list[str]:
    report = run_invariants(
        _history("Bonjour, ça va ? ✓ 😀"), CallParams(), providers=[provider], invariants=["I11"]
    )
    return [v.reason for v in report.violations]


CUT = (
    "the stream parses differently cut at its line ends, field separators, UTF-8 characters and frame fields"
)


@pytest.mark.parametrize("bug", [SkipsBlankChunks, CommentByChunk, Utf8PerChunk], ids=lambda b: b.__name__)
@pytest.mark.parametrize("provider", ["anthropic", "openai-chat", "gemini"])
def test_i11_catches_a_decoder_wrong_at_one_kind_of_split(
    provider: str, bug: type[SSEDecoder], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _i11(provider) == []
    monkeypatch.setattr(drive, "SSEDecoder", bug)
    assert CUT in _i11(provider)


def test_i11_catches_an_event_stream_decoder_wrong_at_a_split_prelude(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert _i11("bedrock") == []
    monkeypatch.setattr(eventstream, "EventStreamDecoder", PreludeInOneRead)
    assert CUT in _i11("bedrock")


# ---------------------------------------------------------------- the chunkings themselves


@contextmanager
def _profile(name: str) -> Generator[None]:
    previous = settings.get_current_profile_name()
    settings.load_profile(name)
    try:
        yield
    finally:
        settings.load_profile(previous)


def test_chunkings_are_the_cuts_then_fixed_sizes_and_bytewise_only_when_deep() -> None:
    assert chunkings(SSE) == [decoder_cuts(SSE), *CHUNK_SIZES]
    with _profile("harness-deep"):
        assert chunkings(SSE) == [decoder_cuts(SSE), *CHUNK_SIZES, 1]


@pytest.mark.parametrize("chunking", [None, 1, 7, 64, 10_000, (), (3, 3, 1, 400), decoder_cuts(SSE)])
def test_split_keeps_every_byte_in_order(chunking: Chunking) -> None:
    chunks = split(SSE, chunking)
    assert b"".join(chunks) == SSE
    assert all(chunks) or chunks == [SSE]
    assert chunking_from_json(list(chunking) if isinstance(chunking, tuple) else chunking) == chunking


def test_a_chunking_that_is_not_one_is_refused() -> None:
    with pytest.raises(ValueError, match="chunk_size must be"):
        chunking_from_json("7")


@pytest.mark.parametrize(
    ("bug", "where"),
    [
        (Utf8PerChunk, "\\\\xc3' | b'\\\\xa7"),  # one cut inside "ç" is enough
        (SkipsBlankChunks, " cuts from offset "),  # a blank line alone takes the cuts on both sides of it
    ],
    ids=["one-cut", "cuts-together"],
)
def test_i11_says_where_the_parse_goes_wrong(
    bug: type[SSEDecoder], where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(drive, "SSEDecoder", bug)
    report = run_invariants(
        _history("Bonjour, ça va ? ✓ 😀"), CallParams(), providers=["anthropic"], invariants=["I11"]
    )
    found = [v.example for v in report.violations if v.reason == CUT]
    assert len(found) == 1 and found[0].startswith('{"cut_at": "') and where in found[0], found
