"""Canonical parts <-> the message shapes libraries build on: the providers' own SDK types, as JSON.

Most libraries under audit do not invent a message format: litellm takes OpenAI Chat
messages for every provider; LangChain's integrations keep each provider's own content
blocks (Anthropic ``MessageParam`` content, Responses output items, Gemini parts); others
take ``anthropic.types.MessageParam`` or ``google.genai.types.Content`` directly. These
converters do the canonical half once, so a bridge maps only its library's own wrapper types:

- input side: ``chat_messages``, ``responses_input``, ``anthropic_messages`` and
  ``gemini_contents`` convert a whole history (plus the system prompt); ``chat_message`` one
  event (for a bridge that decides per event what to send); ``chat_assistant``,
  ``responses_items``, ``anthropic_content`` and ``gemini_parts`` one assistant message
  (for libraries that keep each message in the shape of the provider that produced it);
- output side: ``parts_from_chat``, ``parts_from_responses``, ``parts_from_anthropic`` and
  ``parts_from_gemini`` read what the SDK (or the library, in the SDK's shape) returned.

They are faithful, not repairing: every part goes where the shape puts it and nothing is
merged, reordered, added or made valid for a provider (that is the code under audit's job,
and what the audit judges). A part the shape cannot hold is left out with a
``RenderWarning`` (code ``unmappable-part``) naming its message and part, never silently.
Thinking keeps its signature only in the shape whose format it is (``anthropic`` in
Anthropic blocks, ``openai-responses`` as ``encrypted_content``, ``google`` as
``thought_signature``); elsewhere it is thinking without a signature, as a library holding
another provider's reasoning would have it. Image files are read into base64 (an unreadable
file is NotImplementedError: the shapes take bytes or URLs, never a path).
"""

from __future__ import annotations

import base64
import json
import mimetypes
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from harness.contract.rendered import RenderWarning
from harness.model import (
    AnyPart,
    AssistantMessage,
    DeveloperMessage,
    HistoryEvent,
    ImageFilePart,
    ImageURLPart,
    SystemMessage,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    ToolResultMessage,
    UserMessage,
)

__all__ = [
    "Converted",
    "anthropic_content",
    "anthropic_messages",
    "chat_assistant",
    "chat_message",
    "chat_messages",
    "gemini_contents",
    "gemini_parts",
    "image_data",
    "parts_from_anthropic",
    "parts_from_chat",
    "parts_from_gemini",
    "parts_from_responses",
    "responses_input",
    "responses_items",
]

_Json = dict[str, Any]


@dataclass
class Converted:
    """A converted history: the system prompt (None when there is none), the messages, the warnings."""

    system: str | None
    messages: list[_Json]
    warnings: list[RenderWarning] = field(default_factory=lambda: [])


def _dicts(value: Any) -> list[_Json]:
    """The JSON objects of a list read from outside (anything else in it, or a non-list, is ignored)."""
    items: list[Any] = cast(list[Any], value) if isinstance(value, list) else []
    return [cast(_Json, item) for item in items if isinstance(item, dict)]


def _unmappable(index: int, pidx: int, part: AnyPart, shape: str) -> RenderWarning:
    return RenderWarning(
        index, pidx, part.type, "unmappable-part", f"{shape} has no place for a {part.type} part"
    )


def image_data(part: ImageURLPart | ImageFilePart) -> tuple[str | None, str | None, str | None]:
    """``(url, mime_type, base64)``: a remote URL as is; a ``data:`` URL or a file as its mime type and base64."""
    if isinstance(part, ImageURLPart):
        if not part.url.startswith("data:"):
            return part.url, None, None
        head, _, data = part.url.partition(",")
        return None, head.removeprefix("data:").split(";")[0] or None, data
    path = Path(part.file_path)
    if not path.is_file():
        raise NotImplementedError(f"image file {part.file_path} is not readable here (the shapes take bytes)")
    mime = part.mime_type or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return None, mime, base64.b64encode(path.read_bytes()).decode("ascii")


def _data_url(part: ImageURLPart | ImageFilePart) -> str:
    url, mime, data = image_data(part)
    return url if url is not None else f"data:{mime};base64,{data}"


