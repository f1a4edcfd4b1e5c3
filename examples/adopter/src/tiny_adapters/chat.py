"""Render a canonical history as a Chat Completions request, the way a small project might.

The parts map to Chat's own message shapes through the harness kit (``harness.kit.shapes``:
text, images, tool calls and tool results, each part it cannot carry named in a warning);
this module keeps only tiny's own decisions. One is deliberate, to show a declared known
failure in ``tests/test_conformance.py``: developer messages (harness-injected reminders) are
dropped, with a warning, instead of being sent as a user-visible reminder. The other two
keep the request valid (Hypothesis found both while this example was written): a tool result
whose call is not waiting for one is dropped, and a call left without a result gets one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from harness import CallParams, DeveloperMessage, HistoryEvent, Rendered, RenderWarning, ToolResultMessage
from harness.kit.shapes import chat_message

DEFAULT_MODEL = "gpt-4o-mini"


def _drop(warnings: list[RenderWarning], index: int, kind: str, why: str) -> None:
    warnings.append(RenderWarning(index, None, kind, "dropped", why))


def render(history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
    warnings: list[RenderWarning] = []
    messages: list[dict[str, Any]] = [{"role": "system", "content": params.system}] if params.system else []
    pending: list[str] = []  # calls of the last assistant turn still waiting for their result

    def close_turn() -> None:
        """Chat Completions refuses a call left without a result (HTTP 400): say it has none."""
        for call_id in pending:
            messages.append({"role": "tool", "tool_call_id": call_id, "content": "(no result recorded)"})
        pending.clear()

    for index, event in enumerate(history):
        if not isinstance(event, ToolResultMessage):
            close_turn()
        if isinstance(event, DeveloperMessage):
            _drop(warnings, index, "developer", "tiny does not send developer messages")
            continue
        if isinstance(event, ToolResultMessage):
            if event.call_id not in pending:
                _drop(warnings, index, "tool", "a result whose call is not waiting for one")
                continue
            pending.remove(event.call_id)
        converted, dropped = chat_message(event, index)
        warnings += dropped
        for message in converted:
            pending += [call["id"] for call in message.get("tool_calls", [])]
            if message["role"] == "tool" or message.get("content") or message.get("tool_calls"):
                messages.append(message)  # a user or assistant turn with nothing to say is no message
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
