"""The AWS event-stream decoder against botocore's own parser (``EventStreamBuffer``), the oracle.

Every recorded ConverseStream body (traffic/pydantic-ai-more/) decodes to the same headers
and payloads as botocore under any chunking; frames built here with every header type do
too; a flipped bit (either CRC) and a cut at any offset are errors, never a silent end.
"""

from __future__ import annotations

import json
import struct
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any
from zlib import crc32

from hypothesis import given, settings
from hypothesis import strategies as st

from harness.providers.replay import load_exchanges
from harness.stream.eventstream import (
    EventStreamDecoder,
    EventStreamError,
    EventStreamEvents,
    HeaderValue,
    message_to_event,
)
from tests.support.eventstream import frame

_BOTOCORE: Any = import_module("botocore.eventstream")  # untyped: reached through Any
ROOT = Path(__file__).resolve().parent.parent
TRAFFIC = ROOT / "traffic" / "pydantic-ai-more"


@cache
def recorded_bodies() -> tuple[tuple[str, bytes], ...]:
    """(file#n, body) of every ConverseStream response in the repo's Bedrock recordings."""
    out: list[tuple[str, bytes]] = []
    for path in sorted(TRAFFIC.glob("*.yaml")):
        for n, exchange in enumerate(load_exchanges(path, None)):
            if exchange.uri.endswith("/converse-stream") and exchange.status == 200:
                out.append((f"{path.name}#{n}", exchange.body))
    return tuple(out)


def botocore_messages(body: bytes) -> list[tuple[dict[str, HeaderValue], bytes]]:
    buffer: Any = _BOTOCORE.EventStreamBuffer()
    buffer.add_data(body)
    return [(m.headers, m.payload) for m in buffer]


def ours(body: bytes, cuts: list[int]) -> tuple[list[tuple[dict[str, HeaderValue], bytes]], str | None]:
    decoder = EventStreamDecoder()
    out: list[tuple[dict[str, HeaderValue], bytes]] = []
    start = 0
    for cut in [*sorted(set(cuts)), len(body)]:
        out += [(m.headers, m.payload) for m in decoder.feed(body[start:cut])]
        start = cut
    return out, decoder.close()


def test_there_are_recorded_stream_bodies() -> None:
    assert len(recorded_bodies()) == 8


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_recorded_bodies_decode_as_botocore_under_any_chunking(data: st.DataObject) -> None:
    for where, body in recorded_bodies():
        cuts = data.draw(st.lists(st.integers(0, len(body)), max_size=12), label=where)
        messages, failure = ours(body, cuts)
        assert failure is None, where
        assert messages == botocore_messages(body), where


def test_recorded_bodies_byte_by_byte() -> None:
    for where, body in recorded_bodies():
        messages, failure = ours(body, list(range(len(body))))
        assert failure is None
        assert messages == botocore_messages(body), where


_VALUES: dict[int, st.SearchStrategy[HeaderValue]] = {
    0: st.just(True),
    1: st.just(False),
    2: st.integers(-(2**7), 2**7 - 1),
    3: st.integers(-(2**15), 2**15 - 1),
    4: st.integers(-(2**31), 2**31 - 1),
    5: st.integers(-(2**63), 2**63 - 1),
    6: st.binary(max_size=40),
    7: st.text(max_size=20),
    8: st.integers(-(2**63), 2**63 - 1),
    9: st.binary(min_size=16, max_size=16),
}


@st.composite
def headers(draw: st.DrawFn) -> list[tuple[str, int, HeaderValue]]:
    names = draw(st.lists(st.text(min_size=1, max_size=12), unique=True, max_size=6))
    out: list[tuple[str, int, HeaderValue]] = []
    for name in names:
        if len(name.encode()) > 255:
            continue
        kind = draw(st.integers(0, 9))
        out.append((name, kind, draw(_VALUES[kind])))
    return out