def _units(
    message: AssistantMessage, index: int, own: str, shape: str, warnings: list[RenderWarning]
) -> list[tuple[int, AnyPart, ThinkingSignaturePart | None]]:
    """Each part with the signature that belongs to it: a thinking text and the signature after it are one
    unit; a ``google`` signature belongs to the part before it; a lone signature is a unit of its own.

    A paired signature of another format than ``own`` (the shape's) is left out, with a warning.
    """
    out: list[tuple[int, AnyPart, ThinkingSignaturePart | None]] = []
    for pidx, part in enumerate(message.parts):
        if isinstance(part, ThinkingSignaturePart) and out and out[-1][2] is None:
            prev = out[-1][1]
            if isinstance(prev, ThinkingTextPart) or part.format == "google":
                if part.format != own:
                    warnings.append(_unmappable(index, pidx, part, f"{shape} (a {part.format} signature)"))
                    out[-1] = (out[-1][0], prev, None)
                else:
                    out[-1] = (out[-1][0], prev, part)
                continue
        out.append((pidx, part, None))
    return out


def _text(parts: Sequence[AnyPart]) -> str:
    return "".join(p.text for p in parts if isinstance(p, TextPart))


def _arguments(call: ToolCallPart) -> Any:
    try:
        return json.loads(call.arguments_json)
    except json.JSONDecodeError:
        return call.arguments_json


# ---------------------------------------------------------------- OpenAI Chat Completions


def _chat_content(index: int, parts: Sequence[AnyPart], warnings: list[RenderWarning]) -> str | list[_Json]:
    if all(isinstance(p, TextPart) for p in parts) and len(parts) == 1:
        return _text(parts)
    content: list[_Json] = []
    for pidx, part in enumerate(parts):
        if isinstance(part, TextPart):
            content.append({"type": "text", "text": part.text})
        elif isinstance(part, ImageURLPart | ImageFilePart):
            content.append({"type": "image_url", "image_url": {"url": _data_url(part)}})
        else:
            warnings.append(_unmappable(index, pidx, part, "OpenAI Chat"))
    return content


def chat_assistant(message: AssistantMessage, index: int = 0) -> tuple[_Json, list[RenderWarning]]:
    """One assistant message as a ``ChatCompletionAssistantMessageParam`` (thinking has no place there)."""
    warnings: list[RenderWarning] = []
    out: _Json = {"role": "assistant", "content": _text(message.parts) or None}
    calls = [p for p in message.parts if isinstance(p, ToolCallPart)]
    if calls:
        out["tool_calls"] = [
            {
                "id": c.call_id,
                "type": "function",
                "function": {"name": c.tool_name, "arguments": c.arguments_json},
            }
            for c in calls
        ]
    for pidx, part in enumerate(message.parts):
        if not isinstance(part, TextPart | ToolCallPart):
            warnings.append(_unmappable(index, pidx, part, "an OpenAI Chat assistant message"))
    return out, warnings


def chat_message(event: HistoryEvent, index: int = 0) -> tuple[list[_Json], list[RenderWarning]]:
    """One history event as ``ChatCompletionMessageParam``s (none for an error or task-metadata event)."""
    warnings: list[RenderWarning] = []
    if isinstance(event, SystemMessage | UserMessage | DeveloperMessage):
        return [{"role": event.role, "content": _chat_content(index, event.parts, warnings)}], warnings
    if isinstance(event, AssistantMessage):
        message, warnings = chat_assistant(event, index)
        return [message], warnings
    if isinstance(event, ToolResultMessage):
        content = _chat_content(index, [TextPart(text=event.output_text), *event.parts], warnings)
        return [{"role": "tool", "tool_call_id": event.call_id, "content": content}], warnings
    return [], warnings


def chat_messages(history: Sequence[HistoryEvent], system: str | None = None) -> Converted:
    """The history as ``ChatCompletionMessageParam``s (the system prompt first, as a ``system`` message)."""
    out = Converted(system, [{"role": "system", "content": system}] if system else [])
    for index, event in enumerate(history):
        messages, warnings = chat_message(event, index)
        out.messages += messages
        out.warnings += warnings
    return out


def parts_from_chat(message: _Json) -> list[AnyPart]:
    """A ``ChatCompletionMessage`` (as JSON): DeepSeek-style ``reasoning_content``, text, then tool calls."""
    parts: list[AnyPart] = []
    reasoning = message.get("reasoning_content") or message.get("reasoning")
    if isinstance(reasoning, str) and reasoning:
        parts.append(ThinkingTextPart(text=reasoning))
    content = message.get("content")
    if isinstance(content, str) and content:
        parts.append(TextPart(text=content))
    else:
        parts += [TextPart(text=str(b.get("text", ""))) for b in _dicts(content) if b.get("type") == "text"]
    for call in _dicts(message.get("tool_calls")):
        function: _Json = call.get("function") or {}
        arguments = function.get("arguments")
        parts.append(
            ToolCallPart(
                call_id=str(call.get("id") or ""),
                tool_name=str(function.get("name") or ""),
                arguments_json=arguments if isinstance(arguments, str) else json.dumps(arguments or {}),
            )
        )
    return parts


