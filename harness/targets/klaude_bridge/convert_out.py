"""klaude-code stream items -> a canonical CallResult (the final message, stream items, errors).

The inverse of ``convert_in``'s part mapping. klaude-only fields (``phase``,
``reasoning_field``, cost and latency figures) have no canonical home and are dropped;
usage maps field by field. Nothing is repaired: a missing or second final message, or
a ``None`` stop reason, is passed on (and noted) for the checks to judge.
"""

# pyright: reportMissingImports=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# pyright: reportUnknownArgumentType=false, reportUnknownParameterType=false, reportAttributeAccessIssue=false

from __future__ import annotations

from typing import Any

from klaude_code.protocol import message

from harness import model as canon
from harness.stream.base import CallResult, StreamItem, TextDelta, ThinkingDelta, ToolCallStart

__all__ = ["call_result", "canonical_part"]


def canonical_part(part: Any) -> canon.AnyPart:
    if isinstance(part, message.TextPart):
        return canon.TextPart(text=part.text)
    if isinstance(part, message.ImageURLPart):
        return canon.ImageURLPart(url=part.url, id=part.id)
    if isinstance(part, message.ImageFilePart):
        return canon.ImageFilePart(
            file_path=part.file_path, mime_type=part.mime_type, byte_size=part.byte_size, sha256=part.sha256
        )
    if isinstance(part, message.ThinkingTextPart):
        return canon.ThinkingTextPart(id=part.id, text=part.text, model_id=part.model_id)
    if isinstance(part, message.ThinkingSignaturePart):
        return canon.ThinkingSignaturePart(
            id=part.id, signature=part.signature, model_id=part.model_id, format=part.format
        )
    if isinstance(part, message.ToolCallPart):
        return canon.ToolCallPart(
            call_id=part.call_id,
            tool_name=part.tool_name,
            arguments_json=part.arguments_json,
            item_id=part.id,
        )
    raise TypeError(f"klaude-code part type {type(part).__name__} has no canonical counterpart")


def _usage(usage: Any) -> canon.Usage | None:
    if usage is None:
        return None
    return canon.Usage(
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        cached_input_tokens=usage.cached_tokens,
        cache_creation_input_tokens=usage.cache_write_tokens,
        reasoning_tokens=usage.reasoning_tokens,
        total_tokens=usage.total_tokens,
    )


def _message(final: Any) -> canon.AssistantMessage:
    return canon.AssistantMessage(
        parts=[canonical_part(p) for p in final.parts],
        usage=_usage(final.usage),
        stop_reason=final.stop_reason,
        response_id=final.response_id,
    )


def call_result(items: list[Any]) -> CallResult:
    """Map everything one ``LLMStreamABC`` yielded. The last final message wins; extras are noted."""
    stream: list[StreamItem] = []
    errors: list[canon.ErrorEvent] = []
    finals: list[Any] = []
    notes: list[str] = []
    for item in items:
        if isinstance(item, message.AssistantTextDelta):
            stream.append(TextDelta(text=item.content))
        elif isinstance(item, message.ThinkingTextDelta):
            stream.append(ThinkingDelta(text=item.content))
        elif isinstance(item, message.ToolCallStartDelta):
            stream.append(ToolCallStart(call_id=item.call_id, tool_name=item.name))
        elif isinstance(item, message.StreamErrorItem):
            errors.append(canon.ErrorEvent(error_message=item.error))
        elif isinstance(item, message.AssistantMessage):
            finals.append(item)
        else:
            notes.append(f"klaude-code yielded {type(item).__name__}, which has no canonical counterpart")
    if len(finals) != 1:
        notes.append(f"klaude-code yielded {len(finals)} final assistant messages for one call")
    final = _message(finals[-1]) if finals else canon.AssistantMessage(parts=[], usage=None, stop_reason=None)
    response_id = final.response_id
    errors = [e.model_copy(update={"response_id": response_id}) for e in errors]
    return CallResult(final, stream, errors, notes)
