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
from dataclasses import dataclass
from typing import Any

from harness.contract.providers import provider_entry
from harness.emit.common import NotRepresentable
from harness.model import (
    AnyPart,
    AssistantMessage,
    FilePart,
    ImageFilePart,
    ImageURLPart,
    ServerToolCallPart,
    ServerToolResultPart,
    SourcePart,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    Usage,
)

__all__ = ["Projection", "project"]

_DEFAULT_THINKING_MODEL = "model-of-the-stream"
#: Providers whose emitter streams their own server tool blocks and citations (``harness.emit.anthropic``,
#: ``harness.emit.bedrock``: system tools and citations; ``harness.emit.cohere``: citations).
_CARRIES_PROVIDER_PARTS = frozenset({"anthropic", "bedrock", "cohere"})


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
    formats = provider_entry(provider).signature_formats
    form = _form(provider)
    out: list[AnyPart] = []
    models = sorted(
        p.model_id for p in parts if isinstance(p, ThinkingTextPart | ThinkingSignaturePart) and p.model_id
    )
    model = models[0] if models else _DEFAULT_THINKING_MODEL
    for index, part in enumerate(parts):
        if isinstance(part, ImageURLPart | ImageFilePart | FilePart):
            # generated files (Responses images, Chat audio, Gemini inline data) are not emitted here
            changes.append(
                f"part {index}: {part.type} dropped (the emitted streams carry no images or files)"
            )
            continue
        if isinstance(part, ThinkingSignaturePart) and (not part.signature or part.format not in formats):
            changes.append(f"part {index}: {part.format!r} signature dropped (not carried by {provider})")
            continue
        if isinstance(part, ServerToolCallPart | ServerToolResultPart | SourcePart) and (
            part.provider != provider or part.raw is None or provider not in _CARRIES_PROVIDER_PARTS
        ):
            changes.append(
                f"part {index}: {part.type} dropped (not a block {provider}'s emitted stream carries)"
            )
            continue
        if isinstance(part, TextPart | ThinkingTextPart) and not part.text:
            changes.append(f"part {index}: empty {part.type} dropped")
            continue
        if (
            isinstance(part, ToolCallPart)
            and part.caller is not None
            and (provider != "anthropic" or part.caller.get("type") == "direct")
        ):
            changes.append(
                f"part {index}: caller cleared (only Anthropic's stream carries one, never 'direct')"
            )
            part = part.model_copy(update={"caller": None})
        if isinstance(part, ThinkingTextPart) and not form.reasoning:
            changes.append(f"part {index}: thinking dropped ({provider}'s stream carries no reasoning)")
            continue
        if not form.names_model and isinstance(part, ThinkingTextPart | ThinkingSignaturePart):
            if part.model_id is not None or part.id is not None:  # the stream names no model
                part = part.model_copy(update={"model_id": None, "id": None})
        elif isinstance(part, ThinkingTextPart | ThinkingSignaturePart) and part.model_id != model:
            part = part.model_copy(update={"model_id": model})
        out.append(form.ids(provider, index, part, out, changes))
    merged = _merge(provider, out, changes) if form.merges else out
    return form.blocks(merged, changes)


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


def _item_ids(provider: str, index: int, part: AnyPart, before: list[AnyPart], changes: list[str]) -> AnyPart:
    """Responses: every part is an item (or a piece of one) with its own id."""
    previous = before[-1] if before else None
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


def _keep_thinking_ids(
    provider: str, index: int, part: AnyPart, before: list[AnyPart], changes: list[str]
) -> AnyPart:
    return _no_item_ids(provider, index, part, changes, thinking_ids=True)


def _drop_thinking_ids(
    provider: str, index: int, part: AnyPart, before: list[AnyPart], changes: list[str]
) -> AnyPart:
    return _no_item_ids(provider, index, part, changes, thinking_ids=False)


def _no_item_ids(
    provider: str, index: int, part: AnyPart, changes: list[str], *, thinking_ids: bool
) -> AnyPart:
    """No item ids: the Responses fields go; thinking ids go where the stream has none."""
    if isinstance(part, TextPart) and (part.item_id, part.phase) != (None, None):
        changes.append(f"part {index}: Responses item_id/phase cleared (no such field on {provider})")
        return part.model_copy(update={"item_id": None, "phase": None})
    if isinstance(part, ToolCallPart) and part.item_id:
        return part.model_copy(update={"item_id": None})
    if isinstance(part, ThinkingTextPart) and part.id and not thinking_ids:
        return part.model_copy(update={"id": None})
    return part


def _cohere_ids(
    provider: str, index: int, part: AnyPart, before: list[AnyPart], changes: list[str]
) -> AnyPart:
    """Cohere reads a call without arguments as ``{}``."""
    if isinstance(part, ToolCallPart) and not part.item_id and not part.arguments_json:
        changes.append(
            f"part {index}: empty arguments sent as '{{}}' (Cohere reads a call without arguments so)"
        )
        return part.model_copy(update={"arguments_json": "{}"})
    return _no_item_ids(provider, index, part, changes, thinking_ids=True)


