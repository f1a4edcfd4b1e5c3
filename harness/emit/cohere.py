"""Cohere v2 Chat stream emitter: the inverse of ``harness.providers.cohere.stream``.

Wire format (https://docs.cohere.com/v2/docs/streaming; the cohere SDK's ``V2ChatStreamResponse``):
SSE events named by their ``type``: ``message-start`` (the response ``id``), per content item
``content-start`` / ``content-delta``... / ``content-end`` (``text`` or ``thinking``, indexed
from 0), per tool call ``tool-call-start`` (id, name, ``arguments: ""``) / ``tool-call-delta``
(argument fragments)... / ``tool-call-end`` (indexed from 0), and ``message-end``
(``finish_reason``, ``usage``). Written from the documented format, independently of the parser.

Representable (besides ``common.check_common``, whose model rule does not apply):

- The stream names the response id but no model: thinking parts have ``model_id`` None.
- No signatures (Cohere's thinking is plain text); thinking texts have ``id`` None.
- Tool calls: ``item_id`` None and non-empty ``arguments_json`` (a call without arguments
  is read as ``{}``).
- Usage: ``total_tokens``, ``reasoning_tokens`` and ``cache_creation_input_tokens`` None (the
  parser reports none of them).
- Cohere's own sources (``provider`` cohere, with ``raw``): a ``citation-start`` / ``citation-end``
  pair after the text content item right before it (the part must be what that citation reads
  as; its ``content_index``, when it has one, names that item: without one the parser reads it as
  citing the latest text). Cohere has no server tools.
- ``stop_reason``: stop -> ``COMPLETE``, length -> ``MAX_TOKENS``, tool_use -> ``TOOL_CALL``,
  error -> ``ERROR`` (the complete stream the parser reads as an error).
"""

from __future__ import annotations

from typing import Any

from harness.contract.sources import cohere_citation
from harness.emit.common import check_common, pieces, sse
from harness.model import (
    AssistantMessage,
    SourcePart,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
)

__all__ = ["check", "emit"]

#: A model for ``check_common``'s model rule: the stream names none, so thinking parts carry none.
_PLACEHOLDER_MODEL = "model-of-the-stream"
_FINISH = {"stop": "COMPLETE", "length": "MAX_TOKENS", "tool_use": "TOOL_CALL", "error": "ERROR"}


def _problem(index: int, part: Any) -> str | None:
    where = f"part {index}"
    if isinstance(part, ThinkingSignaturePart):
        return f"{where}: Cohere thinking carries no signature"
    if isinstance(part, ThinkingTextPart) and (part.id is not None or part.model_id is not None):
        return f"{where}: Cohere thinking has no id and the stream names no model"
    if isinstance(part, TextPart | ThinkingTextPart) and not part.text:
        return f"{where}: empty {part.type} (an empty content item carries nothing)"
    if isinstance(part, ToolCallPart) and (part.item_id is not None or not part.arguments_json):
        return f"{where}: Cohere tool calls have no item id, and no arguments are read as '{{}}'"
    if isinstance(part, SourcePart):
        if part.provider != "cohere" or part.raw is None:
            return f"{where}: a source that is not a Cohere citation"
        if dict(part.raw).get("type") == "PLAN":
            return f"{where}: a tool-plan citation (the emitted stream carries no tool plan)"
        if part.model_copy(update={"cache_breakpoint": None}) != cohere_citation(dict(part.raw)):
            return f"{where}: the source is not what its Cohere citation reads as"
        return None
    if not isinstance(part, TextPart | ThinkingTextPart | ToolCallPart):
        return f"{where}: {part.type} has no Cohere stream form"
    return None


def check(message: AssistantMessage) -> str | None:
    contents = 0  # content items so far, numbered as the stream numbers them
    for index, part in enumerate(message.parts):
        before = message.parts[index - 1] if index else None
        if isinstance(part, SourcePart) and not isinstance(before, TextPart | SourcePart):
            return f"part {index}: a Cohere citation belongs to the text content item before it"
        if (
            isinstance(part, SourcePart)
            and (part.raw or {}).get("content_index", contents - 1) != contents - 1
        ):
            return (
                f"part {index}: its citation's content_index is not the text item before it ({contents - 1})"
            )
        contents += isinstance(part, TextPart | ThinkingTextPart)
        problem = _problem(index, part)
        if problem is not None:
            return problem
    named = [
        p.model_copy(update={"model_id": _PLACEHOLDER_MODEL}) if isinstance(p, ThinkingTextPart) else p
        for p in message.parts
    ]
    reason = check_common(message.model_copy(update={"parts": named}))
    if reason is not None:
        return reason
    usage = message.usage
    assert usage is not None
    if (usage.total_tokens, usage.reasoning_tokens, usage.cache_creation_input_tokens) != (None, None, None):
        return (
            "usage.total_tokens / reasoning_tokens / cache_creation_input_tokens are set; Cohere reports none"
        )
    return None


def _event(kind: str, **fields: Any) -> str:
    return sse({"type": kind, **fields}, event=kind)


def _content(kind: str, text: str) -> dict[str, Any]:
    return {"message": {"content": {kind: text}}}


def emit(message: AssistantMessage, *, response_id: str, model: str) -> bytes:
    """The ``/v2/chat`` stream answering with ``message`` (``model`` is not on this wire)."""
    usage = message.usage
    assert usage is not None
    opening: dict[str, Any] = {
        "citations": [],
        "content": [],
        "role": "assistant",
        "tool_calls": [],
        "tool_plan": "",
    }
    start = {"message": opening}
    out = [_event("message-start", id=response_id, delta=start)]
    contents = calls = citations = 0
    for part in message.parts:
        if isinstance(part, SourcePart):  # cites the text content item just emitted
            assert part.raw is not None
            cited = dict(part.raw)
            out.insert(-1, _event("citation-start", index=citations, delta={"message": {"citations": cited}}))
            out.insert(-1, _event("citation-end", index=citations))
            citations += 1
            continue
        if isinstance(part, ToolCallPart):
            call = {
                "function": {"arguments": "", "name": part.tool_name},
                "id": part.call_id,
                "type": "function",
            }
            out.append(_event("tool-call-start", index=calls, delta={"message": {"tool_calls": call}}))
            for piece in pieces(part.arguments_json):
                delta = {"message": {"tool_calls": {"function": {"arguments": piece}}}}
                out.append(_event("tool-call-delta", index=calls, delta=delta))
            out.append(_event("tool-call-end", index=calls))
            calls += 1
            continue
        assert isinstance(part, TextPart | ThinkingTextPart)
        kind = "text" if isinstance(part, TextPart) else "thinking"
        opened = {"message": {"content": {kind: "", "type": kind}}}
        out.append(_event("content-start", index=contents, delta=opened))
        out.extend(
            _event("content-delta", index=contents, delta=_content(kind, p)) for p in pieces(part.text)
        )
        out.append(_event("content-end", index=contents))
        contents += 1
    counts = {"input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens}
    raw: dict[str, Any] = {"billed_units": counts, "tokens": counts}
    if usage.cached_input_tokens is not None:
        raw["cached_tokens"] = usage.cached_input_tokens
    end = {"finish_reason": _FINISH[message.stop_reason or "stop"], "usage": raw}
    out.append(_event("message-end", delta=end))
    return "".join(out).encode()
