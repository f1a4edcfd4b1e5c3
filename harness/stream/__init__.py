"""Reference output adapters: provider stream -> stream items + one final assistant message."""

from __future__ import annotations

from importlib import import_module

from harness.stream.base import CallResult, StreamItem, StreamParser, TextDelta, ThinkingDelta, ToolCallStart

__all__ = [
    "CallResult",
    "StreamItem",
    "StreamParser",
    "TextDelta",
    "ThinkingDelta",
    "ToolCallStart",
    "get_parser",
]

_MODULES = {
    "anthropic": "harness.stream.anthropic",
    "gemini": "harness.stream.gemini",
    "openai-chat": "harness.stream.openai_chat",
    "openai-responses": "harness.stream.openai_responses",
    "openrouter": "harness.stream.openrouter",
}

# Providers that serve more than one wire format: (provider, wire) -> module.
_WIRE_MODULES = {("openrouter", "openai-responses"): "harness.stream.openrouter_responses"}


def get_parser(provider: str, wire: str | None = None) -> type[StreamParser]:
    """The reference parser class for a provider id (a fresh instance per model call).

    ``wire`` picks between a provider's wire formats (OpenRouter: ``openai-chat``, the
    default, or ``openai-responses``); None or the provider's own format is the default.
    """
    if provider not in _MODULES:
        raise ValueError(f"unknown provider '{provider}' (expected one of: {', '.join(sorted(_MODULES))})")
    module = _WIRE_MODULES.get((provider, wire or ""), _MODULES[provider])
    parser: type[StreamParser] = import_module(module).PARSER
    return parser
