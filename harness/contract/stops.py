"""How a call's end and its token counts are stated, once for both sides.

The reference stream parsers (``harness.stream``) and every bridge (through ``harness.kit``)
build their final message with these functions, and the judges hold every target to the
same rules (``harness.kit.rules`` states them in full), so a bridge cannot disagree with the
reference on bookkeeping that is not the code under audit's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness.model import StopReason, Usage

__all__ = ["FINISH_REASONS", "map_stop_reason", "map_usage", "stop_reason"]

_EMPTY: Mapping[str, Any] = {}  # read-only default for absent objects

#: https://platform.openai.com/docs/api-reference/chat/object (``choices[].finish_reason``).
FINISH_REASONS: dict[str, StopReason] = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "content_filter": "error",
    "error": "error",
}


def stop_reason(
    provider_stop: StopReason | None, *, has_tool_calls: bool, failed: bool = False, aborted: bool = False
) -> StopReason:
    """The canonical stop reason of one call from what the provider said (already mapped)."""
    if aborted:
        return "aborted"
    if failed:
        return "error"
    if provider_stop in (None, "stop") and has_tool_calls:
        return "tool_use"  # a turn that ends in tool calls is tool_use for every provider
    return provider_stop or "stop"


def map_stop_reason(reason: str | None) -> StopReason | None:
    """Chat ``finish_reason`` -> canonical; unknown reasons map to ``stop``."""
    if reason is None:
        return None
    return FINISH_REASONS.get(reason, "stop")


def map_usage(raw: dict[str, Any]) -> Usage:
    """Chat ``usage`` -> canonical (``prompt_tokens`` already includes cached tokens)."""
    prompt = raw.get("prompt_tokens_details") or _EMPTY
    completion = raw.get("completion_tokens_details") or _EMPTY
    cached = prompt.get("cached_tokens")
    if cached is None:
        cached = raw.get("prompt_cache_hit_tokens")
    return Usage(
        input_tokens=raw.get("prompt_tokens") or 0,
        output_tokens=raw.get("completion_tokens") or 0,
        cached_input_tokens=cached,
        cache_creation_input_tokens=prompt.get("cache_write_tokens"),
        reasoning_tokens=completion.get("reasoning_tokens"),
        total_tokens=raw.get("total_tokens"),
    )
