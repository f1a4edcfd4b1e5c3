"""Render a canonical history as a Chat Completions request, the way a small project might.

Text, images by URL, tool calls and tool results map one to one. What it does not carry
is said in a warning. One simplification is deliberate, to show a declared known failure
in ``tests/test_conformance.py``: developer messages (harness-injected reminders) are
dropped, with a warning, instead of being sent as a user-visible reminder.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from harness import (
    AssistantMessage,
    CallParams,
    DeveloperMessage,
    HistoryEvent,
    ImageURLPart,
    Rendered,
    RenderWarning,
    SystemMessage,
    TextPart,
    ToolCallPart,
    ToolResultMessage,
    UserMessage,
)

DEFAULT_MODEL = "gpt-4o-mini"


def _drop(warnings: list[RenderWarning], index: int, part: int | None, kind: str, why: str) -> None:
    warnings.append(RenderWarning(index, part, kind, "dropped", why))


def _content(parts: Sequence[object], index: int, warnings: list[RenderWarning]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n, part in enumerate(parts):
        if isinstance(part, TextPart):
            if part.text.strip():
                out.append({"type": "text", "text": part.text})
        elif isinstance(part, ImageURLPart):
            out.append({"type": "image_url", "image_url": {"url": part.url}})
        else:
            _drop(warnings, index, n, getattr(part, "type", None) or "part", "not supported by tiny")
    return out


def render(history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
    warnings: list[RenderWarning] = []
    messages: list[dict[str, Any]] = []
    pending: list[str] = []  # calls of the last assistant turn still waiting for their result

    def close_turn() -> None:
        """Chat Completions refuses a call left without a result (HTTP 400): say it has none."""
        for call_id in pending:
            messages.append({"role": "tool", "tool_call_id": call_id, "content": "(no result recorded)"})
        pending.clear()

    if params.system:
        messages.append({"role": "system", "content": params.system})
    for index, event in enumerate(history):
        if not isinstance(event, ToolResultMessage):
            close_turn()
        if isinstance(event, SystemMessage):
            messages.append({"role": "system", "content": "\n".join(p.text for p in event.parts)})
        elif isinstance(event, UserMessage):
            content = _content(event.parts, index, warnings)
            if content:
                messages.append({"role": "user", "content": content})
        elif isinstance(event, DeveloperMessage):
            _drop(warnings, index, None, "developer", "tiny does not send developer messages")
        elif isinstance(event, AssistantMessage):
            text = "".join(p.text for p in event.parts if isinstance(p, TextPart))
            calls: list[dict[str, Any]] = [
                {
                    "id": p.call_id,
                    "type": "function",
                    "function": {"name": p.tool_name, "arguments": p.arguments_json or "{}"},
                }
                for p in event.parts
                if isinstance(p, ToolCallPart)
            ]
            for n, part in enumerate(event.parts):
                if not isinstance(part, TextPart | ToolCallPart):
                    _drop(warnings, index, n, part.type, "not supported by tiny")
            message: dict[str, Any] = {"role": "assistant", "content": text or None}
            if calls:
                message["tool_calls"] = calls
                pending.extend(str(c["id"]) for c in calls)
            if text or calls:
                messages.append(message)
        elif isinstance(event, ToolResultMessage):
            if event.call_id not in pending:
                _drop(warnings, index, None, "tool", "a result whose call is not waiting for one")
                continue
            pending.remove(event.call_id)
            messages.append({"role": "tool", "tool_call_id": event.call_id, "content": event.output_text})
        else:
            _drop(warnings, index, None, getattr(event, "type", "event"), "not part of a request")
    close_turn()
    body: dict[str, Any] = {"model": params.model or DEFAULT_MODEL, "messages": messages, "stream": True}
    if params.max_tokens is not None:
        body["max_completion_tokens"] = params.max_tokens
    if params.tools:
        body["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": t.name,
                    **({"description": t.description} if t.description else {}),
                    "parameters": t.parameters or {"type": "object", "properties": {}},
                },
            }
            for t in params.tools
        ]
    json.dumps(body)  # a body that cannot be sent is a bug here, not at the provider
    return Rendered(body, warnings)
