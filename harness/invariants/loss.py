"""I13 no-silent-loss: every canonical part reaches the request, or a warning names its message.

Rule (DESIGN "Adapters, Input"): every part that is dropped or degraded yields a
warning naming the message index, the part and the reason. A part counts as sent when
its content is in the body: a text (stripped) inside some string, an image's URL or
base64 payload, a signature byte-exact, a tool call's id (verbatim or as mapped) and
its arguments (the JSON string, or the equal object), a tool result's output text.
Error and task metadata events are replay records, not conversation content.
"""

from __future__ import annotations

from harness.invariants.base import CheckContext, Json, Violation, leaves
from harness.invariants.canonical import body_calls, found_arguments, found_text, sent_call_ids
from harness.model import (
    AnyPart,
    AssistantMessage,
    DeveloperMessage,
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

__all__ = ["check_no_silent_loss"]

ID = "I13"


def check_no_silent_loss(ctx: CheckContext) -> list[Violation]:
    body = ctx.body
    mapping = sent_call_ids(ctx.history, ctx.provider, body)
    call_ids = {c.id for c in body_calls(ctx.provider, body)}
    out: list[Violation] = []
    for index, event in enumerate(ctx.history):
        if isinstance(event, SystemMessage | UserMessage | DeveloperMessage | AssistantMessage):
            parts: list[AnyPart] = list(event.parts)
            for pidx, part in enumerate(parts):
                if not _sent(part, body, mapping, call_ids) and not ctx.warned(index, pidx):
                    out.append(
                        _lost(ctx, index, f"part {pidx} ({part.type})", part.model_dump(exclude_none=True))
                    )
        elif isinstance(event, ToolResultMessage):
            if not found_text(event.output_text, body) and not ctx.warned(index):
                out.append(_lost(ctx, index, "output_text", {"output_text": event.output_text}))
            for pidx, image in enumerate(event.parts):
                if not _sent(image, body, mapping, call_ids) and not ctx.warned(index, pidx):
                    out.append(
                        _lost(ctx, index, f"part {pidx} ({image.type})", image.model_dump(exclude_none=True))
                    )
    return out


def _lost(ctx: CheckContext, index: int, what: str, example: object) -> Violation:
    """Losing what a person wrote (user, system, developer, tool output) is always ``degrade``."""
    user_content = not isinstance(ctx.history[index], AssistantMessage)
    return ctx.violation(
        ID,
        index,
        f"{what} is neither in the request nor named by a warning",
        example,
        kind=ctx.unwarned_kind(user_content=user_content),
    )


def _sent(part: AnyPart, body: Json, mapping: dict[str, str], call_ids: set[str | None]) -> bool:
    if isinstance(part, TextPart | ThinkingTextPart):
        return found_text(part.text, body)
    if isinstance(part, ThinkingSignaturePart):
        return not part.signature or any(leaf == part.signature for _, leaf in leaves(body))
    if isinstance(part, ImageURLPart):
        payload = part.url.partition(",")[2] if part.url.startswith("data:") else part.url
        return found_text(payload, body)
    if isinstance(part, ImageFilePart):
        return found_text(part.file_path, body)
    assert isinstance(part, ToolCallPart)
    sent_id = mapping.get(part.call_id, part.call_id)
    return sent_id in call_ids and found_arguments(part.arguments_json, body)
