"""I6 event-order: runtime and replayed events keep seed 002's explicit streaming boundaries.

Per response: a ``*_start`` before the first ``*_delta``; exactly one ``*_end`` per
start, no nesting; a tool-call start while text streams ends the text first; no
streaming after the response ended; exactly one ``response_complete`` for a completed
response (stop / length / tool_use) and none for a cancelled or failed one (a message
without a stop reason is I3's finding, so it is not judged here); one ``response_id``
throughout.

``event_order_problems`` judges any event list; the invariant applies it to the
history's replayed UI events and to each assistant message's runtime events (from its
emitted stream when ``harness.emit`` is available, else from stream items rebuilt from
its parts).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from harness.contract.results import CallResult, StreamItem, TextDelta, ThinkingDelta, ToolCallStart
from harness.invariants.base import CheckContext, Violation, snippet
from harness.invariants.replay_events import COMPLETED_STOP_REASONS
from harness.invariants.streams import emit_for, replay_bytes, stream_exchange
from harness.model import AssistantMessage, TextPart, ThinkingTextPart, ToolCallPart

__all__ = ["check_event_order", "event_order_problems", "items_from_parts"]

ID = "I6"
_STREAMS = ("thinking", "text")
_TOOL_EVENTS = frozenset({"tool_call_start", "tool_call"})


def event_order_problems(events: Sequence[Mapping[str, Any]], stop_reason: str | None) -> list[str]:
    """What is wrong with the events of one response that ended with ``stop_reason`` (empty: nothing)."""
    problems: list[str] = []
    open_: dict[str, bool] = dict.fromkeys(_STREAMS, False)
    completes = 0
    ended_at: int | None = None
    response_ids: set[str] = set()
    for n, event in enumerate(events):
        kind = str(event.get("type"))
        if "response_id" in event and event["response_id"] is not None:
            response_ids.add(str(event["response_id"]))
        stream, _, phase = kind.rpartition("_")
        if stream in _STREAMS and phase in ("start", "delta", "end"):
            if ended_at is not None and phase != "end":
                problems.append(f"{kind} after the response ended (event {n})")
            if phase == "start":
                if open_[stream]:
                    problems.append(f"{stream} streaming nested: a second {kind} (event {n})")
                open_[stream] = True
            elif phase == "delta" and not open_[stream]:
                problems.append(f"{kind} before its {stream}_start (event {n})")
            elif phase == "end":
                if not open_[stream]:
                    problems.append(f"{kind} without an open {stream} stream (event {n})")
                open_[stream] = False
        elif kind in _TOOL_EVENTS:
            if open_["text"]:
                problems.append(f"{kind} while text is streaming: text_end must come first (event {n})")
            if ended_at is not None:
                problems.append(f"{kind} after the response ended (event {n})")
        elif kind in ("response_complete", "interrupt"):
            completes += kind == "response_complete"
            ended_at = n if ended_at is None else ended_at
    problems += [
        f"{stream} streaming never ended ({stream}_end missing)" for stream in _STREAMS if open_[stream]
    ]
    if stop_reason in COMPLETED_STOP_REASONS and completes != 1:
        problems.append(
            f"{completes} response_complete events for a completed response (exactly one expected)"
        )
    elif stop_reason is not None and stop_reason not in COMPLETED_STOP_REASONS and completes:
        problems.append(f"response_complete for a response that ended {stop_reason} (none expected)")
    if len(response_ids) > 1:
        problems.append(f"one response's events carry several response_ids: {sorted(response_ids)}")
    return problems


def items_from_parts(message: AssistantMessage) -> list[StreamItem]:
    """The stream items a provider would have produced for this message, in part order."""
    items: list[StreamItem] = []
    for part in message.parts:
        if isinstance(part, TextPart) and part.text:
            items.append(TextDelta(part.text))
        elif isinstance(part, ThinkingTextPart) and part.text:
            items.append(ThinkingDelta(part.text))
        elif isinstance(part, ToolCallPart):
            items.append(ToolCallStart(part.call_id, part.tool_name))
    return items


def check_event_order(ctx: CheckContext) -> list[Violation]:
    out: list[Violation] = []
    replayed = ctx.ui_events(ctx.history)
    by_index: dict[object, list[Any]] = {}  # grouped once: a pass per message is quadratic
    for e in replayed:
        by_index.setdefault(e.get("history_index"), []).append(e)
    for index, event in enumerate(ctx.history):
        if not isinstance(event, AssistantMessage):
            continue
        mine = by_index.get(index, [])
        for problem in event_order_problems(mine, event.stop_reason):
            out.append(Violation(ID, None, index, f"replayed UI events: {problem}", _kinds(mine), "policy"))
        # An interrupt is the client's doing, never in a stream: judge the message's own items then.
        body = None if event.stop_reason == "aborted" else emit_for(ctx, event, index)
        if body is None:  # no provider stream: the runtime events of the message's own items
            result = CallResult(event, items_from_parts(event), [])
            provider = None
        else:
            replayed_call = replay_bytes(ctx, ID, index, stream_exchange(ctx, index, body))
            if isinstance(replayed_call, Violation):
                out.append(replayed_call)
                continue
            result, provider = replayed_call, ctx.provider
        runtime = ctx.events(result)
        for problem in event_order_problems(runtime, result.message.stop_reason):
            out.append(
                Violation(ID, provider, index, f"runtime events: {problem}", _kinds(runtime), "policy")
            )
    return out


def _kinds(events: Sequence[Mapping[str, Any]]) -> str:
    return snippet([e.get("type") for e in events])
