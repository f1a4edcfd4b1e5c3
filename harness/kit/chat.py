"""A Chat Completions response, as the code under audit returned it, -> the canonical ``CallResult``.

Every bridge over code that hands back OpenAI-shaped completions (the openai SDK, litellm for
every provider it routes, OpenRouter) repeated the same thirty lines: the first choice's
text and tool calls, ``finish_reason`` mapped to a stop reason, ``usage`` mapped to canonical
counts, the id kept only when the provider sent it. This is that conversion, once. The
``finish_reason`` and ``usage`` mappings (``map_stop_reason``, ``map_usage``) are the
contract's (``harness.contract.stops``), which the reference Chat Completions parser reads too,
so a bridge cannot disagree with the reference on bookkeeping that is the bridge's, not the
code under audit's (the kit, like a judge, imports nothing of the reference side). Text and tool calls are the code's output; reasoning
fields beyond the Chat Completions schema (``reasoning_content``, ``thinking_blocks``) are
not read: a bridge whose library returns them converts them itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from harness.contract.exchange import Exchange
from harness.contract.results import CallResult, StreamItem, TextDelta
from harness.contract.stops import FINISH_REASONS, map_stop_reason, map_usage
from harness.kit.rules import final_result, minted_id_notes, sent_id
from harness.model import AnyPart, TextPart, ToolCallPart

__all__ = ["FINISH_REASONS", "chat_completion_result", "map_stop_reason", "map_usage"]


def _mapping(value: Any) -> Mapping[str, Any]:
    """A plain dict of an SDK object (pydantic ``model_dump``) or of a mapping; {} for None."""
    if value is None:
        return {}
    if hasattr(value, "model_dump"):
        return cast(Mapping[str, Any], value.model_dump())
    return cast(Mapping[str, Any], value)


def chat_completion_result(
    completion: Any,
    exchange: Exchange,
    *,
    errors: Sequence[str] = (),
    items: Sequence[StreamItem] | None = None,
) -> CallResult:
    """The one final message of a Chat Completions response (an SDK object or its dict).

    ``items`` None means one ``TextDelta`` per text part (what a stream of it carried);
    ``errors`` are the call's failures, if any (a cut stream the code still assembled).
    """
    data = _mapping(completion)
    choices = cast(list[Any], data.get("choices") or [])
    choice = _mapping(choices[0] if choices else None)
    message = _mapping(choice.get("message"))
    parts: list[AnyPart] = []
    content = message.get("content")
    if isinstance(content, str) and content:
        parts.append(TextPart(text=content))
    for raw in cast(list[Any], message.get("tool_calls") or []):
        call = _mapping(raw)
        function = _mapping(call.get("function"))
        if call.get("type", "function") == "function":
            parts.append(
                ToolCallPart(
                    call_id=str(call.get("id") or ""),
                    tool_name=str(function.get("name") or ""),
                    arguments_json=str(function.get("arguments") or ""),
                )
            )
    reason = choice.get("finish_reason")
    raw_usage = data.get("usage")
    return final_result(
        parts,
        provider_stop=map_stop_reason(reason if isinstance(reason, str) else None),
        usage=None if raw_usage is None else map_usage(dict(_mapping(raw_usage))),
        errors=errors,
        items=[TextDelta(text=p.text) for p in parts if isinstance(p, TextPart)] if items is None else items,
        response_id=sent_id(cast(str | None, data.get("id")), exchange),
        notes=minted_id_notes(parts, exchange),
    )
