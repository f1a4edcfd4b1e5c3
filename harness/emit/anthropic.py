"""Anthropic Messages stream emitter: the inverse of ``harness.providers.anthropic.stream``.

Wire format (https://docs.claude.com/en/docs/build-with-claude/streaming): ``message_start``,
then per content block ``content_block_start`` / ``content_block_delta``... /
``content_block_stop`` (a ``ping`` after the first block start, as the API sends), then
``message_delta`` (stop reason, final usage) and ``message_stop``.

Representable (besides ``common.check_common``):

- Text parts are non-empty (the parser drops empty text blocks).
- A thinking text has ``id`` None and is followed by its signature (format ``anthropic``,
  ``id`` None, non-empty): Anthropic signs every thinking block, and the pair is one block.
- A signature of format ``anthropic-redacted`` (``id`` None, non-empty) stands alone: a
  ``redacted_thinking`` block whose ``data`` is the signature. Any other signature (an
  ``anthropic`` one with no thinking before it, a foreign format) is not Anthropic's.
- Tool calls: ``item_id`` None, ``arguments_json`` a JSON object (``input`` is an object;
  the fragments are sent byte-exact, so any spelling of the object round-trips).
- Sources: Anthropic's own (``provider`` anthropic, a ``raw`` citation) right after the text
  block they cite: a ``citations_delta`` each, before that block's text. Server tool calls and
  results: Anthropic's own with their ``raw`` block (a call's ``input`` streamed as JSON
  fragments, equal to its ``input_json``; a result whole in its start event).
- Usage: ``total_tokens`` None (Anthropic reports none), and ``input_tokens`` at least the
  cache reads plus writes (Anthropic's own ``input_tokens`` excludes both).
- ``stop_reason``: stop -> ``end_turn``, length -> ``max_tokens``, tool_use -> ``tool_use``,
  error -> ``refusal`` (the one complete stream the parser reads as an error).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harness.emit.common import check_common, json_object, pieces, sse
from harness.model import (
    AssistantMessage,
    ServerToolCallPart,
    ServerToolResultPart,
    SourcePart,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
)

__all__ = ["check", "emit"]

_STOP = {"stop": "end_turn", "length": "max_tokens", "tool_use": "tool_use", "error": "refusal"}


@dataclass(slots=True)
class _Block:
    kind: str  # text | thinking | redacted_thinking | tool_use | server (a raw block)
    text: str = ""
    signature: str = ""
    call: ToolCallPart | None = None
    raw: dict[str, Any] | None = None
    citations: list[dict[str, Any]] = field(default_factory=lambda: [])


def _plan(message: AssistantMessage) -> list[_Block] | str:
    """The content blocks for ``message``, or why there are none."""
    blocks: list[_Block] = []
    parts = message.parts
    index = 0
    while index < len(parts):
        part = parts[index]
        where = f"part {index}"
        if isinstance(part, TextPart):
            if not part.text:
                return f"{where}: empty text (the parser drops empty text blocks)"
            blocks.append(_Block("text", part.text))
        elif isinstance(part, ThinkingTextPart):
            following = parts[index + 1] if index + 1 < len(parts) else None
            if part.id is not None:
                return f"{where}: Anthropic thinking blocks have no id"
            if not isinstance(following, ThinkingSignaturePart) or following.format != "anthropic":
                return (
                    f"{where}: a thinking text without its anthropic signature (Anthropic signs every block)"
                )
            if following.id is not None or not following.signature:
                return f"part {index + 1}: an anthropic signature has no id and is non-empty"
            blocks.append(_Block("thinking", part.text, following.signature))
            index += 1
        elif isinstance(part, ThinkingSignaturePart):
            if part.format != "anthropic-redacted":
                what = (
                    "an anthropic signature with no thinking before it"
                    if part.format == "anthropic"
                    else (f"a {part.format!r} signature is not Anthropic's")
                )
                return f"{where}: {what}"
            if part.id is not None or not part.signature:
                return f"{where}: redacted thinking has no id and non-empty data"
            blocks.append(_Block("redacted_thinking", signature=part.signature))
        elif isinstance(part, SourcePart):
            if part.provider != "anthropic" or part.raw is None:
                return f"{where}: a source that is not an Anthropic citation"
            if not blocks or blocks[-1].kind != "text":
                return f"{where}: an Anthropic citation belongs to the text block before it"
            blocks[-1].citations.append(dict(part.raw))
        elif isinstance(part, ServerToolCallPart | ServerToolResultPart):
            if part.provider != "anthropic" or part.raw is None:
                return f"{where}: a server tool part that is not Anthropic's own block"
            if isinstance(part, ServerToolCallPart) and json_object(part.input_json) != part.raw.get("input"):
                return f"{where}: the call's input_json is not its block's input"
            text = part.input_json if isinstance(part, ServerToolCallPart) else ""
            blocks.append(_Block("server", text=text, raw=dict(part.raw)))
        elif isinstance(part, ToolCallPart):
            if part.item_id is not None:
                return f"{where}: Anthropic tool_use blocks have no item id"
            if json_object(part.arguments_json) is None:
                return f"{where}: arguments_json is not a JSON object (tool_use input is one)"
            blocks.append(_Block("tool_use", call=part))
        else:
            return f"{where}: {part.type} has no Anthropic block"
        index += 1
    return blocks


def check(message: AssistantMessage) -> str | None:
    reason = check_common(message)
    if reason is not None:
        return reason
    usage = message.usage
    assert usage is not None
    if usage.total_tokens is not None:
        return "usage.total_tokens is set; Anthropic reports none"
    if usage.input_tokens < (usage.cached_input_tokens or 0) + (usage.cache_creation_input_tokens or 0):
        return (
            "usage.input_tokens is less than cache reads plus writes (Anthropic's input_tokens excludes both)"
        )
    plan = _plan(message)
    return plan if isinstance(plan, str) else None


def _usage(message: AssistantMessage, *, final: bool) -> dict[str, Any]:
    usage = message.usage
    assert usage is not None
    read, created = usage.cached_input_tokens, usage.cache_creation_input_tokens
    raw: dict[str, Any] = {"input_tokens": usage.input_tokens - (read or 0) - (created or 0)}
    if created is not None:
        raw["cache_creation_input_tokens"] = created
    if read is not None:
        raw["cache_read_input_tokens"] = read
    raw["output_tokens"] = usage.output_tokens if final else min(usage.output_tokens, 1)
    if final and usage.reasoning_tokens is not None:
        raw["output_tokens_details"] = {"thinking_tokens": usage.reasoning_tokens}
    return raw


def _delta(index: int, delta: dict[str, Any]) -> str:
    return sse({"type": "content_block_delta", "index": index, "delta": delta}, "content_block_delta")


def _block_events(index: int, block: _Block) -> list[str]:
    out: list[str] = []
    if block.kind == "text":
        start: dict[str, Any] = {"type": "text", "text": ""}
        deltas = [{"type": "citations_delta", "citation": c} for c in block.citations]
        if block.citations:
            start["citations"] = []
        deltas += [{"type": "text_delta", "text": p} for p in pieces(block.text)]
    elif block.kind == "server" and block.raw is not None and "input" in block.raw:
        start = {**block.raw, "input": {}}  # the call's input streams as fragments, byte-exact
        deltas = [{"type": "input_json_delta", "partial_json": f} for f in ["", *pieces(block.text)]]
    elif block.kind == "server" and block.raw is not None:
        start, deltas = dict(block.raw), []
    elif block.kind == "thinking":
        start = {"type": "thinking", "thinking": "", "signature": ""}
        deltas = [{"type": "thinking_delta", "thinking": p} for p in pieces(block.text) if p]
        deltas.append({"type": "signature_delta", "signature": block.signature})
    elif block.kind == "redacted_thinking":
        start = {"type": "redacted_thinking", "data": block.signature}
        deltas = []
    else:
        call = block.call
        assert call is not None
        start = {"type": "tool_use", "id": call.call_id, "name": call.tool_name, "input": {}}
        if call.caller is not None:  # programmatic tool calling: who made the call
            start["caller"] = dict(call.caller)
        # The API opens with an empty fragment; a no-argument call sends nothing else.
        fragments = [""] + ([] if call.arguments_json == "{}" else pieces(call.arguments_json))
        deltas = [{"type": "input_json_delta", "partial_json": f} for f in fragments]
    out.append(
        sse({"type": "content_block_start", "index": index, "content_block": start}, "content_block_start")
    )
    if index == 0:
        out.append(sse({"type": "ping"}, "ping"))
    out.extend(_delta(index, d) for d in deltas)
    out.append(sse({"type": "content_block_stop", "index": index}, "content_block_stop"))
    return out


def emit(message: AssistantMessage, *, response_id: str, model: str) -> bytes:
    """The SSE body of ``POST /v1/messages`` (``stream: true``) answering with ``message``."""
    plan = _plan(message)
    assert not isinstance(plan, str), plan
    start: dict[str, Any] = {
        "type": "message_start",
        "message": {
            "id": response_id,
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": _usage(message, final=False),
        },
    }
    events = [sse(start, "message_start")]
    for index, block in enumerate(plan):
        events.extend(_block_events(index, block))
    stop = _STOP[message.stop_reason or "stop"]
    events.append(
        sse(
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": _usage(message, final=True),
            },
            "message_delta",
        )
    )
    events.append(sse({"type": "message_stop"}, "message_stop"))
    return "".join(events).encode()
