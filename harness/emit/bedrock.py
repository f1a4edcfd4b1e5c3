"""AWS Bedrock ConverseStream emitter: the inverse of ``harness.providers.bedrock.stream``.

Wire format: AWS event-stream binary frames (``application/vnd.amazon.eventstream``), written
here from the format description (prelude: total and headers length, prelude CRC32; string
headers ``:event-type``, ``:content-type``, ``:message-type``; JSON payload; message CRC32),
independently of the reference decoder. Events as the ConverseStream API sends them
(https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html):
``messageStart``, per content block ``contentBlockStart`` (tool calls only) /
``contentBlockDelta``... / ``contentBlockStop``, ``messageStop`` (stop reason), ``metadata``
(usage). Every payload carries the ``p`` padding field Bedrock adds.

Representable (besides ``common.check_common``, whose model rule does not apply):

- The stream names neither a response id nor a model: thinking parts have ``model_id``
  None, and the parsed message's ``response_id`` is None (``carries_ids`` is False).
- Text parts are non-empty (empty text blocks carry nothing).
- A ``bedrock`` signature follows its thinking text (one block: text deltas then a
  signature delta); a ``bedrock-redacted`` signature stands alone (a ``redactedContent``
  delta, base64 as JSON carries a blob). Thinking text may stand alone (gpt-oss, DeepSeek
  reason unsigned). Thinking parts have ``id`` None; no other signature format.
- Tool calls: ``item_id`` None, ``arguments_json`` a JSON object (``input`` is one; the
  fragments are sent byte-exact, ``{}`` as no fragment at all).
- Usage: ``total_tokens`` and ``reasoning_tokens`` None (the parser reports neither), and
  ``input_tokens`` at least cache reads plus writes (Bedrock's ``inputTokens`` excludes both).
- Bedrock's own provider parts (``provider`` bedrock, with ``raw``): a source is a ``citation``
  delta of the text block right before it (the part must be what that citation reads as); a
  system tool's call (``raw`` a ``toolUse`` block with ``type: server_tool_use``) is a toolUse
  block of that type whose input streams as JSON (``input_json`` its canonical, sorted dump); its
  result (``raw`` a ``toolResult`` block) a ``toolResult`` block start then its content as one delta.
- ``stop_reason``: stop -> ``end_turn``, length -> ``max_tokens``, tool_use -> ``tool_use``,
  error -> ``content_filtered`` (the complete stream the parser reads as an error).
"""

from __future__ import annotations

import base64
import binascii
import json
import struct
from typing import Any
from zlib import crc32

from harness.contract.server_items import call_part, result_part
from harness.contract.sources import bedrock_citation
from harness.emit.common import check_common, dumps, json_object, pieces
from harness.model import (
    AnyPart,
    AssistantMessage,
    ServerToolCallPart,
    ServerToolResultPart,
    SourcePart,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
)

__all__ = ["carries_ids", "check", "emit", "frame", "frame_bytes"]

#: A model for ``check_common``'s model rule: the stream names none, so thinking parts carry none.
_PLACEHOLDER_MODEL = "model-of-the-stream"
_STOP = {"stop": "end_turn", "length": "max_tokens", "tool_use": "tool_use", "error": "content_filtered"}
_PAD = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0"


def carries_ids() -> bool:
    """Whether the stream names its response id and model: not on Bedrock."""
    return False


def frame(event: str, payload: dict[str, Any]) -> bytes:
    """One event frame (``:message-type`` ``event``), its JSON padded as Bedrock pads it (``p``)."""
    return frame_bytes(event, dumps({**payload, "p": _PAD[: 1 + len(event) % 20]}).encode())


def frame_bytes(event: str, body: bytes) -> bytes:
    """One event frame around ``body`` as given (tests build payloads no encoder would write)."""
    headers = b""
    for name, value in (
        (":event-type", event),
        (":content-type", "application/json"),
        (":message-type", "event"),
    ):
        raw = value.encode()
        headers += bytes([len(name)]) + name.encode() + b"\x07" + struct.pack("!H", len(raw)) + raw
    prelude = struct.pack("!II", 16 + len(headers) + len(body), len(headers))
    prelude += struct.pack("!I", crc32(prelude))
    message = prelude + headers + body
    return message + struct.pack("!I", crc32(message))


