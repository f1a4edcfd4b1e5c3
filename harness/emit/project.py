"""A canonical assistant message as one provider's stream can carry it, so stream checks always run.

Why: ``representable`` is exact. A history written by a client (usage totals a stream
does not send, another provider's signatures, a stop reason the client set) is rarely
byte-for-byte what one provider's stream says, and a stream check that skipped every
such message would pass on nothing. ``project`` keeps everything a provider's stream
can say and rewrites only what it cannot (each rewrite named), so the target's parser is
still judged on a real provider stream; the round trip then compares with the
projection, never with parts the stream could not have carried.
"""

from __future__ import annotations

from collections.abc import Callable

from harness.emit.common import NotRepresentable
from harness.model import (
    AnyPart,
    AssistantMessage,
    ImageFilePart,
    ImageURLPart,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    Usage,
)

__all__ = ["Projection", "project"]

#: Signature formats each provider's stream carries (OpenRouter: its ``reasoning_details`` formats).
_STREAM_FORMATS: dict[str, Callable[[str | None], bool]] = {
    "anthropic": lambda f: f in ("anthropic", "anthropic-redacted"),
    "openai-responses": lambda f: f == "openai-responses",
    "gemini": lambda f: f == "google",
    "openai-chat": lambda f: False,
    "openrouter": lambda f: f is not None and f.endswith("-v1"),
    "bedrock": lambda f: f in ("bedrock", "bedrock-redacted"),
    "cohere": lambda f: False,
}
_DEFAULT_THINKING_MODEL = "model-of-the-stream"


def _uncarried_usage(provider: str) -> list[str]:
    """The usage counts a dialect's stream cannot carry (``harness.emit.dialects.USAGE_DETAILS``)."""
    from harness.emit.dialects import USAGE_DETAILS

    carried = USAGE_DETAILS.get(provider)
    if carried is None:
        return []
    return [
        n
        for n in ("cached_input_tokens", "cache_creation_input_tokens", "reasoning_tokens")
        if n not in carried
    ]


#: Providers whose stream has no reasoning field (OpenAI's Chat: ``reasoning_content`` is DeepSeek's).
_NO_REASONING = frozenset({"openai-chat"})


class Projection:
    """The projected message and what was rewritten to get it (one line each)."""

    def __init__(self, message: AssistantMessage, changes: list[str]) -> None:
        self.message = message
        self.changes = changes


def project(
    provider: str, message: AssistantMessage, representable: Callable[[str, AssistantMessage], str | None]
) -> Projection:
    """``message`` reduced to what ``provider``'s stream can carry; NotRepresentable if even that fails."""
    changes: list[str] = []
    parts = _parts(provider, message.parts, changes)
    usage = _usage(provider, message.usage or Usage(), changes)
    calls = any(isinstance(p, ToolCallPart) for p in parts)
    stop = message.stop_reason
    wanted = "tool_use" if calls else ("stop" if stop in (None, "aborted", "tool_use") else stop)
    if stop == "stop" and calls:
        wanted = "tool_use"
    if wanted != stop:
        changes.append(f"stop_reason {stop!r} -> {wanted!r} (what a stream says for this turn)")
    projected = message.model_copy(update={"parts": parts, "usage": usage, "stop_reason": wanted})
    reason = representable(provider, projected)
    if reason is not None:
        raise NotRepresentable(f"{provider}: {reason}")
    return Projection(projected, changes)


def _parts(provider: str, parts: list[AnyPart], changes: list[str]) -> list[AnyPart]:
    carries = _STREAM_FORMATS.get(provider, lambda f: False)
    out: list[AnyPart] = []
    models = sorted(
        p.model_id for p in parts if isinstance(p, ThinkingTextPart | ThinkingSignaturePart) and p.model_id
    )
    model = models[0] if models else _DEFAULT_THINKING_MODEL
    for index, part in enumerate(parts):
        if isinstance(part, ImageURLPart | ImageFilePart):
            changes.append(f"part {index}: {part.type} dropped (no output stream carries images)")
            continue
        if isinstance(part, ThinkingSignaturePart) and (not part.signature or not carries(part.format)):
            changes.append(f"part {index}: {part.format!r} signature dropped (not carried by {provider})")
            continue
        if isinstance(part, TextPart | ThinkingTextPart) and not part.text:
            changes.append(f"part {index}: empty {part.type} dropped")
            continue
        if isinstance(part, ThinkingTextPart) and provider in _NO_REASONING:
            changes.append(f"part {index}: thinking dropped ({provider}'s stream carries no reasoning)")
            continue
        if provider in ("bedrock", "cohere") and isinstance(part, ThinkingTextPart | ThinkingSignaturePart):
            if part.model_id is not None or part.id is not None:  # the Bedrock/Cohere stream names no model
                part = part.model_copy(update={"model_id": None, "id": None})
        elif isinstance(part, ThinkingTextPart | ThinkingSignaturePart) and part.model_id != model:
            part = part.model_copy(update={"model_id": model})
        out.append(_ids(provider, index, part, out, changes))
    merged = _merge(provider, out, changes)
    if provider == "bedrock":
        return _bedrock_blocks(merged, changes)
    return _anthropic_blocks(merged, changes) if provider == "anthropic" else merged


