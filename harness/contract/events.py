"""Runtime events with explicit boundaries (seed 002), derived from a call's stream items.

Rules: a start before the first delta and exactly one end per run of thinking or text;
a tool-call start ends any open text (and thinking) first; one ``response_complete``
per completed response, none on cancel or error; usage after completion; an
``interrupt`` for an aborted call; errors last.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import groupby
from typing import Any, cast

from harness.contract.results import CallResult, TextDelta, ThinkingDelta, ToolCallStart
from harness.model import TextPart, ThinkingTextPart

__all__ = ["DeltaRunEvents", "derive_events", "derive_events_by_run"]

#: The events of one run of text or thinking deltas: (event type, response id, the run's items).
DeltaRunEvents = Callable[[str, str | None, Iterator[TextDelta | ThinkingDelta]], list[Any]]


def _delta_dicts(delta: str, rid: str | None, deltas: Iterator[TextDelta | ThinkingDelta]) -> list[Any]:
    return [{"type": delta, "response_id": rid, "content": i.text} for i in deltas]


def derive_events(result: CallResult) -> list[dict[str, Any]]:
    return derive_events_by_run(result, _delta_dicts)


def derive_events_by_run(result: CallResult, delta_events: DeltaRunEvents) -> list[Any]:
    """``derive_events``, the events of each run of deltas built by ``delta_events``: one
    pre-serialised fragment per run for ``harness replay``'s output (``harness.providers.replay_json``)."""
    rid = result.message.response_id
    events: list[Any] = []
    open_kind: str | None = None  # "thinking" | "text"

    def close() -> None:
        nonlocal open_kind
        if open_kind is not None:
            events.append({"type": f"{open_kind}_end", "response_id": rid})
            open_kind = None

    # One step per run of items of one class (groupby): the deltas of a run become their events
    # in one comprehension. Runs of the same kind (a subclass) continue the open run, as before.
    for cls, run in groupby(result.items, type):
        if issubclass(cls, ToolCallStart):
            close()
            calls = cast(Iterator[ToolCallStart], run)
            events += [
                {
                    "type": "tool_call_start",
                    "response_id": rid,
                    "tool_call_id": i.call_id,
                    "tool_name": i.tool_name,
                }
                for i in calls
            ]
            continue
        kind = "text" if issubclass(cls, TextDelta) else "thinking"
        if open_kind != kind:
            close()
            events.append({"type": f"{kind}_start", "response_id": rid})
            open_kind = kind
        events += delta_events(f"{kind}_delta", rid, cast(Iterator[TextDelta | ThinkingDelta], run))
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
