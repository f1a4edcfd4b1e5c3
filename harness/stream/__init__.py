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


def get_parser(provider: str) -> type[StreamParser]:
    """The reference parser class for a provider id (a fresh instance per model call)."""
    if provider not in _MODULES:
        raise ValueError(f"unknown provider '{provider}' (expected one of: {', '.join(sorted(_MODULES))})")
    parser: type[StreamParser] = import_module(_MODULES[provider]).PARSER
    return parser
