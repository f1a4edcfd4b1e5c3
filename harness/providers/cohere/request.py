"""Cohere v2 Chat input adapter (provider id ``cohere``): ``POST https://api.cohere.com/v2/chat``.

Maps a canonical history to the JSON body the ``cohere`` SDK's ``ClientV2.chat`` /
``chat_stream`` send (``cohere.v2.raw_client.RawV2Client``; https://docs.cohere.com/v2/reference/chat):

- ``messages``: ``system`` (string), ``user`` (a string, or ``text`` and ``image_url`` content),
  ``assistant`` (``content`` of ``text`` and ``thinking`` items, ``tool_calls`` in the OpenAI
  function shape, ``tool_plan``: the text the model wrote before calling tools, as the tool-use
  guide sends it back), ``tool`` (``tool_call_id`` and a string or ``text`` content);
- ``tools`` (``{"type": "function", "function": {name, description, parameters}}``),
  ``strict_tools``, ``tool_choice`` (``REQUIRED`` | ``NONE``), ``response_format``
  (``json_object`` with an optional ``json_schema``), ``thinking``, ``max_tokens``,
  ``temperature``, ``stream``.

The shared rules run first in ``harness.mapping.prepare``; model facts are ``profile.py``'s.
Decisions and warning codes: DECISIONS.md beside this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.contract.rendered import Rendered
from harness.contract.warning_codes import Code
from harness.mapping.cache import warn_by_profile
from harness.mapping.call_controls import apply_controls
from harness.mapping.chat_completions import (
    chat_shaped_messages,
    tool_call,
    tool_images,
    warn_thinking,
)
from harness.mapping.controls import tool_choice, warn_allowed_tools
from harness.mapping.files import warn_json_as_text, warn_order_lost
from harness.mapping.prepare import prepare
from harness.mapping.toolbox import thinking_text_problem, warn_signature_dropped
from harness.mapping.wire import Prepared, ProviderUnit, ThinkingUnit, Warnings, WireAssistant, WireToolResult
from harness.model import HistoryEvent, TextPart, ToolCallPart
from harness.params import CallParams, ForcedTool
from harness.providers.cohere.profile import CONTROLS, DEFAULT_MODEL, FILES, ID_POLICY, TOOL_NAMES, reasons

__all__ = ["ADAPTER", "PROVIDER_ID", "CohereAdapter"]

PROVIDER_ID = "cohere"

Json = dict[str, Any]


# ---------------------------------------------------------------- assistant


def _thinking(item: WireAssistant, unit: ThinkingUnit, model: str, warnings: Warnings) -> Json | None:
    """A ``{"type": "thinking", "thinking"}`` item: this model's (or an unnamed model's) thinking
    text, for a reasoning model. Cohere's thinking carries no signature: any signature is dropped."""
    warn_signature_dropped(warnings, item.index, unit, "Cohere thinking")
    if unit.text is None:
        return None
    if not reasons(model):
        warnings.add(
            item.index,
            unit.text_index,
            "thinking_text",
            Code.THINKING_UNSUPPORTED,
            f"{model} is not a Cohere reasoning model; thinking text dropped",
        )
        return None
    problem = thinking_text_problem(unit.text, model)
    if problem is not None:
        warnings.add(
            item.index, unit.text_index, "thinking_text", Code.THINKING_MODEL_MISMATCH, f"{problem}; dropped"
        )
        return None
    return {"type": "thinking", "thinking": unit.text.text}