# ---------------------------------------------------------------- OpenAI Responses


def _responses_content(index: int, parts: Sequence[AnyPart], warnings: list[RenderWarning]) -> list[_Json]:
    content: list[_Json] = []
    for pidx, part in enumerate(parts):
        if isinstance(part, TextPart):
            content.append({"type": "input_text", "text": part.text})
        elif isinstance(part, ImageURLPart | ImageFilePart):
            content.append({"type": "input_image", "image_url": _data_url(part)})
        else:
            warnings.append(_unmappable(index, pidx, part, "a Responses input message"))
    return content


def responses_items(message: AssistantMessage, index: int = 0) -> tuple[list[_Json], list[RenderWarning]]:
    """One assistant message as Responses output items (``reasoning``, ``message``, ``function_call``).

    Summaries of one reasoning item (same ``rs_`` id) are one item; its ``encrypted_content``
    is the ``openai-responses`` signature. Ids are copied where the message has them, never minted.
    """
    items: list[_Json] = []
    warnings: list[RenderWarning] = []
    for pidx, part, signature in _units(message, index, "openai-responses", "Responses", warnings):
        if isinstance(part, ThinkingSignaturePart) and part.format != "openai-responses":
            warnings.append(_unmappable(index, pidx, part, f"Responses (a {part.format} signature)"))
        elif isinstance(part, ThinkingTextPart | ThinkingSignaturePart):
            item_id = part.id or (signature.id if signature else None)
            last: _Json | None = items[-1] if items else None
            if last is None or last["type"] != "reasoning" or last.get("id") != item_id or item_id is None:
                last = {"type": "reasoning", "summary": []}
                if item_id:
                    last["id"] = item_id
                items.append(last)
            if isinstance(part, ThinkingTextPart):
                cast(list[_Json], last["summary"]).append({"type": "summary_text", "text": part.text})
            sig = part if isinstance(part, ThinkingSignaturePart) else signature
            if sig is not None:
                last["encrypted_content"] = sig.signature
        elif isinstance(part, TextPart):
            items.append(
                {
                    "type": "message",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": part.text, "annotations": list[_Json]()}],
                }
                | ({"id": part.item_id} if part.item_id else {})
            )
        elif isinstance(part, ToolCallPart):
            items.append(
                {
                    "type": "function_call",
                    "call_id": part.call_id,
                    "name": part.tool_name,
                    "arguments": part.arguments_json,
                }
                | ({"id": part.item_id} if part.item_id else {})
            )
        else:
            warnings.append(_unmappable(index, pidx, part, "Responses output items"))
    return items, warnings


def responses_input(history: Sequence[HistoryEvent], system: str | None = None) -> Converted:
    """The history as Responses ``input`` items (the system prompt is ``instructions``: ``Converted.system``)."""
    out = Converted(system, [])
    for index, event in enumerate(history):
        if isinstance(event, SystemMessage | UserMessage | DeveloperMessage):
            content = _responses_content(index, event.parts, out.warnings)
            out.messages.append({"type": "message", "role": event.role, "content": content})
        elif isinstance(event, AssistantMessage):
            items, warnings = responses_items(event, index)
            out.messages += items
            out.warnings += warnings
        elif isinstance(event, ToolResultMessage):
            output: Any = event.output_text
            if event.parts:
                output = [
                    {"type": "input_text", "text": event.output_text},
                    *_responses_content(index, event.parts, out.warnings),
                ]
            out.messages.append({"type": "function_call_output", "call_id": event.call_id, "output": output})
    return out


def parts_from_responses(items: Sequence[_Json]) -> list[AnyPart]:
    """Responses output items: reasoning summaries and ``encrypted_content``, output text, function calls."""
    parts: list[AnyPart] = []
    for item in items:
        kind, item_id = item.get("type"), item.get("id")
        if kind == "reasoning":
            parts += [
                ThinkingTextPart(id=item_id, text=str(s.get("text", ""))) for s in _dicts(item.get("summary"))
            ]
            if item.get("encrypted_content"):
                parts.append(
                    ThinkingSignaturePart(
                        id=item_id, signature=str(item["encrypted_content"]), format="openai-responses"
                    )
                )
        elif kind == "message":
            text = "".join(
                str(c.get("text", "")) for c in _dicts(item.get("content")) if c.get("type") == "output_text"
            )
            if text:
                parts.append(TextPart(text=text, item_id=item_id))
        elif kind == "function_call":
            parts.append(
                ToolCallPart(
                    call_id=str(item.get("call_id") or ""),
                    tool_name=str(item.get("name") or ""),
                    arguments_json=str(item.get("arguments") or ""),
                    item_id=item_id,
                )
            )
    return parts


