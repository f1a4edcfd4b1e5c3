"""Runtime events with explicit boundaries (seed 002), derived from a call's stream items.

Rules: a start before the first delta and exactly one end per run of thinking or text;
a tool-call start ends any open text (and thinking) first; one ``response_complete``
per completed response, none on cancel or error; usage after completion; an
``interrupt`` for an aborted call; errors last.
"""

from __future__ import annotations

from typing import Any

from harness.contract.results import CallResult, TextDelta, ToolCallStart
from harness.model import TextPart, ThinkingTextPart

__all__ = ["derive_events"]


def derive_events(result: CallResult) -> list[dict[str, Any]]:
    rid = result.message.response_id
    events: list[dict[str, Any]] = []
    open_kind: str | None = None  # "thinking" | "text"

    def close() -> None:
        nonlocal open_kind
        if open_kind is not None:
            events.append({"type": f"{open_kind}_end", "response_id": rid})
            open_kind = None

    append = events.append
    for item in result.items:  # one pass per stream item: the delta case inlined
        if isinstance(item, ToolCallStart):
            close()
            append(
                {
                    "type": "tool_call_start",
                    "response_id": rid,
                    "tool_call_id": item.call_id,
                    "tool_name": item.tool_name,
                }
            )
            continue
        kind = "text" if isinstance(item, TextDelta) else "thinking"
        if open_kind != kind:
            close()
            append({"type": f"{kind}_start", "response_id": rid})
            open_kind = kind
        append({"type": f"{kind}_delta", "response_id": rid, "content": item.text})
    close()
    message = result.message
    if message.stop_reason == "aborted":
        events.append({"type": "interrupt", "response_id": rid})
    elif message.stop_reason != "error":
        thinking = "".join(p.text for p in message.parts if isinstance(p, ThinkingTextPart))
        events.append(
            {
                "type": "response_complete",
                "response_id": rid,
                "content": "".join(p.text for p in message.parts if isinstance(p, TextPart)),
                "thinking_text": thinking or None,
            }
        )
    if message.usage is not None and message.stop_reason != "aborted":
        events.append(
            {"type": "usage", "response_id": rid, "usage": message.usage.model_dump(exclude_none=True)}
        )
    for error in result.errors:
        events.append(
            {
                "type": "error",
                "response_id": rid,
                "error_message": error.error_message,
                "can_retry": bool(error.can_retry),
            }
        )
    return events
