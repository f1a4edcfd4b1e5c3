"""Cohere v2 Chat request body -> canonical history and params.

The body of ``POST /v2/chat`` (the cohere SDK's ``RawV2Client.chat`` parameters): ``system``,
``user``, ``assistant`` (``content`` of ``text`` and ``thinking`` items, ``tool_plan``,
``tool_calls``) and ``tool`` messages; ``tools``, ``strict_tools``, ``tool_choice``
(``REQUIRED`` | ``NONE``), ``response_format``, ``thinking``, ``max_tokens``, ``temperature``,
``stream``. A ``tool_plan`` is the text the model wrote before its calls: a text part before them.
"""

from __future__ import annotations

from typing import Any

from harness.importer.common import Calls, Json, Ledger, arr, chat_texts, chat_user, obj, show, tool_spec
from harness.importer.controls import consumed, read_controls
from harness.model import (
    AnyPart,
    AssistantMessage,
    HistoryEvent,
    SystemMessage,
    TextPart,
    ThinkingTextPart,
    ToolResultMessage,
    UserMessage,
)
from harness.params import CallParams, OutputFormat, ThinkingParams, ToolChoice

__all__ = ["history", "params"]

KNOWN = {
    "model",
    "messages",
    "tools",
    "strict_tools",
    "tool_choice",
    "response_format",
    "thinking",
    "max_tokens",
    "temperature",
    "stream",
}
#: Values equal to the API default are represented by their absence.
DEFAULTS: Json = {"stream": False, "strict_tools": False}


def _assistant(message: Json, path: str, model: str | None, calls: Calls, ledger: Ledger) -> AssistantMessage:
    ledger.rest(message, path, {"role", "content", "tool_calls", "tool_plan"})
    parts: list[AnyPart] = []
    content = message.get("content")
    items = [{"type": "text", "text": content}] if isinstance(content, str) else list(map(obj, arr(content)))
    for i, item in enumerate(items):
        at = f"{path}.content[{i}]"
        if item.get("type") == "thinking":
            ledger.rest(item, at, {"type", "thinking"})
            parts.append(ThinkingTextPart(text=str(item.get("thinking", "")), model_id=model))
        elif item.get("type") == "text":
            ledger.rest(item, at, {"type", "text"})
            if item.get("text"):
                parts.append(TextPart(text=str(item["text"])))
        else:
            ledger.note(at, f"assistant content item {show(item.get('type'))} not representable")
    if isinstance(message.get("tool_plan"), str) and message["tool_plan"]:
        parts.append(TextPart(text=message["tool_plan"]))
    for c, raw_call in enumerate(map(obj, arr(message.get("tool_calls")))):
        at = f"{path}.tool_calls[{c}]"
        ledger.rest(raw_call, at, {"id", "type", "function"})
        function = obj(raw_call.get("function"))
        ledger.rest(function, f"{at}.function", {"name", "arguments"})
        parts.append(
            calls.call(
                str(raw_call.get("id", "")), str(function.get("name", "")), function.get("arguments", "")
            )
        )
    return AssistantMessage(parts=parts)


def history(body: Json, ledger: Ledger) -> list[HistoryEvent]:
    out: list[HistoryEvent] = []
    model = body.get("model") if isinstance(body.get("model"), str) else None
    calls = Calls()
    for m, raw in enumerate(ledger.items(body.get("messages"), "messages")):
        message, path = obj(raw), f"messages[{m}]"
        role, content = message.get("role"), message.get("content")
        if role == "system":
            ledger.rest(message, path, {"role", "content"})
            out.append(
                SystemMessage(
                    parts=[TextPart(text=t) for t in chat_texts(content, f"{path}.content", ledger, "item")]
                )
            )
        elif role == "user":
            ledger.rest(message, path, {"role", "content"})
            out.append(UserMessage(parts=chat_user(content, f"{path}.content", ledger, "item")))
        elif role == "assistant":
            out.append(_assistant(message, path, model, calls, ledger))
        elif role == "tool":
            ledger.rest(message, path, {"role", "content", "tool_call_id"})
            call_id = str(message.get("tool_call_id", ""))
            if isinstance(content, list) and len(arr(content)) > 1:
                ledger.note(
                    f"{path}.content",
                    "several text items joined into one output_text (boundaries not representable)",
                )
            out.append(
                ToolResultMessage(
                    call_id=call_id,
                    tool_name=calls.name(call_id),
                    status="success",
                    output_text="".join(chat_texts(content, f"{path}.content", ledger, "item")),
                )
            )
        else:
            ledger.note(path, f"message role {show(role)} not representable")
    return out


def _tool_choice(value: Any, ledger: Ledger) -> ToolChoice | None:
    if value is None:
        return None
    if value in ("REQUIRED", "NONE"):
        return "required" if value == "REQUIRED" else "none"
    ledger.note("tool_choice", f"not representable ({show(value)})")
    return None


def _output_format(value: Any, ledger: Ledger) -> OutputFormat | None:
    if value is None:
        return None
    fmt = obj(value)
    if fmt.get("type") == "text":
        ledger.rest(fmt, "response_format", {"type"})
        return None
    if fmt.get("type") == "json_object":
        ledger.rest(fmt, "response_format", {"type", "json_schema"})
        schema = fmt.get("json_schema")
        return OutputFormat(json_schema=obj(schema) if schema is not None else None)
    ledger.note("response_format", f"output format {show(fmt)} not representable")
    return None


def _thinking(value: Any, ledger: Ledger) -> ThinkingParams | None:
    if value is None:
        return None
    switch = obj(value)
    ledger.rest(switch, "thinking", {"type", "token_budget"})
    if switch.get("type") == "disabled":
        return ThinkingParams(enabled=False)
    budget = switch.get("token_budget")
    return ThinkingParams(budget_tokens=budget if isinstance(budget, int) else None)


def params(body: Json, ledger: Ledger) -> CallParams:
    ledger.rest(body, "", KNOWN | consumed("cohere"), DEFAULTS)
    strict = body.get("strict_tools") is True
    tools: list[Any] = []
    for i, raw in enumerate(map(obj, ledger.items(body.get("tools"), "tools"))):
        ledger.rest(raw, f"tools[{i}]", {"type", "function"})
        spec = tool_spec(obj(raw.get("function")), "parameters", f"tools[{i}].function", ledger, set())
        tools.append(spec.model_copy(update={"strict": True}) if strict else spec)
    return CallParams(
        model=body.get("model"),
        tools=tools or None,
        tool_choice=_tool_choice(body.get("tool_choice"), ledger),
        output_format=_output_format(body.get("response_format"), ledger),
        max_tokens=body.get("max_tokens"),
        thinking=_thinking(body.get("thinking"), ledger),
        temperature=body.get("temperature"),
        stream=bool(body.get("stream", False)),
        **read_controls(body, "cohere", ledger),
    )
