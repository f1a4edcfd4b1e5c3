"""What an output adapter returns and the judges read: stream items and one call's result.

Stream items are runtime only, never persisted (seed 000); ``CallResult`` holds the one
final assistant message per model call, the items and the error events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from harness.model import AssistantMessage, ErrorEvent

__all__ = ["CallResult", "StreamItem", "TextDelta", "ThinkingDelta", "ToolCallStart", "item_to_json"]


@dataclass(frozen=True, slots=True)
class TextDelta:
    text: str
    type: Literal["text_delta"] = "text_delta"


@dataclass(frozen=True, slots=True)
class ThinkingDelta:
    text: str
    type: Literal["thinking_delta"] = "thinking_delta"


@dataclass(frozen=True, slots=True)
class ToolCallStart:
    call_id: str
    tool_name: str
    type: Literal["tool_call_start"] = "tool_call_start"


StreamItem = TextDelta | ThinkingDelta | ToolCallStart


def item_to_json(item: StreamItem) -> dict[str, Any]:
    if isinstance(item, ToolCallStart):
        return {"type": item.type, "call_id": item.call_id, "tool_name": item.tool_name}
    return {"type": item.type, "text": item.text}


@dataclass
class CallResult:
    """One model call: the final message, the stream items, and error events (plus notes)."""

    message: AssistantMessage
    items: list[StreamItem]
    errors: list[ErrorEvent]
    notes: list[str] = field(default_factory=list[str])