def _assistant(item: WireAssistant, model: str, warnings: Warnings) -> Json | None:
    """``AssistantChatMessageV2``: ``content`` items in order, ``tool_calls``; with tool calls the
    turn's text goes in ``tool_plan`` (docs: tool use, "messages.append({'role': 'assistant',
    'tool_plan': ..., 'tool_calls': ...})")."""
    content: list[Json] = []
    texts: list[str] = []
    calls: list[Json] = []
    sent: list[ThinkingUnit] = []
    for unit in item.units:
        if isinstance(unit, ThinkingUnit):
            entry = _thinking(item, unit, model, warnings)
            if entry is not None:
                content.append(entry)
                sent.append(ThinkingUnit(unit.text, unit.text_index, None, None))
        elif isinstance(unit, ProviderUnit):
            continue  # prepare keeps none for Cohere (harness.mapping.provider_parts)
        elif isinstance(unit.part, TextPart):
            texts.append(unit.part.text)
            content.append({"type": "text", "text": unit.part.text})
        elif isinstance(unit.part, ToolCallPart):
            calls.append(tool_call(unit.part, item.call_ids))
        else:
            warnings.add(
                item.index,
                unit.index,
                unit.part.type,
                Code.ASSISTANT_IMAGE_DROPPED,
                "Cohere assistant messages take text and thinking only; image dropped",
            )
    if not texts and not calls:
        warn_thinking(
            item.index, sent, warnings, Code.EMPTY_MESSAGE, "the turn has no text or tool call left"
        )
        warnings.add(
            item.index,
            None,
            None,
            Code.EMPTY_MESSAGE,
            "assistant message has no text or tool call left; dropped",
        )
        return None
    message: Json = {"role": "assistant"}
    _layout(message, content, texts, calls)
    return message


# ---------------------------------------------------------------- tool results


def _tool(item: WireToolResult, warnings: Warnings) -> Json:
    """``ToolChatMessageV2``: the output text (plus appended developer text as further ``text`` items).
    Cohere has no error flag on a tool result: the status is carried by the text only."""
    if item.is_error and not item.synthesized:
        warnings.add(
            item.index,
            None,
            None,
            Code.TOOL_STATUS_NOT_SENT,
            f"Cohere tool messages have no error flag; status '{item.status}' is only visible through the output text",
        )
    if item.output_json is not None:
        warn_json_as_text(warnings, item.index, "Cohere")
    warn_order_lost(warnings, item, "Cohere")
    parts: list[Json] = [{"type": "text", "text": item.output_text}] if item.output_text else []
    parts.extend(
        {"type": "text", "text": ci.part.text} for ci in item.appended if isinstance(ci.part, TextPart)
    )
    content: str | list[Json] = item.output_text
    if len(parts) > 1 or (parts and not item.output_text):
        content = parts
    return {"role": "tool", "tool_call_id": item.call_id, "content": content}


def _tool_images(item: WireToolResult, warnings: Warnings) -> list[Json]:
    """``ToolContent`` is text or document only: a result's images go in a user message after the results."""
    return tool_images(
        item,
        warnings,
        "Cohere tool messages take text or documents only; image sent in a user message after the tool results",
    )


# ---------------------------------------------------------------- messages


def _messages(prepared: Prepared, model: str) -> list[Json]:
    """Chat's message layout with Cohere's own assistant and tool messages."""
    return chat_shaped_messages(
        prepared,
        lambda item, warnings: _assistant(item, model, warnings),
        _tool,
        _tool_images,
        _merge,
    )


def _merge(into: Json, piece: Json) -> None:
    """A further piece of the same response joins its assistant message (one message holds every
    ``tool_calls`` entry its tool messages answer); the joined turn is laid out as ``_assistant``
    lays out one: with tool calls, its text is the ``tool_plan``."""
    texts: list[str] = []
    thinking: list[Json] = []
    items: list[Json] = []
    calls: list[Json] = []
    for message in (into, piece):
        content = message.get("content")
        for item in [{"type": "text", "text": content}] if isinstance(content, str) else content or []:
            items.append(item)
            if item["type"] == "text":
                texts.append(item["text"])
            else:
                thinking.append(item)
        if message.get("tool_plan"):
            texts.append(message["tool_plan"])
            items.append({"type": "text", "text": message["tool_plan"]})
        calls.extend(message.get("tool_calls") or [])
    into.clear()
    into["role"] = "assistant"
    _layout(into, items, texts, calls)


def _layout(message: Json, content: list[Json], texts: list[str], calls: list[Json]) -> None:
    """``content``, ``tool_plan`` and ``tool_calls`` of an assistant message (see ``_assistant``)."""
    if calls:
        message["tool_calls"] = calls
        if texts:
            message["tool_plan"] = "".join(texts)
        content = [e for e in content if e["type"] == "thinking"]
    if content:
        only_text = all(e["type"] == "text" for e in content)
        message["content"] = "".join(texts) if only_text else content


# ---------------------------------------------------------------- request level