# ---------------------------------------------------------------- Anthropic Messages


def _anthropic_image(part: ImageURLPart | ImageFilePart) -> _Json:
    url, mime, data = image_data(part)
    if url is not None:
        return {"type": "image", "source": {"type": "url", "url": url}}
    return {"type": "image", "source": {"type": "base64", "media_type": mime, "data": data}}


def _anthropic_user(index: int, parts: Sequence[AnyPart], warnings: list[RenderWarning]) -> list[_Json]:
    blocks: list[_Json] = []
    for pidx, part in enumerate(parts):
        if isinstance(part, TextPart):
            blocks.append({"type": "text", "text": part.text})
        elif isinstance(part, ImageURLPart | ImageFilePart):
            blocks.append(_anthropic_image(part))
        else:
            warnings.append(_unmappable(index, pidx, part, "Anthropic user content"))
    return blocks


def anthropic_content(message: AssistantMessage, index: int = 0) -> tuple[list[_Json], list[RenderWarning]]:
    """One assistant message as Anthropic content blocks (``thinking`` keeps an ``anthropic`` signature;
    an ``anthropic-redacted`` one is ``redacted_thinking``)."""
    blocks: list[_Json] = []
    warnings: list[RenderWarning] = []
    for pidx, part, signature in _units(message, index, "anthropic", "Anthropic content", warnings):
        if isinstance(part, ThinkingSignaturePart) and part.format == "anthropic-redacted":
            blocks.append({"type": "redacted_thinking", "data": part.signature})
        elif isinstance(part, ThinkingTextPart):
            block: _Json = {"type": "thinking", "thinking": part.text}
            if signature is not None:
                block["signature"] = signature.signature
            blocks.append(block)
        elif isinstance(part, TextPart):
            blocks.append({"type": "text", "text": part.text})
        elif isinstance(part, ToolCallPart):
            blocks.append(
                {"type": "tool_use", "id": part.call_id, "name": part.tool_name, "input": _arguments(part)}
            )
        elif isinstance(part, ImageURLPart | ImageFilePart):
            blocks.append(_anthropic_image(part))
        else:
            warnings.append(_unmappable(index, pidx, part, "Anthropic assistant content"))
    return blocks, warnings


def anthropic_messages(history: Sequence[HistoryEvent], system: str | None = None) -> Converted:
    """The history as ``MessageParam``s; system messages join ``Converted.system`` (Anthropic's top-level field)."""
    out = Converted(system, [])
    for index, event in enumerate(history):
        if isinstance(event, SystemMessage):
            out.system = "\n".join(s for s in (out.system, _text(event.parts)) if s)
        elif isinstance(event, UserMessage | DeveloperMessage):
            out.messages.append(
                {"role": "user", "content": _anthropic_user(index, event.parts, out.warnings)}
            )
        elif isinstance(event, AssistantMessage):
            blocks, warnings = anthropic_content(event, index)
            out.messages.append({"role": "assistant", "content": blocks})
            out.warnings += warnings
        elif isinstance(event, ToolResultMessage):
            content = [
                {"type": "text", "text": event.output_text},
                *_anthropic_user(index, event.parts, out.warnings),
            ]
            result: _Json = {"type": "tool_result", "tool_use_id": event.call_id, "content": content}
            if event.status != "success":
                result["is_error"] = True
            out.messages.append({"role": "user", "content": [result]})
    return out


def parts_from_anthropic(blocks: Sequence[_Json]) -> list[AnyPart]:
    """Anthropic content blocks (``Message.content`` as JSON): thinking, redacted thinking, text, tool use."""
    parts: list[AnyPart] = []
    for block in blocks:
        kind = block.get("type")
        if kind == "thinking":
            parts.append(ThinkingTextPart(text=str(block.get("thinking", ""))))
            if block.get("signature"):
                parts.append(ThinkingSignaturePart(signature=str(block["signature"]), format="anthropic"))
        elif kind == "redacted_thinking":
            parts.append(
                ThinkingSignaturePart(signature=str(block.get("data", "")), format="anthropic-redacted")
            )
        elif kind == "text" and block.get("text"):
            parts.append(TextPart(text=str(block["text"])))
        elif kind == "tool_use":
            raw = block.get("input")
            parts.append(
                ToolCallPart(
                    call_id=str(block.get("id", "")),
                    tool_name=str(block.get("name", "")),
                    arguments_json=raw
                    if isinstance(raw, str)
                    else json.dumps(raw if raw is not None else {}),
                )
            )
    return parts


