"""Strategies for any valid history event and history (the codec round trip, never-crash checks)."""

from __future__ import annotations

from hypothesis import strategies as st
from pydantic import JsonValue

from harness.model import (
    AddedTool,
    AssistantMessage,
    DeveloperMessage,
    ErrorEvent,
    HistoryEvent,
    SystemMessage,
    TaskMetadataEvent,
    ToolResultMessage,
    UserMessage,
)
from harness.strategies.parts import (
    assistant_parts,
    content_parts,
    ids,
    json_scalars,
    optional_ids,
    text,
    text_parts,
    timestamps,
    tool_parts,
    usages,
)

_common = {"id": optional_ids, "created_at": timestamps, "response_id": optional_ids}

#: System messages of text parts.
system_messages = st.builds(SystemMessage, parts=st.lists(text_parts, max_size=2), **_common)
_EMPTY_SCHEMA: dict[str, JsonValue] = {"type": "object", "properties": {}}
_QUERY_SCHEMA: dict[str, JsonValue] = {
    "type": "object",
    "properties": {"q": {"type": "string"}},
    "required": ["q"],
}
_SCHEMAS = st.sampled_from([_EMPTY_SCHEMA, _QUERY_SCHEMA])
_ADDED_NAMES = st.sampled_from(["lookup", "get_time", "search_docs"])
#: A tool added mid-conversation: a reference to a deferred tool by name, or a whole definition.
added_tools = st.builds(AddedTool, name=_ADDED_NAMES) | st.builds(
    AddedTool,
    name=_ADDED_NAMES,
    description=st.none() | st.sampled_from(["Look it up.", "Get the current time."]),
    parameters=_SCHEMAS,
    strict=st.none() | st.booleans(),
)
#: System messages that add tools at their place (kept apart from ``system_messages``, so the
#: generated set that adopters' known failures are keyed on stays the same).
tool_addition_messages = st.builds(
    SystemMessage,
    parts=st.just([]),
    added_tools=st.lists(added_tools, min_size=1, max_size=3, unique_by=lambda t: t.name),
)
#: Developer messages, with or without their UI-only fields.
developer_messages = st.builds(
    DeveloperMessage,
    parts=st.lists(content_parts, max_size=3),
    command_output=st.none() | text,
    at_files=st.none() | st.lists(st.just("src/app.py"), max_size=2),
    ui_extra=st.none() | st.just({"kind": "reminder"}),
    **_common,
)
#: User messages of text and image parts.
user_messages = st.builds(UserMessage, parts=st.lists(content_parts, max_size=3), **_common)
#: Assistant messages with any parts, usage and stop reason (not necessarily a consistent call).
assistant_messages = st.builds(
    AssistantMessage,
    parts=st.lists(assistant_parts, max_size=5),
    usage=st.none() | usages,
    stop_reason=st.none() | st.sampled_from(["stop", "length", "tool_use", "error", "aborted"]),
    **_common,
)


def _interleave(result: ToolResultMessage) -> ToolResultMessage:
    """Some results as the tool gave them in blocks, an image or file between them (``text_blocks``,
    ``part_positions``): chosen from what was drawn (a ``map`` draws nothing, so every other
    history the strategy gives stays as it was)."""
    text = result.output_text
    if not result.parts or len(text) < 2 or len(text) % 3:
        return result
    half = len(text) // 2
    positions = [1] + [2] * (len(result.parts) - 1)
    return result.model_copy(update={"text_blocks": [half, len(text) - half], "part_positions": positions})


#: Tool results of every status, with or without images and files (after the text, or between its
#: blocks), text blocks and UI-only fields.
tool_messages = st.builds(
    ToolResultMessage,
    call_id=ids,
    tool_name=st.sampled_from(["read", "bash", "search"]),
    status=st.sampled_from(["success", "error", "aborted"]),
    output_text=text,
    output_json=st.none() | st.just({"temperature": 21, "unit": "C"}) | st.just([1, 2]),
    parts=st.lists(tool_parts, max_size=2),
    ui_extra=st.none() | st.just({"diff": "+1 -0"}),
    side_effects=st.none() | st.just(["todo_changed"]),
    task_metadata=st.none() | st.just({"duration_ms": 12}),
    **_common,
).map(_interleave)

#: Error events (not sent to a provider).
error_events = st.builds(
    ErrorEvent,
    error_message=text,
    created_at=timestamps,
    response_id=optional_ids,
    can_retry=st.none() | st.booleans(),
)
#: Task-metadata events (not sent to a provider).
task_metadata_events = st.builds(
    TaskMetadataEvent,
    created_at=timestamps,
    metadata=st.dictionaries(st.text(max_size=8), json_scalars, max_size=3),
)

#: Any one history event: every message role, error and task-metadata events.
history_events: st.SearchStrategy[HistoryEvent] = st.one_of(
    user_messages,
    assistant_messages,
    tool_messages,
    developer_messages,
    system_messages,
    error_events,
    task_metadata_events,
)
#: Any valid history (up to 8 events, not necessarily a well-formed agent loop: see ``agent_loops``).
histories = st.lists(history_events, max_size=8)