@settings(max_examples=150, deadline=None)
@given(
    frames=st.lists(st.tuples(headers(), st.binary(max_size=64)), min_size=1, max_size=4),
    cuts=st.lists(st.integers(0, 600), max_size=6),
)
def test_every_header_type_decodes_as_botocore(
    frames: list[tuple[list[tuple[str, int, HeaderValue]], bytes]], cuts: list[int]
) -> None:
    body = b"".join(frame(h, p) for h, p in frames)
    messages, failure = ours(body, [c for c in cuts if c <= len(body)])
    assert failure is None
    assert messages == botocore_messages(body)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_flipped_bit_is_an_error_never_a_message(data: st.DataObject) -> None:
    where, body = data.draw(st.sampled_from(recorded_bodies()), label="body")
    first = int.from_bytes(body[:4], "big")
    position = data.draw(st.integers(0, first - 1), label=f"{where} position")
    bit = data.draw(st.integers(0, 7), label="bit")
    broken = bytearray(body)
    broken[position] ^= 1 << bit
    messages, failure = ours(bytes(broken), [])
    assert failure is not None
    assert messages == []  # the broken frame is the first: nothing of it is delivered


def test_crc_mismatches_are_named() -> None:
    good = frame([(":event-type", 7, "messageStart")], b'{"role":"assistant"}')
    bad_payload = good[:-6] + bytes([good[-6] ^ 1]) + good[-5:]
    decoder = EventStreamDecoder()
    assert decoder.feed(good + bad_payload) != []
    assert decoder.failure is not None and "message CRC mismatch" in decoder.failure
    bad_prelude = bytes([good[0], good[1], good[2], good[3] ^ 1]) + good[4:]
    decoder = EventStreamDecoder()
    assert decoder.feed(bad_prelude) == []
    assert decoder.failure is not None and "prelude CRC mismatch" in decoder.failure
    assert decoder.feed(good) == [] and decoder.discarded_bytes > 0  # a failed decoder stays failed
    try:
        EventStreamDecoder(strict=True).feed(bad_prelude)
    except EventStreamError as exc:
        assert "prelude CRC" in str(exc)
    else:
        raise AssertionError("strict decoder did not raise")


def test_a_cut_at_any_offset_is_a_truncation() -> None:
    _, body = recorded_bodies()[0]
    for cut in range(1, len(body)):
        decoder = EventStreamDecoder()
        decoder.feed(body[:cut])
        failure = decoder.close()
        boundary = cut in _frame_ends(body)
        assert (failure is None) == boundary, cut
        if not boundary:
            assert failure is not None and "stream ended inside frame" in failure


def _frame_ends(body: bytes) -> set[int]:
    ends: set[int] = set()
    offset = 0
    while offset < len(body):
        offset += int.from_bytes(body[offset : offset + 4], "big")
        ends.add(offset)
    return ends


def test_exception_and_error_frames_become_error_events() -> None:
    exception = frame(
        [(":message-type", 7, "exception"), (":exception-type", 7, "throttlingException")],
        b'{"message":"Too many requests, please wait before trying again."}',
    )
    error = frame(
        [(":message-type", 7, "error"), (":error-code", 7, "InternalFailure"), (":error-message", 7, "boom")],
        b"",
    )
    events = EventStreamEvents()
    got = events.feed(exception + error)
    assert [e.event for e in got] == ["error", "error"]
    assert json.loads(got[0].data) == {
        "error": {
            "message": "Too many requests, please wait before trying again.",
            "type": "throttlingException",
        }
    }
    assert json.loads(got[1].data) == {"error": {"message": "boom", "type": "InternalFailure"}}
    event = message_to_event(
        EventStreamDecoder().feed(
            frame([(":event-type", 7, "messageStop"), (":message-type", 7, "event")], b"{}")
        )[0]
    )
    assert (event.event, event.data) == ("messageStop", "{}")


def test_lengths_botocore_refuses_are_errors() -> None:
    too_long_headers = struct.pack("!II", 200_000, 150_000)
    too_long_headers += struct.pack("!I", crc32(too_long_headers))
    decoder = EventStreamDecoder()
    decoder.feed(too_long_headers)
    assert decoder.failure is not None and "headers length" in decoder.failure
    too_short = struct.pack("!II", 10, 0)
    too_short += struct.pack("!I", crc32(too_short))
    decoder = EventStreamDecoder()
    decoder.feed(too_short)
    assert decoder.failure is not None and "shorter than" in decoder.failure
    duplicate = frame([("a", 7, "x"), ("a", 7, "y")], b"")
    decoder = EventStreamDecoder()
    decoder.feed(duplicate)
    assert decoder.failure is not None and "duplicate header" in decoder.failure