def _merge(provider: str, parts: list[AnyPart], changes: list[str]) -> list[AnyPart]:
    """Adjacent pieces a stream delivers as one part are one part."""
    out: list[AnyPart] = []
    for part in parts:
        last = out[-1] if out else None
        same_text = isinstance(part, TextPart) and isinstance(last, TextPart) and last.item_id == part.item_id
        same_thought = (
            isinstance(part, ThinkingTextPart) and isinstance(last, ThinkingTextPart) and last.id == part.id
        )
        if same_text or same_thought:
            assert isinstance(last, TextPart | ThinkingTextPart)
            assert isinstance(part, TextPart | ThinkingTextPart)
            out[-1] = last.model_copy(update={"text": last.text + part.text})
            changes.append(f"adjacent {part.type} parts merged (one part on the {provider} stream)")
            continue
        out.append(part)
    return out


def _usage(provider: str, usage: Usage, changes: list[str]) -> Usage:
    data = {k: (max(v, 0) if isinstance(v, int) else v) for k, v in usage.model_dump().items()}
    _form(provider).usage(data)
    dialect = provider_entry(provider).chat
    if dialect is not None:  # only the usage details the dialect's stream reports
        for name in ("cached_input_tokens", "cache_creation_input_tokens", "reasoning_tokens"):
            if name not in dialect.usage_details:
                data[name] = None
    projected = Usage(**data)
    if projected != usage:
        changes.append(f"usage normalised to what the {provider} stream reports")
    return projected


def _total(data: dict[str, Any]) -> None:
    if data["total_tokens"] is None:
        data["total_tokens"] = data["input_tokens"] + data["output_tokens"]


def _anthropic_usage(data: dict[str, Any]) -> None:
    """No total, and input at least cache reads plus writes (Anthropic's own excludes both)."""
    data["total_tokens"] = None
    floor = (data["cached_input_tokens"] or 0) + (data["cache_creation_input_tokens"] or 0)
    data["input_tokens"] = max(data["input_tokens"], floor)


def _bedrock_usage(data: dict[str, Any]) -> None:
    """Anthropic's rules, and no reasoning count."""
    data["reasoning_tokens"] = None
    _anthropic_usage(data)


def _gemini_usage(data: dict[str, Any]) -> None:
    """No cache writes; output counts thoughts, so it is at least the reasoning count."""
    data["cache_creation_input_tokens"] = None
    data["output_tokens"] = max(data["output_tokens"], data["reasoning_tokens"] or 0)
    _total(data)


def _responses_usage(data: dict[str, Any]) -> None:
    """The details are always there, 0 when nothing was cached or reasoned."""
    for name in ("cached_input_tokens", "reasoning_tokens"):
        data[name] = data[name] or 0
    _total(data)


def _cohere_usage(data: dict[str, Any]) -> None:
    """Input, output and cached tokens only."""
    data["total_tokens"] = data["reasoning_tokens"] = data["cache_creation_input_tokens"] = None


_Ids = Callable[[str, int, AnyPart, list[AnyPart], list[str]], AnyPart]


def _as_is(parts: list[AnyPart], changes: list[str]) -> list[AnyPart]:
    return parts


@dataclass(frozen=True)
class _Form:
    """What one wire's stream can carry, as the projection rewrites to it."""

    usage: Callable[[dict[str, Any]], None]
    ids: _Ids = _keep_thinking_ids
    #: Signatures paired (or dropped) the way the stream's blocks carry them.
    blocks: Callable[[list[AnyPart], list[str]], list[AnyPart]] = _as_is
    #: Adjacent pieces of one kind are one part on the stream (not so for Responses items).
    merges: bool = True
    #: The stream names its model (Bedrock's and Cohere's do not: thinking parts carry none).
    names_model: bool = True
    #: The stream carries reasoning text (OpenAI's Chat does not: ``reasoning_content`` is DeepSeek's).
    reasoning: bool = True


#: Forms by (wire, whether the provider signs its reasoning): OpenRouter signs Chat reasoning in
#: ``reasoning_details``, whose entries keep their ids.
_FORMS: dict[tuple[str, bool], _Form] = {
    ("anthropic", True): _Form(_anthropic_usage, blocks=_anthropic_blocks),
    ("bedrock-converse", True): _Form(_bedrock_usage, blocks=_bedrock_blocks, names_model=False),
    ("gemini", True): _Form(_gemini_usage, _drop_thinking_ids),
    ("openai-responses", True): _Form(_responses_usage, _item_ids, merges=False),
    ("openai-chat", False): _Form(_total, _drop_thinking_ids, reasoning=False),
    ("openai-chat", True): _Form(_total),
    ("cohere-v2", False): _Form(_cohere_usage, _cohere_ids, names_model=False),
}


#: The Chat dialects' projection keeps thinking ids, which no dialect stream carries, so a
#: message with one has no dialect stream form and its stream checks skip. Dropping them (as
#: ``_FORMS`` does for OpenAI's Chat) would let those checks run; kept as it is until that
#: change of verdicts (skip to run) is made on its own.
_DIALECT_FORM = _Form(_total)


def _form(provider: str) -> _Form:
    entry = provider_entry(provider)
    return _DIALECT_FORM if entry.chat is not None else _FORMS[entry.wire, bool(entry.signature_formats)]
