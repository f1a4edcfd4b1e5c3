"""botocore's own reading of a ConverseStream body, accumulated, as the oracle for the Bedrock parser.

botocore has no accumulator (boto3 hands the caller one event dict per frame), so the
oracle is botocore's decoding (``EventStreamBuffer``, CRC checks) and event parsing
(``EventStreamJSONParser`` on the service model's ``ConverseStreamOutput`` shape, blobs
decoded to bytes), folded here by the service model's documented meaning: deltas of one
``contentBlockIndex`` concatenate; ``messageStop.stopReason`` and ``metadata.usage`` are the
turn's. ``project`` puts our final message in the same shape, so the two compare with ``==``.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from functools import cache
from importlib import import_module
from typing import Any, cast

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

__all__ = ["botocore_accumulate", "botocore_events", "project"]

Json = dict[str, Any]


@cache
def _output_shape() -> Any:
    session: Any = import_module("botocore.session").get_session()
    model: Any = session.get_service_model("bedrock-runtime")
    return model.operation_model("ConverseStream").output_shape.members["stream"]


class _Raw:
    def __init__(self, chunks: list[bytes]) -> None:
        self._chunks = chunks

    def stream(self) -> Iterator[bytes]:
        yield from self._chunks

    def close(self) -> None:
        return None


def botocore_events(body: bytes, chunk_size: int | None = None) -> list[Json]:
    """Each frame as boto3 hands it to a caller (``{"contentBlockDelta": {...}}``); an exception
    frame raises botocore's EventStreamError, as it does for a caller."""
    chunks = [body[i : i + chunk_size] for i in range(0, len(body), chunk_size)] if chunk_size else [body]
    parser: Any = import_module("botocore.parsers").EventStreamJSONParser()
    stream: Any = import_module("botocore.eventstream").EventStream(
        _Raw(chunks), _output_shape(), parser, "ConverseStream"
    )
    return list(stream)


def botocore_accumulate(body: bytes, chunk_size: int | None = None) -> Json:
    """botocore's events folded into ``{"blocks", "stop_reason", "usage"}``."""
    blocks: dict[int, Json] = {}
    out: Json = {"stop_reason": None, "usage": None}
    for event in botocore_events(body, chunk_size):
        if "contentBlockStart" in event:
            start = event["contentBlockStart"]
            tool = start["start"].get("toolUse")
            result = start["start"].get("toolResult")
            if tool is not None:
                blocks[start["contentBlockIndex"]] = {
                    "id": tool["toolUseId"],
                    "input": "",
                    "name": tool["name"],
                    "server": tool.get("type") == "server_tool_use",
                }
            elif result is not None:  # a system tool's result (ToolResultBlockStart)
                blocks[start["contentBlockIndex"]] = {
                    "result": result["toolUseId"],
                    "status": result.get("status"),
                    "content": [],
                }
        elif "contentBlockDelta" in event:
            delta = event["contentBlockDelta"]
            block = blocks.setdefault(delta["contentBlockIndex"], {})
            for key, value in delta["delta"].items():
                if key == "text":
                    block["text"] = block.get("text", "") + value
                elif key == "toolUse":
                    block["input"] = block.get("input", "") + value["input"]
                elif key == "toolResult":
                    block["content"] = block.get("content", []) + list(value)
                elif key == "citation":
                    block["citations"] = [*block.get("citations", []), value]
                elif key == "reasoningContent":
                    for part, piece in value.items():
                        if part == "redactedContent":
                            piece = base64.b64encode(piece).decode()
                        block[f"reasoning_{part}"] = block.get(f"reasoning_{part}", "") + piece
        elif "messageStop" in event:
            out["stop_reason"] = event["messageStop"]["stopReason"]
        elif "metadata" in event:
            usage = event["metadata"]["usage"]
            out["usage"] = {"input": usage["inputTokens"], "output": usage["outputTokens"]}
    out["blocks"] = [_normal(blocks[i]) for i in sorted(blocks)]
    return out


def _normal(block: Json) -> Json:
    """One block as a list of canonical pieces: reasoning text, its signature, redacted, text, tool call."""
    pieces: list[Json] = []
    if "reasoning_text" in block or "reasoning_signature" in block:
        pieces.append({"thinking": block.get("reasoning_text", "")})
    if "reasoning_signature" in block:
        pieces.append({"signature": block["reasoning_signature"], "format": "bedrock"})
    if "reasoning_redactedContent" in block:
        pieces.append({"signature": block["reasoning_redactedContent"], "format": "bedrock-redacted"})
    if block.get("text"):
        pieces.append({"text": block["text"]})
    pieces += [{"source": c} for c in block.get("citations", [])]
    if block.get("server"):
        arguments = json.loads(block["input"] or "{}")
        pieces.append({"server_tool_call": block["name"], "id": block["id"], "input": arguments})
    elif "result" in block:
        pieces.append(
            {"server_tool_result": block["result"], "status": block["status"], "content": block["content"]}
        )
    elif "name" in block:
        pieces.append(
            {"tool": block["name"], "id": block["id"], "arguments": json.loads(block["input"] or "{}")}
        )
    return {"pieces": pieces}


def project(message: AssistantMessage) -> list[Json]:
    """Our message's parts as the pieces ``botocore_accumulate`` lists (flattened, in order)."""
    pieces: list[Json] = []
    for part in message.parts:
        if isinstance(part, ThinkingTextPart):
            pieces.append({"thinking": part.text})
        elif isinstance(part, ThinkingSignaturePart):
            pieces.append({"format": part.format, "signature": part.signature})
        elif isinstance(part, TextPart):
            pieces.append({"text": part.text})
        elif isinstance(part, ToolCallPart):
            pieces.append(
                {"arguments": json.loads(part.arguments_json), "id": part.call_id, "tool": part.tool_name}
            )
        elif isinstance(part, ServerToolCallPart):
            use = cast(Json, (part.raw or {}).get("toolUse") or {})
            pieces.append({"server_tool_call": part.tool_name, "id": part.call_id, "input": use.get("input")})
        elif isinstance(part, ServerToolResultPart):
            result = cast(Json, (part.raw or {}).get("toolResult") or {})
            pieces.append(
                {
                    "server_tool_result": part.call_id,
                    "status": result.get("status"),
                    "content": result.get("content"),
                }
            )
        elif isinstance(part, SourcePart):
            pieces.append({"source": part.raw})
    return pieces