def _blocks(message: AssistantMessage) -> list[list[dict[str, Any]]] | str:
    """Per content block, its deltas (a tool call's first entry is its start), or why there are none."""
    blocks: list[list[dict[str, Any]]] = []
    parts = message.parts
    names: dict[str, str] = {}  # system tool call id -> its name (its result is read with it)
    index = 0
    while index < len(parts):
        part, where = parts[index], f"part {index}"
        if isinstance(part, TextPart):
            if not part.text:
                return f"{where}: empty text (an empty text block carries nothing)"
            blocks.append([{"text": p} for p in pieces(part.text)])
        elif isinstance(part, ThinkingTextPart):
            if part.id is not None or part.model_id is not None:
                return f"{where}: Bedrock reasoning has no id and the stream names no model"
            deltas: list[dict[str, Any]] = [{"reasoningContent": {"text": p}} for p in pieces(part.text)]
            following = parts[index + 1] if index + 1 < len(parts) else None
            if isinstance(following, ThinkingSignaturePart) and following.format == "bedrock":
                if following.id is not None or following.model_id is not None or not following.signature:
                    return f"part {index + 1}: a bedrock signature has no id or model and is non-empty"
                deltas.append({"reasoningContent": {"signature": following.signature}})
                index += 1
            blocks.append(deltas)
        elif isinstance(part, ThinkingSignaturePart):
            if part.format != "bedrock-redacted":
                return f"{where}: a {part.format!r} signature is not a Bedrock redactedContent block"
            if part.id is not None or part.model_id is not None or not part.signature:
                return f"{where}: redacted content has no id or model and is non-empty"
            try:
                base64.b64decode(part.signature, validate=True)
            except (binascii.Error, ValueError):
                return f"{where}: redactedContent is a blob: its JSON form is base64"
            blocks.append([{"reasoningContent": {"redactedContent": part.signature}}])
        elif isinstance(part, SourcePart):
            if part.provider != "bedrock" or part.raw is None:
                return f"{where}: a source that is not a Bedrock citation"
            if part.model_copy(update={"cache_breakpoint": None}) != bedrock_citation(dict(part.raw)):
                return f"{where}: the source is not what its Bedrock citation reads as"
            if not blocks or "text" not in blocks[-1][0] or isinstance(parts[index - 1], ThinkingTextPart):
                return f"{where}: a Bedrock citation belongs to the text block before it"
            blocks[-1].append({"citation": dict(part.raw)})
        elif isinstance(part, ServerToolCallPart | ServerToolResultPart):
            block = _server(part, names)
            if isinstance(block, str):
                return f"{where}: {block}"
            blocks.append(block)
        elif isinstance(part, ToolCallPart):
            if part.item_id is not None:
                return f"{where}: Bedrock toolUse blocks have no item id"
            if json_object(part.arguments_json) is None:
                return f"{where}: arguments_json is not a JSON object (toolUse input is one)"
            start: dict[str, Any] = {
                "start": {"toolUse": {"name": part.tool_name, "toolUseId": part.call_id}}
            }
            fragments = [] if part.arguments_json == "{}" else pieces(part.arguments_json)
            blocks.append([start, *({"toolUse": {"input": f}} for f in fragments)])
        else:
            return f"{where}: {part.type} has no Bedrock block"
        index += 1
    return blocks


