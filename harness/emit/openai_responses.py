"""OpenAI Responses stream emitter: the inverse of ``harness.providers.openai_responses.stream``.

Wire format (https://platform.openai.com/docs/api-reference/responses-streaming):
``response.created`` and ``response.in_progress``, then per output item
``response.output_item.added``, its content events (reasoning summary parts and
``reasoning_summary_text`` deltas; message ``content_part`` and ``output_text`` deltas;
``function_call_arguments`` deltas), each closed by its ``.done`` event, then
``response.output_item.done``, and finally ``response.completed`` (or
``response.incomplete``) with every item in ``output`` and the usage. Every event has a
``sequence_number``.

Representable (besides ``common.check_common``):

- Reasoning items: a run of non-empty thinking texts with one non-empty ``id`` (the
  ``rs_`` item id; each text is one summary part), optionally followed by its signature:
  format ``openai-responses``, ``id`` equal to the item id, non-empty (the item's
  ``encrypted_content``). A signature with no thinking before it is an item with an
  empty summary. Other signature formats are not Responses'.
- Text parts are non-empty (an empty ``output_text`` adds nothing) and carry their
  message item's id (``item_id``, non-empty: the API always sends one) and optionally
  its ``phase``; consecutive text parts with the same ``item_id`` and ``phase`` are the
  content parts of one message item (so one item id is not split by another part, and
  its parts share one phase).
- Tool calls carry their ``fc_`` item id (``item_id``; the API always sends one);
  ``arguments_json`` is any string.
- Item ids (reasoning ids, text and tool ``item_id``\\ s) are unique within the message: the
  parser keys items by id; so are tool ``call_id``\\ s: the openai SDK keys function-call
  items by ``call_id`` (and rejects a repeat), as the API never repeats one.
- ``stop_reason``: stop and tool_use -> ``completed`` (tool_use exactly when the message
  has tool calls: the status is the same, the parser decides by the calls), length ->
  ``incomplete`` (``max_output_tokens``), error -> ``incomplete`` (``content_filter``).
- Usage: ``cached_input_tokens``, ``reasoning_tokens`` and ``total_tokens`` set (the
  ``ResponseUsage`` object always carries them); ``cache_creation_input_tokens`` is sent
  as ``input_tokens_details.cache_write_tokens`` when set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harness.emit.common import CREATED, check_common, pieces, sse
from harness.model import AssistantMessage, TextPart, ThinkingSignaturePart, ThinkingTextPart, ToolCallPart

__all__ = ["check", "emit"]

SIGNATURE_FORMAT = "openai-responses"


@dataclass(slots=True)
class _Item:
    kind: str  # reasoning | message | function_call
    id: str
    texts: list[str] = field(default_factory=lambda: [])
    encrypted: str | None = None
    call: ToolCallPart | None = None
    phase: str | None = None


def _plan(message: AssistantMessage) -> list[_Item] | str:
    items: list[_Item] = []
    parts = message.parts
    used: set[str] = set()
    calls: set[str] = set()
    index = 0
    while index < len(parts):
        part = parts[index]
        where = f"part {index}"
        if isinstance(part, TextPart):
            if not part.text:
                return f"{where}: empty text (an empty output_text adds nothing)"
            if not part.item_id:
                return f"{where}: a message item has a msg_ id; the text needs item_id"
            previous = parts[index - 1] if index else None
            if (
                isinstance(previous, TextPart)
                and previous.item_id == part.item_id
                and previous.phase == part.phase
            ):
                items[-1].texts.append(part.text)
            else:
                if part.item_id in used:
                    return f"{where}: item id {part.item_id!r} used twice"
                used.add(part.item_id)
                items.append(_Item("message", part.item_id, [part.text], phase=part.phase))
        elif isinstance(part, ThinkingTextPart):
            if not part.id:
                return f"{where}: a reasoning summary belongs to an rs_ item; the thinking text needs its id"
            if not part.text:
                return f"{where}: empty thinking text (an empty summary delta adds nothing)"
            previous = parts[index - 1] if index else None
            if isinstance(previous, ThinkingTextPart) and previous.id == part.id:
                items[-1].texts.append(part.text)
            else:
                if part.id in used:
                    return f"{where}: item id {part.id!r} used twice"
                used.add(part.id)
                items.append(_Item("reasoning", part.id, [part.text]))
        elif isinstance(part, ThinkingSignaturePart):
            if part.format != SIGNATURE_FORMAT:
                return f"{where}: a {part.format!r} signature is not a Responses encrypted_content"
            if not part.signature:
                return f"{where}: an empty encrypted_content"
            previous = parts[index - 1] if index else None
            if isinstance(previous, ThinkingTextPart):
                if part.id != previous.id:
                    return f"{where}: encrypted_content carries its reasoning item's id {previous.id!r}"
                items[-1].encrypted = part.signature
            else:
                if not part.id:
                    return f"{where}: encrypted_content belongs to an rs_ item; the signature needs its id"
                if part.id in used:
                    return f"{where}: item id {part.id!r} used twice"
                used.add(part.id)
                items.append(_Item("reasoning", part.id, encrypted=part.signature))
        elif isinstance(part, ToolCallPart):
            if not part.item_id:
                return f"{where}: a function_call item has an fc_ id; the tool call needs item_id"
            if part.item_id in used:
                return f"{where}: item id {part.item_id!r} used twice"
            if part.call_id in calls:
                return f"{where}: call_id {part.call_id!r} used twice (a response's function calls are keyed by it)"
            calls.add(part.call_id)
            used.add(part.item_id)
            items.append(_Item("function_call", part.item_id, call=part))
        else:
            return f"{where}: {part.type} has no Responses item"
        index += 1
    return items


def check(message: AssistantMessage) -> str | None:
    reason = check_common(message, text_items=True)
    if reason is not None:
        return reason
    usage = message.usage
    assert usage is not None
    for name in ("cached_input_tokens", "reasoning_tokens", "total_tokens"):
        if getattr(usage, name) is None:
            return f"usage.{name} is None; ResponseUsage always carries it"
    has_calls = any(isinstance(p, ToolCallPart) for p in message.parts)
    if message.stop_reason == "tool_use" and not has_calls:
        return "stop_reason tool_use without tool calls: a completed response says 'stop' then"
    plan = _plan(message)
    return plan if isinstance(plan, str) else None


class _Writer:
    def __init__(self) -> None:
        self.events: list[str] = []

    def __call__(self, kind: str, **fields: Any) -> None:
        payload = {"type": kind, "sequence_number": len(self.events), **fields}
        self.events.append(sse(payload, kind))


def _response(response_id: str, model: str, status: str, **fields: Any) -> dict[str, Any]:
    return {
        "id": response_id,
        "object": "response",
        "created_at": CREATED,
        "status": status,
        "background": False,
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "model": model,
        "output": [],
        "parallel_tool_calls": True,
        "reasoning": {"effort": "medium", "summary": "detailed"},
        "store": False,
        "temperature": 1.0,
        "text": {"format": {"type": "text"}},
        "tool_choice": "auto",
        "tools": [],
        "top_p": 1.0,
        "usage": None,
        "metadata": {},
        **fields,
    }


def _final_item(item: _Item) -> dict[str, Any]:
    if item.kind == "reasoning":
        out: dict[str, Any] = {
            "id": item.id,
            "type": "reasoning",
            "summary": [{"type": "summary_text", "text": t} for t in item.texts],
        }
        if item.encrypted is not None:
            out["encrypted_content"] = item.encrypted
        return out
    if item.kind == "message":
        out = {
            "id": item.id,
            "type": "message",
            "status": "completed",
            "content": [
                {"type": "output_text", "annotations": [], "logprobs": [], "text": t} for t in item.texts
            ],
        }
        if item.phase is not None:
            out["phase"] = item.phase
        out["role"] = "assistant"
        return out
    call = item.call
    assert call is not None
    return {
        "id": item.id,
        "type": "function_call",
        "status": "completed",
        "arguments": call.arguments_json,
        "call_id": call.call_id,
        "name": call.tool_name,
    }


def _added_item(item: _Item) -> dict[str, Any]:
    final = _final_item(item)
    if item.kind == "reasoning":
        return {**final, "summary": []}
    if item.kind == "message":
        return {**final, "status": "in_progress", "content": []}
    return {**final, "status": "in_progress", "arguments": ""}


def _item_events(write: _Writer, position: int, item: _Item) -> None:
    write("response.output_item.added", output_index=position, item=_added_item(item))
    where = {"item_id": item.id, "output_index": position}
    if item.kind == "reasoning":
        for j, text in enumerate(item.texts):
            part: dict[str, Any] = {"type": "summary_text", "text": ""}
            write("response.reasoning_summary_part.added", **where, summary_index=j, part=part)
            for piece in pieces(text):
                write("response.reasoning_summary_text.delta", **where, summary_index=j, delta=piece)
            write("response.reasoning_summary_text.done", **where, summary_index=j, text=text)
            write(
                "response.reasoning_summary_part.done", **where, summary_index=j, part={**part, "text": text}
            )
    elif item.kind == "message":
        for j, text in enumerate(item.texts):
            part: dict[str, Any] = {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}
            write("response.content_part.added", **where, content_index=j, part=part)
            for piece in pieces(text):
                write("response.output_text.delta", **where, content_index=j, delta=piece, logprobs=[])
            write("response.output_text.done", **where, content_index=j, text=text, logprobs=[])
            write("response.content_part.done", **where, content_index=j, part={**part, "text": text})
    else:
        call = item.call
        assert call is not None
        if call.arguments_json:
            for piece in pieces(call.arguments_json):
                write("response.function_call_arguments.delta", **where, delta=piece)
        write("response.function_call_arguments.done", **where, arguments=call.arguments_json)
    write("response.output_item.done", output_index=position, item=_final_item(item))


def _usage(message: AssistantMessage) -> dict[str, Any]:
    usage = message.usage
    assert usage is not None
    inputs: dict[str, Any] = {"cached_tokens": usage.cached_input_tokens}
    if usage.cache_creation_input_tokens is not None:
        inputs["cache_write_tokens"] = usage.cache_creation_input_tokens
    return {
        "input_tokens": usage.input_tokens,
        "input_tokens_details": inputs,
        "output_tokens": usage.output_tokens,
        "output_tokens_details": {"reasoning_tokens": usage.reasoning_tokens},
        "total_tokens": usage.total_tokens,
    }


def emit(message: AssistantMessage, *, response_id: str, model: str) -> bytes:
    """The SSE body of a streamed ``POST /v1/responses`` answering with ``message``."""
    plan = _plan(message)
    assert not isinstance(plan, str), plan
    write = _Writer()
    write("response.created", response=_response(response_id, model, "in_progress"))
    write("response.in_progress", response=_response(response_id, model, "in_progress"))
    for position, item in enumerate(plan):
        _item_events(write, position, item)
    output = [_final_item(item) for item in plan]
    usage = _usage(message)
    if message.stop_reason in ("length", "error"):
        reason = "max_output_tokens" if message.stop_reason == "length" else "content_filter"
        final = _response(
            response_id,
            model,
            "incomplete",
            output=output,
            usage=usage,
            incomplete_details={"reason": reason},
        )
        write("response.incomplete", response=final)
    else:
        write(
            "response.completed",
            response=_response(response_id, model, "completed", output=output, usage=usage),
        )
    return "".join(write.events).encode()
