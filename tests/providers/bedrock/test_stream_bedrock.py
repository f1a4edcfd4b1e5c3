"""Bedrock's replay path: runs of deltas taken without an event each, frames decoded once.

``BedrockParser.feed_frames`` takes the plain text and tool-input deltas in runs and hands
every other frame to ``feed_all`` as its event; the result (message, items, errors, notes)
must be what event-by-event parsing of the same frames gives, whatever the payloads hold
(odd shapes, bad JSON, bytes that are not UTF-8, frames after the terminal event).
``frame_payloads`` (the input check) decodes a body's frames once, and the replay of that
same body takes the decoder: the frames, the failure and the counts are a fresh decode's.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from harness.emit.bedrock import frame_bytes
from harness.providers.bedrock.stream import PARSER
from harness.stream import eventstream
from harness.stream.base import CallResult
from harness.stream.drive import parse_bytes
from harness.stream.eventstream import (
    EventStreamDecoder,
    EventStreamEvents,
    Frames,
    frame_payloads,
    frames_to_events,
)
from tests.support.eventstream import content_delta

#: A contentBlockDelta payload with Bedrock's padding field beside the delta.
_delta = partial(content_delta, p="abc")


# Payloads of contentBlockDelta frames: the plain shapes and every way out of them.
_DELTAS = [
    _delta(0, {"text": "Hel"}),
    _delta(0, {"text": "lo ✓"}),
    _delta(0, {"text": ""}),
    _delta(2, {"text": "two"}),
    _delta(1, {"toolUse": {"input": '{"a": '}}),
    _delta(1, {"toolUse": {"input": "1}"}}),
    _delta(1, {"toolUse": {}}),
    _delta(1, {"toolUse": {"input": ""}}),
    _delta(3, {"text": "both", "toolUse": {"input": "x"}}),
    _delta(0, {"text": None}),
    _delta(0, {"text": 5}),
    _delta(0, {"text": ["a"]}),
    _delta(0, {"text": 0}),
    _delta(1, {"toolUse": {"input": 7}}),
    _delta(1, {"toolUse": None}),
    _delta(1, {"toolUse": "x"}),
    _delta(0, {"reasoningContent": {"text": "hm"}}),
    _delta(0, {"other": 1}),
    _delta(0, []),
    _delta(0, "text"),
    _delta(True, {"text": "bool index"}),
    _delta(1.0, {"text": "float index"}),
    _delta([0], {"text": "list index"}),
    _delta(None, {"text": "no index"}),
    json.dumps({"delta": {"text": "no index key"}}).encode(),
    json.dumps({"contentBlockIndex": 0}).encode(),
    b'{"contentBlockIndex": 0, "delta": {"text": "\\ud800"}}',
    b'{"contentBlockIndex": 0, "delta": {"text": "\xff\xfe"}}',
    b'{"contentBlockIndex": 0, "delta": {"text": NaN}}',
    b'{"contentBlockIndex": 99999999999999999999999, "delta": {"text": "big"}}',
    b"not json",
    b"[1, 2]",
    b"",
]
_OTHERS = [
    ("messageStart", b'{"role": "assistant"}'),
    ("contentBlockStart", b'{"contentBlockIndex": 1, "start": {"toolUse": {"toolUseId": "t", "name": "f"}}}'),
    ("contentBlockStop", b'{"contentBlockIndex": 0}'),
    ("contentBlockStop", b'{"contentBlockIndex": 1}'),
    ("messageStop", b'{"stopReason": "end_turn"}'),
    ("metadata", b'{"usage": {"inputTokens": 1, "outputTokens": 2}}'),
    ("error", b'{"error": {"type": "throttlingException", "message": "slow down"}}'),
    ("unknownEvent", b"{}"),
    (None, b"{}"),
]
_FRAME = st.one_of(
    st.sampled_from(_DELTAS).map(lambda payload: ("contentBlockDelta", payload)),
    st.sampled_from(_OTHERS),
)


def _outcome(result: CallResult) -> dict[str, Any]:
    return {
        "message": result.message.model_dump(mode="json"),
        "items": result.items,
        "errors": [e.model_dump(mode="json") for e in result.errors],
        "notes": result.notes,
    }


def _by_runs(frames: list[tuple[str | None, bytes]], cuts: list[int]) -> CallResult:
    parser = PARSER()
    start = 0
    for cut in [*sorted(cuts), len(frames)]:  # the frames as several decoder outputs
        part = frames[start:cut]
        parser.feed_frames(Frames([n for n, _ in part], [p for _, p in part]))
        start = max(start, cut)
    return parser.finish()


def _by_events(frames: list[tuple[str | None, bytes]]) -> CallResult:
    parser = PARSER()
    parser.feed_all(frames_to_events(Frames([n for n, _ in frames], [p for _, p in frames])))
    return parser.finish()


@settings(max_examples=300, deadline=None)
@given(
    head=st.lists(_FRAME, max_size=20),
    body=st.lists(_FRAME, max_size=40),
    cuts=st.lists(st.integers(0, 60), max_size=3),
)
def test_runs_of_deltas_give_what_event_by_event_parsing_gives(
    head: list[tuple[str | None, bytes]], body: list[tuple[str | None, bytes]], cuts: list[int]
) -> None:
    # a plain start, then anything: past the sampled first events, the runs are taken
    frames = [
        ("messageStart", b'{"role": "assistant"}'),
        *head,
        *([("contentBlockDelta", _DELTAS[0])] * 16),
        *body,
    ]
    assert _outcome(_by_runs(frames, cuts)) == _outcome(_by_events(frames))


def test_a_run_is_one_text_part_and_one_item_per_delta() -> None:
    frames: list[tuple[str | None, bytes]] = [("messageStart", b"{}")]
    frames += [("contentBlockDelta", _delta(0, {"text": f"w{i} "})) for i in range(40)]
    frames += [("messageStop", b'{"stopReason": "end_turn"}'), ("metadata", b'{"usage": {}}')]
    result = _by_runs(frames, [])
    assert [p.model_dump(exclude_none=True) for p in result.message.parts] == [
        {"type": "text", "text": "".join(f"w{i} " for i in range(40))}
    ]
    assert [getattr(i, "text", None) for i in result.items] == [f"w{i} " for i in range(40)]
    assert result.errors == []


def _state(events: EventStreamEvents) -> tuple[object, ...]:
    return (events.frames, events.failure, events.discarded_bytes)


def test_the_replay_of_a_checked_body_takes_its_decode() -> None:
    frames = [frame_bytes("contentBlockDelta", _delta(0, {"text": f"w{i}"})) for i in range(50)]
    corrupt = bytearray(b"".join(frames))
    corrupt[len(frames[0]) * 30 + 40] ^= 0x20  # frame 30's payload: its message CRC fails
    for body in (b"".join(frames), bytes(corrupt), b"".join(frames)[:-5]):
        fresh = EventStreamEvents()
        expected = fresh.feed_frames(body)
        fresh.close()
        assert frame_payloads(body) is not None
        decoder = eventstream._decoded[id(body)][1]  # pyright: ignore[reportPrivateUsage]
        events = EventStreamEvents()
        assert events.feed_frames(body) == expected
        events.close()
        assert events._decoder is decoder  # pyright: ignore[reportPrivateUsage]
        assert _state(events) == _state(fresh)
        assert id(body) not in eventstream._decoded  # pyright: ignore[reportPrivateUsage]
        assert parse_bytes(PARSER, body).errors == _by_body(body).errors


def _by_body(body: bytes) -> CallResult:
    frame_payloads(body)
    return parse_bytes(PARSER, body)


def test_another_body_never_takes_a_decode() -> None:
    one, two = frame_bytes("messageStart", b"{}"), frame_bytes("messageStart", b'{"role": "assistant"}')
    assert frame_payloads(one) is not None
    decoder = EventStreamDecoder()
    assert EventStreamEvents().feed_frames(two) == decoder.feed_frames(two)
    assert id(one) in eventstream._decoded  # pyright: ignore[reportPrivateUsage]
