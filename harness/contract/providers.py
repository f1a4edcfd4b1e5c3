"""The pinned provider ids (DESIGN "Adapters"), for code that must not import the reference adapters."""

from __future__ import annotations

__all__ = ["PROVIDERS"]

PROVIDERS: tuple[str, ...] = (
    "anthropic",
    "gemini",
    "openai-chat",
    "openai-responses",
    "openrouter",
    "bedrock",
)