def _tools(prepared: Prepared, body: Json) -> None:
    """``tools`` as ``ToolV2``; ``strict_tools`` (one switch for every tool) when every tool is strict."""
    if not prepared.tools:
        return
    tools: list[Json] = []
    for spec in prepared.tools:
        function: Json = {"name": spec.name}
        if spec.description:
            function["description"] = spec.description
        function["parameters"] = spec.parameters
        tools.append({"type": "function", "function": function})
    body["tools"] = tools
    flags = [spec.strict for spec in prepared.tools]
    if all(flag is True for flag in flags):
        body["strict_tools"] = True
    elif any(flag is True for flag in flags):
        prepared.warnings.add(
            None,
            None,
            None,
            Code.TOOL_STRICT_NOT_SENT,
            "Cohere's strict_tools covers every tool and only some are strict; not sent",
        )


def _choice(prepared: Prepared, params: CallParams, body: Json) -> None:
    """``tool_choice``: ``REQUIRED`` or ``NONE`` (auto is the default, omitted; recorded 200s:
    test_tool_choice_matrix[required-cohere], [none-cohere]). Cohere names no single tool: a
    forced tool is sent as ``REQUIRED`` (``tool-choice-widened``)."""
    choice = tool_choice(params, prepared)
    if choice is None:
        return
    if isinstance(choice, ForcedTool):
        if len(prepared.tools) > 1:
            prepared.warnings.add(
                None,
                None,
                None,
                Code.TOOL_CHOICE_WIDENED,
                f"Cohere's tool_choice names no tool; forcing '{choice.name}' sent as REQUIRED",
            )
        body["tool_choice"] = "REQUIRED"
    else:
        body["tool_choice"] = "REQUIRED" if choice == "required" else "NONE"


def _output_format(prepared: Prepared, params: CallParams, body: Json) -> None:
    """``response_format``: ``json_object`` with the schema as ``json_schema``. The SDK's reference:
    "The parameter is not supported when used in combinations with the documents or tools
    parameters", so with tools it is not sent."""
    fmt = params.output_format
    if fmt is None:
        return
    if "tools" in body:
        prepared.warnings.add(
            None,
            None,
            None,
            Code.OUTPUT_FORMAT_NOT_SENT,
            "Cohere takes no response_format together with tools; not sent",
        )
        return
    out: Json = {"type": "json_object"}
    if fmt.json_schema is not None:
        out["json_schema"] = fmt.json_schema
    body["response_format"] = out


def _thinking_param(params: CallParams, model: str, warnings: Warnings, body: Json) -> None:
    """``thinking: {"type": "enabled"|"disabled", "token_budget"?}`` for a reasoning model
    (docs/reasoning); Cohere has no effort levels."""
    thinking = params.thinking
    if thinking is None:
        return
    if not reasons(model):
        if thinking.enabled:
            warnings.add(
                None,
                None,
                None,
                Code.THINKING_UNSUPPORTED,
                f"{model} is not a Cohere reasoning model; not sent",
            )
        return
    out: Json = {"type": "enabled" if thinking.enabled else "disabled"}
    if thinking.enabled and thinking.budget_tokens:
        out["token_budget"] = thinking.budget_tokens
    if thinking.enabled and thinking.effort is not None:
        warnings.add(
            None,
            None,
            None,
            Code.THINKING_EFFORT_IGNORED,
            "Cohere's thinking has a token budget, no effort levels; effort not sent",
        )
    body["thinking"] = out


class CohereAdapter:
    """history + params -> Cohere v2 Chat request body; see the module docstring."""

    provider = PROVIDER_ID

    def render(self, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        prepared = prepare(history, params, PROVIDER_ID, ID_POLICY, TOOL_NAMES, files=FILES)
        warnings = prepared.warnings
        model = params.model or DEFAULT_MODEL
        body: Json = {"model": model, "messages": _messages(prepared, model)}
        _tools(prepared, body)
        _choice(prepared, params, body)
        warn_allowed_tools(params, prepared, "Cohere")
        _output_format(prepared, params, body)
        _thinking_param(params, model, warnings, body)
        if params.max_tokens is not None:
            body["max_tokens"] = params.max_tokens
        if params.temperature is not None:
            body["temperature"] = params.temperature
        if params.stream:
            body["stream"] = True
        apply_controls(body, params, CONTROLS, warnings)
        warn_by_profile(history, params, warnings, CONTROLS)
        return Rendered(body, list(warnings))


ADAPTER = CohereAdapter()