def _bedrock_blocks(parts: list[AnyPart], changes: list[str]) -> list[AnyPart]:
    """A ``bedrock`` signature rides on the thinking text right before it; one without is dropped."""
    out: list[AnyPart] = []
    for index, part in enumerate(parts):
        before = out[-1] if out else None
        if (
            isinstance(part, ThinkingSignaturePart)
            and part.format == "bedrock"
            and not isinstance(before, ThinkingTextPart)
        ):
            changes.append(f"part {index}: signature without its thinking dropped")
            continue
        out.append(part)
    return out


def _anthropic_blocks(parts: list[AnyPart], changes: list[str]) -> list[AnyPart]:
    """Anthropic signs every thinking block: keep signed pairs and redacted blocks, drop the rest."""
    out: list[AnyPart] = []
    for index, part in enumerate(parts):
        after = parts[index + 1] if index + 1 < len(parts) else None
        before = out[-1] if out else None
        if isinstance(part, ThinkingTextPart):
            if not (isinstance(after, ThinkingSignaturePart) and after.format == "anthropic"):
                changes.append(f"part {index}: unsigned thinking dropped (Anthropic signs every block)")
                continue
            part = part.model_copy(update={"id": None})
        elif isinstance(part, ThinkingSignaturePart):
            paired = isinstance(before, ThinkingTextPart)
            if part.format == "anthropic" and not paired:
                changes.append(f"part {index}: signature without its thinking dropped")
                continue
            part = part.model_copy(update={"id": None})
        out.append(part)
    return out


def _ids(provider: str, index: int, part: AnyPart, before: list[AnyPart], changes: list[str]) -> AnyPart:
    """Item ids exactly where the provider's stream has them."""
    previous = before[-1] if before else None
    if provider == "openai-responses":
        if isinstance(part, TextPart) and not part.item_id:
            return part.model_copy(update={"item_id": f"msg_proj{index}"})
        if isinstance(part, ThinkingTextPart) and not part.id:
            return part.model_copy(update={"id": f"rs_proj{index}"})
        if isinstance(part, ThinkingSignaturePart):
            wanted = previous.id if isinstance(previous, ThinkingTextPart) else part.id or f"rs_proj{index}"
            return part.model_copy(update={"id": wanted}) if part.id != wanted else part
        if isinstance(part, ToolCallPart) and not part.item_id:
            return part.model_copy(update={"item_id": f"fc_proj{index}"})
        return part
    if isinstance(part, TextPart) and (part.item_id, part.phase) != (None, None):
        changes.append(f"part {index}: Responses item_id/phase cleared (no such field on {provider})")
        return part.model_copy(update={"item_id": None, "phase": None})
    if isinstance(part, ToolCallPart) and part.item_id:
        return part.model_copy(update={"item_id": None})
    if isinstance(part, ToolCallPart) and provider == "cohere" and not part.arguments_json:
        changes.append(
            f"part {index}: empty arguments sent as '{{}}' (Cohere reads a call without arguments so)"
        )
        return part.model_copy(update={"arguments_json": "{}"})
    if isinstance(part, ThinkingTextPart) and part.id and provider in ("openai-chat", "gemini"):
        return part.model_copy(update={"id": None})
    return part


def _merge(provider: str, parts: list[AnyPart], changes: list[str]) -> list[AnyPart]:
    """Adjacent pieces a stream delivers as one part are one part."""
    out: list[AnyPart] = []
    for part in parts:
        last = out[-1] if out else None
        same_text = isinstance(part, TextPart) and isinstance(last, TextPart) and last.item_id == part.item_id
        same_thought = (
            isinstance(part, ThinkingTextPart) and isinstance(last, ThinkingTextPart) and last.id == part.id
        )
        if provider != "openai-responses" and (same_text or same_thought):
            assert isinstance(last, TextPart | ThinkingTextPart)
            assert isinstance(part, TextPart | ThinkingTextPart)
            out[-1] = last.model_copy(update={"text": last.text + part.text})
            changes.append(f"adjacent {part.type} parts merged (one part on the {provider} stream)")
            continue
        out.append(part)
    return out


def _usage(provider: str, usage: Usage, changes: list[str]) -> Usage:
    data = {k: (max(v, 0) if isinstance(v, int) else v) for k, v in usage.model_dump().items()}
    if provider in ("anthropic", "bedrock"):
        data["total_tokens"] = None
        if provider == "bedrock":
            data["reasoning_tokens"] = None
        floor = (data["cached_input_tokens"] or 0) + (data["cache_creation_input_tokens"] or 0)
        data["input_tokens"] = max(data["input_tokens"], floor)
    elif provider == "gemini":
        data["cache_creation_input_tokens"] = None
        data["output_tokens"] = max(data["output_tokens"], data["reasoning_tokens"] or 0)
    elif provider == "openai-responses":
        for name in ("cached_input_tokens", "reasoning_tokens"):
            data[name] = data[name] or 0
    elif provider == "cohere":  # the Cohere stream reports input, output and cached tokens only
        data["total_tokens"] = data["reasoning_tokens"] = data["cache_creation_input_tokens"] = None
        changed = Usage(**data)
        if changed != usage:
            changes.append("usage normalised to what the cohere stream reports")
        return changed
    for name in _uncarried_usage(provider):
        data[name] = None
    if provider not in ("anthropic", "bedrock") and data["total_tokens"] is None:
        data["total_tokens"] = data["input_tokens"] + data["output_tokens"]
    projected = Usage(**data)
    if projected != usage:
        changes.append(f"usage normalised to what the {provider} stream reports")
    return projected
