"""Gemini stream emitter (``streamGenerateContent?alt=sse``): the inverse of ``harness.providers.gemini.stream``.

Wire format (https://ai.google.dev/api/generate-content#generatecontentresponse): one
``GenerateContentResponse`` per ``data:`` line, each with ``candidates[0].content.parts``
(text pieces, ``thought: true`` pieces, whole ``functionCall``\\ s; a
``thoughtSignature`` on the first piece of the part it signs), ``usageMetadata`` (the
running totals, repeated in every chunk), ``modelVersion`` and ``responseId``; the last
chunk carries an empty text part and the ``finishReason``, as Gemini 3 sends it.

Representable (besides ``common.check_common``):

- Text and thinking texts are non-empty (empty pieces add nothing) and have no ``id``.
- Signatures: format ``google``, ``id`` None, non-empty, standard base64 (the API's
  ``thoughtSignature`` is ``bytes``; google-genai rejects anything else). A signature right after a text,
  thinking text or tool call that has none is that part's ``thoughtSignature``; one at
  the start or after another signature stands alone (an empty text part carrying it).
- Two adjacent parts of the same kind (text/text, thinking/thinking) are one part on
  the wire unless both carry a signature (a signed chunk after a signed part starts a
  new part); otherwise they are rejected.
- Tool calls: ``item_id`` None; ``arguments_json`` is exactly the compact JSON
  (``separators=(",", ":")``, raw UTF-8) of an object, since ``args`` travels as an object.
  ``functionCall.id`` is sent unless ``call_id`` is the id the parser derives
  (``call_<responseId>_<n>``), so both spellings round-trip.
- ``stop_reason``: stop and tool_use -> ``STOP`` (tool_use exactly when there are calls),
  length -> ``MAX_TOKENS``, error -> ``SAFETY``.
- Usage: ``cache_creation_input_tokens`` None (Gemini reports none), ``total_tokens`` set,
  ``output_tokens`` at least ``reasoning_tokens`` (``candidatesTokenCount`` is the rest).
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Any

from harness.emit.common import check_common, dumps, json_object, pieces, sse
from harness.model import AssistantMessage, TextPart, ThinkingSignaturePart, ThinkingTextPart, ToolCallPart

__all__ = ["check", "emit"]

SIGNATURE_FORMAT = "google"
_FINISH = {"stop": "STOP", "tool_use": "STOP", "length": "MAX_TOKENS", "error": "SAFETY"}


@dataclass(frozen=True, slots=True)
class _Unit:
    kind: str  # text | thinking | call | signature
    text: str = ""
    call: ToolCallPart | None = None
    signature: str | None = None


def _plan(message: AssistantMessage) -> list[_Unit] | str:
    units: list[_Unit] = []
    parts = message.parts
    index = 0
    while index < len(parts):
        part = parts[index]
        where = f"part {index}"
        following = parts[index + 1] if index + 1 < len(parts) else None
        signature: str | None = None
        if isinstance(following, ThinkingSignaturePart) and not isinstance(part, ThinkingSignaturePart):
            reason = _signature_reason(following, index + 1)
            if reason is not None:
                return reason
            signature = following.signature
        if isinstance(part, TextPart | ThinkingTextPart):
            kind = "text" if isinstance(part, TextPart) else "thinking"
            if not part.text:
                return f"{where}: empty {kind} (an empty piece adds nothing)"
            if isinstance(part, ThinkingTextPart) and part.id is not None:
                return f"{where}: Gemini thoughts have no id"
            previous = units[-1] if units else None
            if previous is not None and previous.kind == kind and not (previous.signature and signature):
                return f"{where}: {kind} right after {kind} is one part unless both are signed"
            units.append(_Unit(kind, part.text, signature=signature))
        elif isinstance(part, ToolCallPart):
            if part.item_id is not None:
                return f"{where}: Gemini function calls have no item id"
            args = json_object(part.arguments_json)
            if args is None or dumps(args) != part.arguments_json:
                return (
                    f"{where}: arguments_json is not the compact JSON of an object (args travel as an object)"
                )
            units.append(_Unit("call", call=part, signature=signature))
        elif isinstance(part, ThinkingSignaturePart):
            reason = _signature_reason(part, index)
            if reason is not None:
                return reason
            units.append(_Unit("signature", signature=part.signature))
        else:
            return f"{where}: {part.type} has no Gemini part"
        index += 2 if signature is not None else 1
    return units


def _signature_reason(part: ThinkingSignaturePart, index: int) -> str | None:
    if part.format != SIGNATURE_FORMAT:
        return f"part {index}: a {part.format!r} signature is not a Gemini thoughtSignature"
    if part.id is not None or not part.signature:
        return f"part {index}: a thoughtSignature has no id and is non-empty"
    try:
        base64.b64decode(part.signature, validate=True)
    except binascii.Error:
        return f"part {index}: a thoughtSignature is base64 (the API's field is bytes)"
    return None


def check(message: AssistantMessage) -> str | None:
    reason = check_common(message)
    if reason is not None:
        return reason
    usage = message.usage
    assert usage is not None
    if usage.cache_creation_input_tokens is not None:
        return "usage.cache_creation_input_tokens is set; Gemini reports none"
    if usage.total_tokens is None:
        return "usage.total_tokens is None; usageMetadata always carries totalTokenCount"
    if usage.output_tokens < (usage.reasoning_tokens or 0):
        return "usage.output_tokens is less than reasoning_tokens (output = candidates + thoughts)"
    if message.stop_reason == "tool_use" and not any(isinstance(p, ToolCallPart) for p in message.parts):
        return "stop_reason tool_use without tool calls: Gemini says STOP and the parser reports 'stop'"
    plan = _plan(message)
    return plan if isinstance(plan, str) else None


def _usage(message: AssistantMessage) -> dict[str, Any]:
    usage = message.usage
    assert usage is not None
    thoughts = usage.reasoning_tokens
    raw: dict[str, Any] = {
        "promptTokenCount": usage.input_tokens,
        "candidatesTokenCount": usage.output_tokens - (thoughts or 0),
        "totalTokenCount": usage.total_tokens,
    }
    if usage.cached_input_tokens is not None:
        raw["cachedContentTokenCount"] = usage.cached_input_tokens
    if thoughts is not None:
        raw["thoughtsTokenCount"] = thoughts
    return raw


def _wire_parts(unit: _Unit, call_index: int, response_id: str) -> list[dict[str, Any]]:
    """One dict per chunk: the pieces of ``unit``, its signature on the first."""
    if unit.kind == "signature":
        out: list[dict[str, Any]] = [{"text": ""}]
    elif unit.kind == "call":
        call = unit.call
        assert call is not None
        function: dict[str, Any] = {"name": call.tool_name, "args": json_object(call.arguments_json)}
        if call.call_id != f"call_{response_id}_{call_index}":
            function = {"id": call.call_id, **function}
        out = [{"functionCall": function}]
    else:
        thought = {"thought": True} if unit.kind == "thinking" else {}
        out = [{"text": p, **thought} for p in pieces(unit.text)]
    if unit.signature is not None:
        out[0]["thoughtSignature"] = unit.signature
    return out


def emit(message: AssistantMessage, *, response_id: str, model: str) -> bytes:
    """The SSE body of ``streamGenerateContent?alt=sse`` answering with ``message``."""
    plan = _plan(message)
    assert not isinstance(plan, str), plan
    usage = _usage(message)

    def chunk(part: dict[str, Any], finish: str | None = None) -> str:
        candidate: dict[str, Any] = {"content": {"parts": [part], "role": "model"}}
        if finish is not None:
            candidate["finishReason"] = finish
        candidate["index"] = 0
        return sse(
            {
                "candidates": [candidate],
                "usageMetadata": usage,
                "modelVersion": model,
                "responseId": response_id,
            }
        )

    events: list[str] = []
    calls = 0
    for unit in plan:
        events.extend(chunk(part) for part in _wire_parts(unit, calls, response_id))
        calls += unit.kind == "call"
    events.append(chunk({"text": ""}, _FINISH[message.stop_reason or "stop"]))
    return "".join(events).encode()
