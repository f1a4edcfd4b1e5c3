"""Output-side invariants (I3 streams, I6 event order, I11 round trips) on real and emitted streams.

The event-order rules are checked on every recorded cassette, then each stream
invariant is broken on purpose: a parser that loses usage or hides an error, an event
deriver that skips a boundary, a parser whose result depends on where the bytes were
cut, a codec that loses a field.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from harness.codec import loads_history
from harness.contract.chunking import Chunking
from harness.contract.providers import CHAT_DIALECTS
from harness.emit import representable
from harness.invariants import event_order_problems, history_to_ui_events, run_invariants
from harness.model import AssistantMessage, HistoryEvent, TextPart, ToolCallPart, Usage, UserMessage
from harness.params import CallParams
from harness.providers import PROVIDERS
from harness.stream.base import CallResult, TextDelta, ThinkingDelta, ToolCallStart
from harness.stream.events import derive_events
from tests.support.cassettes import case_id, cassette_cases, model_calls
from tests.support.invariants import REFERENCE, Mutant

CASSETTES = cassette_cases()

# ---------------------------------------------------------------- event_order_problems itself

RID = {"response_id": "r1"}
GOOD = [
    {"type": "thinking_start", **RID},
    {"type": "thinking_delta", "content": "hm", **RID},
    {"type": "thinking_end", **RID},
    {"type": "text_start", **RID},
    {"type": "text_delta", "content": "hi", **RID},
    {"type": "text_end", **RID},
    {"type": "tool_call_start", "tool_call_id": "c", "tool_name": "t", **RID},
    {"type": "response_complete", "content": "hi", "thinking_text": "hm", **RID},
    {"type": "usage", **RID},
]


def without(kind: str) -> list[dict[str, Any]]:
    return [e for e in GOOD if e["type"] != kind]


@pytest.mark.parametrize(
    ("events", "stop", "fragment"),
    [
        (without("text_start"), "tool_use", "text_delta before its text_start"),
        (without("text_end"), "tool_use", "while text is streaming"),
        ([*GOOD[:3], GOOD[3], *GOOD[3:]], "tool_use", "nested"),
        ([*GOOD[:5], GOOD[-2]], "stop", "never ended"),
        ([*GOOD, GOOD[-2]], "tool_use", "2 response_complete events"),
        (without("response_complete"), "stop", "0 response_complete events"),
        (GOOD, "aborted", "response_complete for a response that ended aborted"),
        (
            [*GOOD[:-2], {"type": "text_delta", "content": "late", **RID}, *GOOD[-2:]],
            "tool_use",
            "text_delta",
        ),
        ([{**GOOD[0], "response_id": "r2"}, *GOOD[1:]], "tool_use", "several response_ids"),
        ([*GOOD[:-2], GOOD[-2], {"type": "text_start", **RID}], "tool_use", "after the response ended"),
    ],
    ids=[
        "delta-before-start",
        "tool-start-while-text-open",
        "nested-start",
        "no-end",
        "two-completions",
        "no-completion",
        "completion-on-cancel",
        "delta-outside-stream",
        "two-response-ids",
        "stream-after-completion",
    ],
)
def test_event_order_problems_names_each_broken_rule(
    events: list[dict[str, Any]], stop: str, fragment: str
) -> None:
    assert event_order_problems(GOOD, "tool_use") == []
    assert any(fragment in p for p in event_order_problems(events, stop)), event_order_problems(events, stop)


@pytest.mark.parametrize("case", CASSETTES, ids=[case_id(c) for c in CASSETTES])
def test_recorded_streams_keep_event_order_and_one_final_message(case: tuple[str, Path]) -> None:
    provider, path = case
    for exchange in model_calls(provider, path):
        result = REFERENCE.replay(provider, exchange)
        assert event_order_problems(derive_events(result), result.message.stop_reason) == []
        assert result.message.usage is not None and result.message.stop_reason is not None
        for size in (7, 64):
            assert REFERENCE.replay(provider, exchange, size) == result


# ---------------------------------------------------------------- emittable histories

_USAGE: dict[str, Usage] = {
    "anthropic": Usage(input_tokens=12, output_tokens=7),
    "gemini": Usage(input_tokens=12, output_tokens=7, total_tokens=19),
    "openai-chat": Usage(input_tokens=12, output_tokens=7, total_tokens=19),
    "openai-responses": Usage(
        input_tokens=12, output_tokens=7, cached_input_tokens=0, reasoning_tokens=0, total_tokens=19
    ),
    "openrouter": Usage(input_tokens=12, output_tokens=7, total_tokens=19),
    "bedrock": Usage(input_tokens=12, output_tokens=7),
    **{p: Usage(input_tokens=12, output_tokens=7, total_tokens=19) for p in CHAT_DIALECTS},
    "cohere": Usage(input_tokens=12, output_tokens=7),
}


def emittable(provider: str) -> list[HistoryEvent]:
    """A short loop whose assistant messages ``harness.emit`` can write for ``provider``."""
    responses = provider == "openai-responses"
    item_id = "fc_0001" if responses else None
    call = ToolCallPart(call_id="call_1", tool_name="read", arguments_json='{"path":"a.py"}', item_id=item_id)
    history: list[HistoryEvent] = [
        UserMessage(parts=[TextPart(text="Open a.py and summarize it.")]),
        AssistantMessage(
            parts=[TextPart(text="Reading the file now.", item_id="msg_0001" if responses else None), call],
            usage=_USAGE[provider],
            stop_reason="tool_use",
            response_id="resp_1",
        ),
        *loads_history(
            '{"role":"tool","call_id":"call_1","tool_name":"read","status":"success","output_text":"def f(): pass"}\n'
        ),
        AssistantMessage(
            parts=[
                TextPart(text="It defines one empty function, f.", item_id="msg_0002" if responses else None)
            ],
            usage=_USAGE[provider],
            stop_reason="stop",
            response_id="resp_2",
        ),
        UserMessage(parts=[TextPart(text="Thanks.")]),
    ]
    for event in history:
        if isinstance(event, AssistantMessage):
            assert representable(provider, event) is None
    return history


def check(provider: str, invariant: str, target: Any = None, **hooks: Any) -> list[str]:
    report = run_invariants(
        emittable(provider),
        CallParams(),
        target=target,
        providers=[provider],
        invariants=[invariant],
        **hooks,
    )
    return [v.reason for v in report.violations]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_emitted_streams_pass_every_stream_check(provider: str) -> None:
    report = run_invariants(
        emittable(provider), CallParams(), providers=[provider], invariants=["I3", "I6", "I11"]
    )
    assert report.ok, report.violations
    assert not any("stream form" in n for n in report.notes), report.notes


# ---------------------------------------------------------------- I3 one final message, however the stream ends


def _lose_usage(_provider: str, result: CallResult, _size: Chunking) -> CallResult:
    return CallResult(result.message.model_copy(update={"usage": None}), result.items, result.errors)


def _hide_errors(_provider: str, result: CallResult, _size: Chunking) -> CallResult:
    message = result.message.model_copy(update={"stop_reason": "stop"})
    return CallResult(message, result.items, [])


def _crash(_provider: str, result: CallResult, _size: Chunking) -> CallResult:
    if result.errors:
        raise RuntimeError("parser blew up on a bad stream")
    return result


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i3_catches_a_final_message_without_usage(provider: str) -> None:
    assert check(provider, "I3") == []
    reasons = check(provider, "I3", Mutant(parsed=_lose_usage))
    assert any("an HTTP 500 response: the final message has no usage" in r for r in reasons), reasons
    assert any("the emitted stream: the final message has no usage" in r for r in reasons), reasons


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i3_catches_a_failed_stream_reported_as_complete(provider: str) -> None:
    reasons = check(provider, "I3", Mutant(parsed=_hide_errors))
    assert any(r.startswith("an empty stream: expected stop_reason error") for r in reasons), reasons
    assert any(r.startswith("the emitted stream cut in half: expected stop_reason error") for r in reasons), (
        reasons
    )


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i3_catches_a_parser_that_raises(provider: str) -> None:
    reasons = check(provider, "I3", Mutant(parsed=_crash))
    assert any("stream parser raised RuntimeError" in r for r in reasons), reasons


# ---------------------------------------------------------------- I6 event order


def _no_text_end_before_tools(result: CallResult) -> list[dict[str, Any]]:
    events = derive_events(result)
    return [
        e
        for n, e in enumerate(events)
        if not (
            e["type"] == "text_end" and n + 1 < len(events) and events[n + 1]["type"] == "tool_call_start"
        )
    ]


def _complete_even_when_cancelled(result: CallResult) -> list[dict[str, Any]]:
    events = derive_events(result)
    if result.message.stop_reason in ("aborted", "error"):
        events.append({"type": "response_complete", "response_id": result.message.response_id, "content": ""})
    return events


def _replay_without_starts(history: Sequence[HistoryEvent]) -> list[dict[str, Any]]:
    return [e for e in history_to_ui_events(history) if not e["type"].endswith("_start")]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i6_catches_a_tool_call_start_while_text_streams(provider: str) -> None:
    reasons = check(provider, "I6", events=_no_text_end_before_tools)
    assert any("tool_call_start while text is streaming" in r for r in reasons), reasons


def test_i6_catches_a_completion_on_cancel() -> None:
    history: list[HistoryEvent] = [
        UserMessage(parts=[TextPart(text="explain")]),
        AssistantMessage(parts=[TextPart(text="Well, first")], usage=Usage(), stop_reason="aborted"),
    ]
    assert run_invariants(history, CallParams(), providers=["anthropic"], invariants=["I6"]).ok
    report = run_invariants(
        history,
        CallParams(),
        providers=["anthropic"],
        invariants=["I6"],
        events=_complete_even_when_cancelled,
    )
    assert [v.reason for v in report.violations] == [
        "runtime events: response_complete for a response that ended aborted (none expected)"
    ]


def test_i6_catches_replayed_deltas_without_their_start() -> None:
    report = run_invariants(
        emittable("anthropic"),
        CallParams(),
        providers=["anthropic"],
        invariants=["I6"],
        ui_events=_replay_without_starts,
    )
    assert any(
        v.reason.startswith("replayed UI events: text_delta before its text_start") for v in report.violations
    )


def test_derive_events_follows_seed_002_for_any_item_order() -> None:
    """The reference deriver itself: boundaries are explicit whatever order the items come in."""
    message = AssistantMessage(parts=[TextPart(text="ab")], usage=Usage(), stop_reason="tool_use")
    items = [TextDelta("a"), ThinkingDelta("t"), TextDelta("b"), ToolCallStart("c", "t"), TextDelta("x")]
    result = CallResult(message, list(items), [])
    assert event_order_problems(derive_events(result), "tool_use") == []


# ---------------------------------------------------------------- I11 round trips


def _drop_last_char(_provider: str, result: CallResult, _size: Chunking) -> CallResult:
    parts = list(result.message.parts)
    for n, part in enumerate(parts):
        if isinstance(part, TextPart) and part.text:
            parts[n] = part.model_copy(update={"text": part.text[:-1]})
            break
    return CallResult(result.message.model_copy(update={"parts": parts}), result.items, result.errors)


def _chunk_sensitive(_provider: str, result: CallResult, size: Chunking) -> CallResult:
    """Loses the stream items when the transport splits the body (a line-buffering bug)."""
    return CallResult(result.message, [] if size else result.items, result.errors)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i11_catches_a_parser_that_does_not_invert_the_emitter(provider: str) -> None:
    assert check(provider, "I11") == []
    reasons = check(provider, "I11", Mutant(parsed=_drop_last_char))
    assert any(
        r.startswith("parse(emit(message)) differs from the message at .parts[0].text") for r in reasons
    ), reasons


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i11_catches_a_parse_that_depends_on_chunk_boundaries(provider: str) -> None:
    reasons = check(provider, "I11", Mutant(parsed=_chunk_sensitive))
    assert any(r.startswith("the stream parses differently cut at its line ends") for r in reasons), reasons


def test_i11_catches_a_lossy_codec(monkeypatch: pytest.MonkeyPatch) -> None:
    import harness.invariants.round_trips as round_trips

    def lossy(text: str, *, source: str = "<history>") -> list[HistoryEvent]:
        return [e.model_copy(update={"response_id": None}) for e in loads_history(text, source=source)]

    monkeypatch.setattr(round_trips, "loads_history", lossy)
    reasons = check("anthropic", "I11")
    assert reasons.count("codec round trip changed the event") == 2, reasons


def test_parser_invariants_are_exactly_the_checks_that_replay_the_target() -> None:
    """``PARSER_INVARIANTS`` (reported not run for a target without a stream parser) names every
    invariant module that calls ``replay_bytes``, and no other: a new stream check cannot be
    left out, so it never runs on a target that has no parser to judge."""
    import ast

    from harness.invariants.streams import PARSER_INVARIANTS

    replaying: set[str] = set()
    for path in sorted((Path(__file__).resolve().parent.parent / "harness" / "invariants").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = any(
            isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "replay_bytes"
            for n in ast.walk(tree)
        )
        ids = [
            n.value.value
            for n in tree.body
            if isinstance(n, ast.Assign)
            and [t.id for t in n.targets if isinstance(t, ast.Name)] == ["ID"]
            and isinstance(n.value, ast.Constant)
        ]
        if calls and path.name != "streams.py":
            assert ids, f"{path.name} replays the target but names no invariant ID"
            replaying.update(str(i) for i in ids)
    assert replaying == set(PARSER_INVARIANTS)