def _server(part: AnyPart, names: dict[str, str]) -> list[dict[str, Any]] | str:
    """A system tool's call or result as its block's start and deltas, or why it has none."""
    assert isinstance(part, ServerToolCallPart | ServerToolResultPart)
    raw = part.raw or {}
    if part.provider != "bedrock" or part.raw is None:
        return "a server tool part that is not Bedrock's own block"
    if isinstance(part, ServerToolCallPart):
        use = raw.get("toolUse")
        if not isinstance(use, dict) or set(raw) != {"toolUse"} or use.get("type") != "server_tool_use":
            return "a system tool call's raw is one toolUse block of type server_tool_use"
        fields: dict[str, Any] = use  # pyright: ignore[reportUnknownVariableType]
        if not isinstance(fields.get("input"), dict):
            return "a system tool call's input is a JSON object"
        read = call_part(
            str(fields.get("toolUseId")), str(fields.get("name")), "bedrock", fields["input"], raw
        )
        if part.model_copy(update={"cache_breakpoint": None}) != read:
            return "the call is not what its toolUse block reads as"
        names[read.call_id] = read.tool_name
        start = {k: v for k, v in fields.items() if k != "input"}
        text = json.dumps(fields["input"], ensure_ascii=False)
        fragments = [] if fields["input"] == {} else pieces(text)
        return [{"start": {"toolUse": start}}, *({"toolUse": {"input": f}} for f in fragments)]
    result = raw.get("toolResult")
    if not isinstance(result, dict) or set(raw) != {"toolResult"}:
        return "a system tool result's raw is one toolResult block"
    body: dict[str, Any] = result  # pyright: ignore[reportUnknownVariableType]
    content = body.get("content")
    if not isinstance(content, list) or not content:
        return "a system tool result's content is a non-empty list"
    call_id = str(body.get("toolUseId") or "")
    name = names.get(call_id) or str(body.get("type") or "").removesuffix("_result")
    status = "error" if body.get("status") == "error" else "success"
    if part.model_copy(update={"cache_breakpoint": None}) != result_part(
        call_id, name, "bedrock", status, raw
    ):
        return "the result is not what its toolResult block reads as (after its call)"
    start = {k: v for k, v in body.items() if k != "content"}
    return [{"start": {"toolResult": start}}, {"toolResult": content}]


def check(message: AssistantMessage) -> str | None:
    thinking = [p for p in message.parts if isinstance(p, ThinkingTextPart | ThinkingSignaturePart)]
    if any(p.model_id is not None for p in thinking):
        return "a thinking part with a model_id: the Bedrock stream names no model"
    named = [
        p.model_copy(update={"model_id": _PLACEHOLDER_MODEL}) if p in thinking else p for p in message.parts
    ]
    reason = check_common(message.model_copy(update={"parts": named}))
    if reason is not None:
        return reason
    usage = message.usage
    assert usage is not None
    if usage.total_tokens is not None or usage.reasoning_tokens is not None:
        return "usage.total_tokens / reasoning_tokens are set; the Bedrock parser reports neither"
    if usage.input_tokens < (usage.cached_input_tokens or 0) + (usage.cache_creation_input_tokens or 0):
        return "usage.input_tokens is less than cache reads plus writes (Bedrock's inputTokens excludes both)"
    plan = _blocks(message)
    return plan if isinstance(plan, str) else None


def emit(message: AssistantMessage, *, response_id: str, model: str) -> bytes:
    """The ConverseStream body answering with ``message`` (``response_id`` and ``model`` are not on this wire)."""
    plan = _blocks(message)
    assert not isinstance(plan, str), plan
    usage = message.usage
    assert usage is not None
    read, written = usage.cached_input_tokens, usage.cache_creation_input_tokens
    out = [frame("messageStart", {"role": "assistant"})]
    for index, deltas in enumerate(plan):
        for delta in deltas:
            if "start" in delta:
                out.append(frame("contentBlockStart", {"contentBlockIndex": index, **delta}))
            else:
                out.append(frame("contentBlockDelta", {"contentBlockIndex": index, "delta": delta}))
        out.append(frame("contentBlockStop", {"contentBlockIndex": index}))
    out.append(frame("messageStop", {"stopReason": _STOP[message.stop_reason or "stop"]}))
    raw: dict[str, Any] = {
        "inputTokens": usage.input_tokens - (read or 0) - (written or 0),
        "outputTokens": usage.output_tokens,
        "totalTokens": usage.input_tokens + usage.output_tokens,
    }
    if read is not None:
        raw["cacheReadInputTokens"] = read
    if written is not None:
        raw["cacheWriteInputTokens"] = written
    out.append(frame("metadata", {"metrics": {"latencyMs": 100}, "usage": raw}))
    return b"".join(out)
