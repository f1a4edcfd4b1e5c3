"""What an output adapter returns and the judges read: stream items and one call's result.

Stream items are runtime only, never persisted (seed 000); ``CallResult`` holds the one
final assistant message per model call, the items and the error events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any, Literal, cast

from harness.model import AssistantMessage, ErrorEvent

__all__ = [
    "CallResult",
    "DeltaRunItems",
    "StreamItem",
    "TextDelta",
    "ThinkingDelta",
    "ToolCallStart",
    "item_to_json",
    "items_to_json",
    "items_to_json_by_run",
    "text_deltas",
]


@dataclass(frozen=True, slots=True)
class TextDelta:
    """A piece of the response's text, as it streamed."""

    text: str
    type: Literal["text_delta"] = "text_delta"


# A frozen dataclass's __init__ sets each field through object.__setattr__; a run of deltas fills
# the same slots through their descriptors, in half the time (as ``harness.stream.sse`` does).
_new = object.__new__
_set_text = TextDelta.__dict__["text"].__set__
_set_type = TextDelta.__dict__["type"].__set__


def text_deltas(texts: list[str]) -> list[TextDelta]:
    """``[TextDelta(t) for t in texts]``, for a parser's run of text deltas."""
    out: list[TextDelta] = []
    append = out.append
    for text in texts:
        item = _new(TextDelta)
        _set_text(item, text)
        _set_type(item, "text_delta")
        append(item)
    return out


@dataclass(frozen=True, slots=True)
class ThinkingDelta:
    """A piece of the response's thinking text, as it streamed."""

    text: str
    type: Literal["thinking_delta"] = "thinking_delta"


@dataclass(frozen=True, slots=True)
class ToolCallStart:
    """A tool call began streaming (its arguments follow in the final message)."""

    call_id: str
    tool_name: str
    type: Literal["tool_call_start"] = "tool_call_start"


#: What a stream parser yields as the response streams: text and thinking deltas, tool-call starts.
StreamItem = TextDelta | ThinkingDelta | ToolCallStart


def item_to_json(item: StreamItem) -> dict[str, Any]:
    if isinstance(item, ToolCallStart):
        return {"type": item.type, "call_id": item.call_id, "tool_name": item.tool_name}
    return {"type": item.type, "text": item.text}


#: The JSON of one run of text or thinking deltas of one class: (the run's items) -> elements.
DeltaRunItems = Callable[[list[TextDelta | ThinkingDelta]], list[Any]]


def _delta_dicts(deltas: list[TextDelta | ThinkingDelta]) -> list[Any]:
    return [{"type": i.type, "text": i.text} for i in deltas]


def items_to_json(items: list[StreamItem]) -> list[dict[str, Any]]:
    """``[item_to_json(i) for i in items]``, a run of items of one class at a time (no call per item)."""
    return items_to_json_by_run(items, _delta_dicts)


def items_to_json_by_run(items: list[StreamItem], delta_items: DeltaRunItems) -> list[Any]:
    """``items_to_json``, the elements of each run of deltas built by ``delta_items``: one
    pre-serialised fragment per run for ``harness replay``'s output (``harness.providers.replay_json``)."""
    out: list[Any] = []
    for cls, run in groupby(items, type):
        if issubclass(cls, ToolCallStart):
            calls = cast(Iterator[ToolCallStart], run)
            out += [{"type": i.type, "call_id": i.call_id, "tool_name": i.tool_name} for i in calls]
        else:
            out += delta_items(list(cast(Iterator[TextDelta | ThinkingDelta], run)))
    return out


@dataclass
class CallResult:
    """One model call: the final message, the stream items, and error events (plus notes)."""

    message: AssistantMessage
    items: list[StreamItem]
    errors: list[ErrorEvent]
    notes: list[str] = field(default_factory=lambda: [])
