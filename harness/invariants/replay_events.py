"""Replay a persisted history into UI events, as seed 002 specifies (I5, I6).

History never stores streaming deltas, tool-call-start signals or interrupts (seed 000);
replay derives them. The rules implemented here:

- an assistant message replays its thinking and text with explicit boundaries (a
  ``*_start``, one delta per part, one ``*_end`` per run), a ``tool_call`` event per
  call, then ``response_complete`` (content + thinking snapshot) and ``usage`` when the
  response completed (stop_reason stop / length / tool_use);
- ``stop_reason == "aborted"`` is the interrupt marker: an ``interrupt`` event and no
  ``response_complete`` (the partial text was already replayed);
- a tool result replays as ``tool_result`` whose status is ``success`` or ``error``:
  ``aborted`` shows as ``error`` (the UI status has no abort) and is followed by an
  ``interrupt`` (one for consecutive aborted results: parallel calls cancelled together);
- error and task metadata events replay as themselves; system messages are not shown.

Every event carries ``history_index``, the canonical message it came from, so a check
can point at the message. ``session_id`` and ``timestamp`` are left out: a pure
function of the history has neither.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.model import (
    AssistantMessage,
    DeveloperMessage,
    ErrorEvent,
    HistoryEvent,
    ImageURLPart,
    TaskMetadataEvent,
    TextPart,
    ThinkingTextPart,
    ToolCallPart,
    ToolResultMessage,
    UserMessage,
)

__all__ = ["COMPLETED_STOP_REASONS", "history_to_ui_events"]

#: Stop reasons of a response that completed (gets exactly one ``response_complete``).
COMPLETED_STOP_REASONS = frozenset({"stop", "length", "tool_use"})

Json = dict[str, Any]


def history_to_ui_events(history: Sequence[HistoryEvent]) -> list[Json]:
    """UI events for a persisted history; see the module docstring for the rules."""
    events: list[Json] = []
    for index, event in enumerate(history):
        if isinstance(event, UserMessage):
            events.append(_user_event(index, event))
        elif isinstance(event, DeveloperMessage):
            item = event.model_dump(mode="json", exclude_none=True)
            events.append({"type": "developer_message", "history_index": index, "item": item})
        elif isinstance(event, AssistantMessage):
            events.extend(_assistant_events(index, event))
        elif isinstance(event, ToolResultMessage):
            events.append(_tool_result_event(history, index, event))
            if event.status == "aborted" and not _next_is_aborted_tool(history, index):
                events.append({"type": "interrupt", "history_index": index})
        elif isinstance(event, ErrorEvent):
            events.append(
                {
                    "type": "error",
                    "history_index": index,
                    "error_message": event.error_message,
                    "can_retry": bool(event.can_retry),
                }
            )
        elif isinstance(event, TaskMetadataEvent):
            events.append({"type": "task_metadata", "history_index": index, "metadata": event.metadata})
    return events


def _user_event(index: int, message: UserMessage) -> Json:
    images = [p.url for p in message.parts if isinstance(p, ImageURLPart)]
    out: Json = {
        "type": "user_message",
        "history_index": index,
        "content": "".join(p.text for p in message.parts if isinstance(p, TextPart)),
    }
    if images:
        out["images"] = images
    return out


def _assistant_events(index: int, message: AssistantMessage) -> list[Json]:
    rid = message.response_id
    events: list[Json] = []
    open_kind: str | None = None

    def base(kind: str) -> Json:
        return {"type": kind, "history_index": index, "response_id": rid}

    def close() -> None:
        nonlocal open_kind
        if open_kind is not None:
            events.append(base(f"{open_kind}_end"))
            open_kind = None

    for part in message.parts:
        if isinstance(part, TextPart | ThinkingTextPart):
            kind = "text" if isinstance(part, TextPart) else "thinking"
            if not part.text:
                continue
            if open_kind != kind:
                close()
                events.append(base(f"{kind}_start"))
                open_kind = kind
            events.append({**base(f"{kind}_delta"), "content": part.text})
        elif isinstance(part, ToolCallPart):
            close()
            events.append(
                {
                    **base("tool_call"),
                    "tool_call_id": part.call_id,
                    "tool_name": part.tool_name,
                    "arguments": part.arguments_json,
                }
            )
    close()
    if message.stop_reason == "aborted":
        events.append(base("interrupt"))
    elif message.stop_reason in COMPLETED_STOP_REASONS:
        thinking = "".join(p.text for p in message.parts if isinstance(p, ThinkingTextPart))
        events.append(
            {
                **base("response_complete"),
                "content": "".join(p.text for p in message.parts if isinstance(p, TextPart)),
                "thinking_text": thinking or None,
            }
        )
    if message.usage is not None and message.stop_reason != "aborted":
        events.append({**base("usage"), "usage": message.usage.model_dump(exclude_none=True)})
    return events


def _tool_result_event(history: Sequence[HistoryEvent], index: int, message: ToolResultMessage) -> Json:
    nxt = history[index + 1] if index + 1 < len(history) else None
    out: Json = {
        "type": "tool_result",
        "history_index": index,
        "response_id": message.response_id,
        "tool_call_id": message.call_id,
        "tool_name": message.tool_name,
        "result": message.output_text,
        "status": "success" if message.status == "success" else "error",
        "is_last_in_turn": not isinstance(nxt, ToolResultMessage),
    }
    if message.ui_extra is not None:
        out["ui_extra"] = message.ui_extra
    if message.task_metadata is not None:
        out["task_metadata"] = message.task_metadata
    return out


def _next_is_aborted_tool(history: Sequence[HistoryEvent], index: int) -> bool:
    """Parallel aborted results share one interrupt, emitted after the last of the run."""
    nxt = history[index + 1] if index + 1 < len(history) else None
    return isinstance(nxt, ToolResultMessage) and nxt.status == "aborted"