# ---------------------------------------------------------------- Gemini (google-genai Content)


def _gemini_image(part: ImageURLPart | ImageFilePart) -> _Json:
    url, mime, data = image_data(part)
    if url is not None:
        return {"file_data": {"file_uri": url, "mime_type": mimetypes.guess_type(url)[0] or "image/jpeg"}}
    return {"inline_data": {"mime_type": mime, "data": data}}


def _gemini_user(index: int, parts: Sequence[AnyPart], warnings: list[RenderWarning]) -> list[_Json]:
    out: list[_Json] = []
    for pidx, part in enumerate(parts):
        if isinstance(part, TextPart):
            out.append({"text": part.text})
        elif isinstance(part, ImageURLPart | ImageFilePart):
            out.append(_gemini_image(part))
        else:
            warnings.append(_unmappable(index, pidx, part, "Gemini user parts"))
    return out


def gemini_parts(message: AssistantMessage, index: int = 0) -> tuple[list[_Json], list[RenderWarning]]:
    """One assistant message as Gemini ``Part``s (a ``google`` signature rides on its part as ``thought_signature``)."""
    out: list[_Json] = []
    warnings: list[RenderWarning] = []
    for pidx, part, signature in _units(message, index, "google", "Gemini parts", warnings):
        if isinstance(part, ThinkingTextPart):
            item: _Json = {"text": part.text, "thought": True}
        elif isinstance(part, TextPart):
            item = {"text": part.text}
        elif isinstance(part, ToolCallPart):
            args = _arguments(part)
            item = {
                "function_call": {
                    "name": part.tool_name,
                    "args": args if isinstance(args, dict) else {},
                    "id": part.call_id,
                }
            }
        elif isinstance(part, ImageURLPart | ImageFilePart):
            item = _gemini_image(part)
        elif isinstance(part, ThinkingSignaturePart) and part.format == "google":  # no part before it
            item = {"text": "", "thought_signature": part.signature}
        else:
            warnings.append(_unmappable(index, pidx, part, "Gemini model parts"))
            continue
        if signature is not None:
            item["thought_signature"] = signature.signature
        out.append(item)
    return out, warnings


def gemini_contents(history: Sequence[HistoryEvent], system: str | None = None) -> Converted:
    """The history as google-genai ``Content`` dicts (roles ``user``/``model``; system messages join
    ``Converted.system``, Gemini's ``system_instruction``; a tool result is a ``function_response``)."""
    out = Converted(system, [])
    for index, event in enumerate(history):
        if isinstance(event, SystemMessage):
            out.system = "\n".join(s for s in (out.system, _text(event.parts)) if s)
        elif isinstance(event, UserMessage | DeveloperMessage):
            out.messages.append({"role": "user", "parts": _gemini_user(index, event.parts, out.warnings)})
        elif isinstance(event, AssistantMessage):
            parts, warnings = gemini_parts(event, index)
            out.messages.append({"role": "model", "parts": parts})
            out.warnings += warnings
        elif isinstance(event, ToolResultMessage):
            response = {
                "name": event.tool_name,
                "response": {"output": event.output_text},
                "id": event.call_id,
            }
            parts = [{"function_response": response}, *_gemini_user(index, event.parts, out.warnings)]
            out.messages.append({"role": "user", "parts": parts})
    return out


def parts_from_gemini(parts: Sequence[_Json]) -> list[AnyPart]:
    """Gemini ``Part``s (snake_case or camelCase JSON): thoughts, text, function calls, each signature after its part."""
    out: list[AnyPart] = []
    for part in parts:
        call = part.get("function_call") or part.get("functionCall")
        text = part.get("text")
        if call:
            out.append(
                ToolCallPart(
                    call_id=str(call.get("id") or ""),
                    tool_name=str(call.get("name") or ""),
                    arguments_json=json.dumps(call.get("args") or {}),
                )
            )
        elif isinstance(text, str) and text:
            out.append(ThinkingTextPart(text=text) if part.get("thought") else TextPart(text=text))
        signature = part.get("thought_signature") or part.get("thoughtSignature")
        if signature:
            out.append(ThinkingSignaturePart(signature=str(signature), format="google"))
    return out
