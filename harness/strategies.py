"""Hypothesis strategies for the canonical model.

These generate any *valid* model object (every part, message and event), which is
what the codec round trip and never-crash checks need. Strategies that build
well-formed agent loops live beside them as the invariant work grows.
"""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import strategies as st

from harness.model import (
    AssistantMessage,
    DeveloperMessage,
    ErrorEvent,
    HistoryEvent,
    ImageFilePart,
    ImageURLPart,
    SystemMessage,
    TaskMetadataEvent,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    ToolResultMessage,
    Usage,
    UserMessage,
)

__all__ = [
    "assistant_messages",
    "content_parts",
    "histories",
    "history_events",
    "ids",
    "image_parts",
    "text",
    "usages",
]

SIGNATURE_FORMATS = (
    "anthropic",
    "anthropic-redacted",
    "openai-responses",
    "google",
    "anthropic-claude-v1",
    "openai-responses-v1",
    "google-gemini-v1",
)

#: Any text, including non-ASCII, empty and whitespace; shrinks towards "".
text = st.text(max_size=40)
ids = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_-.:", min_size=1, max_size=24)
optional_ids = st.none() | ids
model_ids = st.none() | st.sampled_from(["claude-sonnet-4-5", "gpt-5", "gemini-3-pro-preview", "o3"])
timestamps = st.none() | st.datetimes(
    min_value=datetime(2020, 1, 1), max_value=datetime(2030, 1, 1), timezones=st.just(UTC)
)
json_scalars = st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=10)


def _json_args() -> st.SearchStrategy[str]:
    import json

    objects = st.dictionaries(st.text(max_size=8), json_scalars, max_size=3)
    return objects.map(lambda d: json.dumps(d, sort_keys=True)) | st.sampled_from(
        ["", "{}", "{not json", "[1]"]
    )


text_parts = st.builds(TextPart, text=text)
image_url_parts = st.builds(
    ImageURLPart,
    url=st.sampled_from(
        [
            "https://example.com/cat.png",
            "data:image/png;base64,iVBORw0KGgo=",
            "data:image/jpeg;base64,/9j/4AAQ",
        ]
    ),
    id=optional_ids,
)
image_file_parts = st.builds(
    ImageFilePart,
    file_path=st.sampled_from(["/tmp/out.png", "images/plot.webp"]),
    mime_type=st.none() | st.sampled_from(["image/png", "image/webp"]),
    byte_size=st.none() | st.integers(0, 10_000),
    sha256=st.none() | st.just("0" * 64),
)
image_parts = image_url_parts | image_file_parts
content_parts = text_parts | image_parts
thinking_text_parts = st.builds(ThinkingTextPart, id=optional_ids, text=text, model_id=model_ids)
thinking_signature_parts = st.builds(
    ThinkingSignaturePart,
    id=optional_ids,
    signature=st.text(alphabet="ABCDEFabcdef0123456789+/=", max_size=32),
    model_id=model_ids,
    format=st.none() | st.sampled_from(SIGNATURE_FORMATS),
)
tool_call_parts = st.builds(
    ToolCallPart,
    call_id=ids,
    tool_name=st.sampled_from(["read", "bash", "search"]),
    arguments_json=_json_args(),
    item_id=optional_ids,
)
usages = st.builds(
    Usage,
    input_tokens=st.integers(0, 10**6),
    output_tokens=st.integers(0, 10**6),
    cached_input_tokens=st.none() | st.integers(0, 10**6),
    cache_creation_input_tokens=st.none() | st.integers(0, 10**6),
    reasoning_tokens=st.none() | st.integers(0, 10**6),
    total_tokens=st.none() | st.integers(0, 10**6),
)
assistant_parts = content_parts | thinking_text_parts | thinking_signature_parts | tool_call_parts

_common = {"id": optional_ids, "created_at": timestamps, "response_id": optional_ids}

system_messages = st.builds(SystemMessage, parts=st.lists(text_parts, max_size=2), **_common)
developer_messages = st.builds(
    DeveloperMessage,
    parts=st.lists(content_parts, max_size=3),
    command_output=st.none() | text,
    at_files=st.none() | st.lists(st.just("src/app.py"), max_size=2),
    ui_extra=st.none() | st.just({"kind": "reminder"}),
    **_common,
)
user_messages = st.builds(UserMessage, parts=st.lists(content_parts, max_size=3), **_common)
assistant_messages = st.builds(
    AssistantMessage,
    parts=st.lists(assistant_parts, max_size=5),
    usage=st.none() | usages,
    stop_reason=st.none() | st.sampled_from(["stop", "length", "tool_use", "error", "aborted"]),
    **_common,
)
tool_messages = st.builds(
    ToolResultMessage,
    call_id=ids,
    tool_name=st.sampled_from(["read", "bash", "search"]),
    status=st.sampled_from(["success", "error", "aborted"]),
    output_text=text,
    parts=st.lists(image_parts, max_size=2),
    ui_extra=st.none() | st.just({"diff": "+1 -0"}),
    side_effects=st.none() | st.just(["todo_changed"]),
    task_metadata=st.none() | st.just({"duration_ms": 12}),
    **_common,
)
error_events = st.builds(
    ErrorEvent,
    error_message=text,
    created_at=timestamps,
    response_id=optional_ids,
    can_retry=st.none() | st.booleans(),
)
task_metadata_events = st.builds(
    TaskMetadataEvent,
    created_at=timestamps,
    metadata=st.dictionaries(st.text(max_size=8), json_scalars, max_size=3),
)

history_events: st.SearchStrategy[HistoryEvent] = st.one_of(
    user_messages,
    assistant_messages,
    tool_messages,
    developer_messages,
    system_messages,
    error_events,
    task_metadata_events,
)
histories = st.lists(history_events, max_size=8)
