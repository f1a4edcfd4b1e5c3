"""Strategies for any valid history event and history (the codec round trip, never-crash checks)."""

from __future__ import annotations

from hypothesis import strategies as st

from harness.model import (
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


@st.composite
def _tool_content(draw: st.DrawFn) -> dict[str, object]:
    """A result's text (one block or several: ``text_blocks``), its images and files, and where
    they stand among the text blocks (``part_positions``, set only when some text follows a part)."""
    blocks = draw(st.lists(text, min_size=1, max_size=3))
    parts = draw(st.lists(tool_parts, max_size=2))
    positions = sorted(draw(st.lists(st.integers(0, len(blocks)), min_size=len(parts), max_size=len(parts))))
    return {
        "output_text": "".join(blocks),
        "text_blocks": [len(b) for b in blocks] if len(blocks) > 1 else None,
        "parts": parts,
        "part_positions": positions if any(n < len(blocks) for n in positions) else None,
    }


#: Tool results of every status, with or without images and files (among the text or after it),
#: text blocks and UI-only fields.
tool_messages = _tool_content().flatmap(
    lambda content: st.builds(
        ToolResultMessage,
        call_id=ids,
        tool_name=st.sampled_from(["read", "bash", "search"]),
        status=st.sampled_from(["success", "error", "aborted"]),
        output_json=st.none() | st.just({"temperature": 21, "unit": "C"}) | st.just([1, 2]),
        ui_extra=st.none() | st.just({"diff": "+1 -0"}),
        side_effects=st.none() | st.just(["todo_changed"]),
        task_metadata=st.none() | st.just({"duration_ms": 12}),
        **{name: st.just(value) for name, value in content.items()},  # pyright: ignore[reportArgumentType]
        **_common,
    )
)
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
