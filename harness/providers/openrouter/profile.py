"""OpenRouter: the model facts the mapping depends on, kept apart from the mapping code."""

from __future__ import annotations

from harness.contract.providers import provider_entry
from harness.mapping.openai_family import OPENAI_TOOL_NAMES, accepts_reasoning
from harness.mapping.wire import IdPolicy

__all__ = ["DEFAULT_MODEL", "ID_POLICY", "SIGNATURE_ON_TEXT", "TOOL_NAMES", "accepts_reasoning"]

#: The model a request names when ``params.model`` is None (the provider table's).
DEFAULT_MODEL = provider_entry("openrouter").default_model
# ``^[A-Za-z0-9_-]+$`` and at most 64 characters: the intersection of the upstreams' rules
# (Anthropic's pattern, Responses' 64; field lesson 6).
ID_POLICY = IdPolicy(pattern=r"[A-Za-z0-9_-]+", max_length=64)
# OpenRouter forwards OpenAI's tool-name check.
TOOL_NAMES = OPENAI_TOOL_NAMES
# Formats whose signature rides on the reasoning.text entry (Anthropic thinking blocks).
SIGNATURE_ON_TEXT = frozenset({"anthropic-claude-v1", "unknown"})
