"""OpenRouter: the model facts the mapping depends on, kept apart from the mapping code."""

from __future__ import annotations

from harness.contract.providers import provider_entry
from harness.mapping.call_controls import ControlNames
from harness.mapping.file_support import FileSupport
from harness.mapping.openai_family import OPENAI_TOOL_NAMES, accepts_reasoning
from harness.mapping.wire import IdPolicy

__all__ = [
    "CONTROLS",
    "DEFAULT_MODEL",
    "EXPLICIT_CACHE_MODELS",
    "FILES",
    "ID_POLICY",
    "SIGNATURE_ON_TEXT",
    "TOOL_NAMES",
    "accepts_reasoning",
]

#: The model a request names when ``params.model`` is None (the provider table's).
DEFAULT_MODEL = provider_entry("openrouter").default_model
# ``^[A-Za-z0-9_-]+$`` and at most 64 characters: the intersection of the upstreams' rules
# (Anthropic's pattern, Responses' 64; field lesson 6).
ID_POLICY = IdPolicy(pattern=r"[A-Za-z0-9_-]+", max_length=64)
# OpenRouter forwards OpenAI's tool-name check.
TOOL_NAMES = OPENAI_TOOL_NAMES
# Formats whose signature rides on the reasoning.text entry (Anthropic thinking blocks).
SIGNATURE_ON_TEXT = frozenset({"anthropic-claude-v1", "unknown"})

#: Files (openrouter.ai/docs/features/multimodal): PDFs as ``file`` whose ``file_data`` is a URL or
#: a base64 data URL (recorded: pydantic-ai test_openrouter_document_url_no_force_download),
#: audio as ``input_audio`` (base64 only), video as ``video_url`` (recorded:
#: test_openrouter_video_url_public_api). A tool message is text only: a result's file goes in a
#: user message after the results.
FILES = FileSupport(
    provider="openrouter",
    title="OpenRouter",
    user={
        "pdf": frozenset({"data", "url"}),
        "audio": frozenset({"data"}),
        "video": frozenset({"data", "url"}),
    },
    forms={"audio": "input_audio", "video": "video_url"},
    evidence="openrouter.ai/docs/features/multimodal; recorded test_openrouter_document_url_no_force_download, test_openrouter_video_url_public_api",
)


#: Call controls by native name (openrouter.ai/docs/api-reference/parameters): ``top_p``,
#: ``top_k``, penalties -2..2, ``stop``, ``seed``, ``parallel_tool_calls``; the routing
#: settings ``provider``, ``models``, ``transforms``, ``preset`` (openrouter.ai/docs/features/
#: provider-routing) have no common form and are settings. No service tier, cache key or
#: server-side state on Chat Completions.
CONTROLS = ControlNames(
    "openrouter",
    cache="explicit",
    top_p="top_p",
    top_k="top_k",
    presence_penalty="presence_penalty",
    frequency_penalty="frequency_penalty",
    stop="stop",
    seed="seed",
    parallel_tool_calls="parallel_tool_calls",
    settings=frozenset({"provider", "models", "transforms", "preset"}),
)
#: Models OpenRouter passes ``cache_control`` breakpoints to (openrouter.ai/docs/features/prompt-caching:
#: Anthropic Claude and Google Gemini take explicit breakpoints; OpenAI, DeepSeek, Grok, Groq and
#: others cache on their own). Recorded accepted: ``cache_control`` on system and user text parts
#: to ``anthropic/claude-sonnet-4.6`` (traffic ``openrouter__test_cache``).
EXPLICIT_CACHE_MODELS = ("anthropic/", "google/")
