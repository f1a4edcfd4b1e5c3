"""The SSE decoder: spec framing, any chunk boundary, comments, CRLF, a last unterminated event."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from harness.stream.drive import chunked
from harness.stream.sse import SSEDecoder, SSEEvent, iter_sse

BODY = (
    b'event: message_start\r\ndata: {"a": 1}\r\n\r\n'
    b": OPENROUTER PROCESSING\n\n"
    b"data: first\ndata: second\n\n"
    b"event: only-event-no-data\n\n"
    b"id: 7\ndata:no-space\n\n"
    b"data: \xe2\x9c\x93 caf\xc3\xa9\n\n"
    b"data: last without blank line\n"
    b"data: cut mid-li"
)
EXPECTED = [
    SSEEvent("message_start", '{"a": 1}'),
    SSEEvent(None, "first\nsecond"),
    SSEEvent(None, "no-space", "7"),
    SSEEvent(None, "\u2713 caf\u00e9", "7"),
    SSEEvent(None, "last without blank line", "7"),  # lines complete, blank line missing: dispatched
]


def test_decodes_the_spec_framing() -> None:
    decoder = SSEDecoder()
    events = decoder.feed(BODY) + decoder.close()
    assert events == EXPECTED
    assert decoder.comments == 1
    assert decoder.discarded_bytes == len(b"data: cut mid-li")


@given(st.lists(st.integers(min_value=0, max_value=len(BODY)), max_size=12))
def test_any_chunk_boundaries_give_the_same_events(cuts: list[int]) -> None:
    points = sorted(set(cuts))
    pieces = [BODY[a:b] for a, b in zip([0, *points], [*points, len(BODY)], strict=True)]
    assert list(iter_sse(pieces)) == EXPECTED


def test_byte_at_a_time_including_split_utf8_and_crlf() -> None:
    assert list(iter_sse(chunked(BODY, 1))) == EXPECTED


def test_invalid_utf8_is_replaced_and_flagged() -> None:
    decoder = SSEDecoder()
    events = decoder.feed(b"data: \xff\xfe\n\n")
    assert events == [SSEEvent(None, "\ufffd\ufffd")]
    assert decoder.malformed_utf8


_LINES = st.sampled_from(
    [
        "",
        "data: x",
        "data:y",
        "data:  z",
        "data:",
        "event: a",
        "event:b",
        "event:",
        "event:  c",
        ": c",
        "id: 7",
        "retry: 1",
        "data",
    ]
)


class _LineByLine(SSEDecoder):
    """The decoder with its plain-block fast path switched off: the general parser alone."""

    def _plain(self, text: str) -> list[SSEEvent] | None:
        return None


@given(st.lists(_LINES, max_size=12), st.sampled_from(["\n", "\r\n"]), st.integers(min_value=1, max_value=9))
@settings(max_examples=300, deadline=None)
def test_plain_event_fast_path_gives_the_line_by_line_events(
    lines: list[str], newline: str, size: int
) -> None:
    """The regex split of plain blocks and the general line parser agree on every input and chunking."""
    body = newline.join(lines).encode() + newline.encode()

    def decode(fast: bool, chunk: int | None) -> list[SSEEvent]:
        decoder = SSEDecoder() if fast else _LineByLine()
        pieces = [body] if chunk is None else [body[i : i + chunk] for i in range(0, len(body), chunk)]
        return [e for p in pieces for e in decoder.feed(p)] + decoder.close()

    assert decode(True, None) == decode(False, None) == decode(True, size)


_CR_BODY = (
    b"data: "
    + "é".encode() * 3000
    + b"\rdata: tail\r\r: note\rdata: "
    + b"x" * 500
    + b"\r\n\r\n"
    + b"data: cut"
)


@given(st.integers(min_value=1, max_value=40))
def test_a_long_line_in_small_chunks_and_cr_line_ends_read_as_in_one_chunk(size: int) -> None:
    """Chunks without a line end are kept aside until their line ends (a long line costs linear
    time): the events, the not-UTF-8 offset, the comments and the discarded tail are unchanged."""
    body = _CR_BODY.replace(b"tail", b"t\xffl")
    whole = SSEDecoder()
    expected = whole.feed(body) + whole.close()
    pieces = SSEDecoder()
    events = [e for chunk in chunked(body, size) for e in pieces.feed(chunk)] + pieces.close()
    assert events == expected and len(expected) == 2
    assert (pieces.not_utf8, pieces.comments, pieces.discarded_bytes, pieces.malformed_utf8) == (
        whole.not_utf8,
        whole.comments,
        whole.discarded_bytes,
        whole.malformed_utf8,
    )
