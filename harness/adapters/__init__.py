"""Reference input adapters, one module per provider id (pinned in DESIGN.md)."""

from __future__ import annotations

from importlib import import_module

from harness.adapters.base import InputAdapter, Rendered, RenderWarning, canonical_json

__all__ = ["PROVIDERS", "InputAdapter", "RenderWarning", "Rendered", "canonical_json", "get_adapter"]

from harness.contract.providers import PROVIDERS

_MODULES = {
    "anthropic": "harness.adapters.anthropic",
    "gemini": "harness.adapters.gemini",
    "openai-chat": "harness.adapters.openai_chat",
    "openai-responses": "harness.adapters.openai_responses",
    "openrouter": "harness.adapters.openrouter",
}


def get_adapter(provider: str) -> InputAdapter:
    """The reference adapter for a provider id; ValueError naming the valid ids otherwise."""
    if provider not in _MODULES:
        raise ValueError(f"unknown provider '{provider}' (expected one of: {', '.join(PROVIDERS)})")
    adapter: InputAdapter = import_module(_MODULES[provider]).ADAPTER
    return adapter
