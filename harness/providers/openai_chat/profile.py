"""OpenAI Chat Completions: the model facts the mapping depends on, kept apart from the mapping code."""

from __future__ import annotations

from harness.contract.providers import provider_entry
from harness.mapping.call_controls import ControlNames
from harness.mapping.openai_family import OPENAI_TOOL_NAMES, accepts_reasoning
from harness.mapping.wire import IdPolicy

__all__ = ["ACCEPTS_SYSTEM_ONLY", "CONTROLS", "DEFAULT_MODEL", "ID_POLICY", "TOOL_NAMES", "accepts_reasoning"]

#: The model a request names when ``params.model`` is None (the provider table's).
DEFAULT_MODEL = provider_entry("openai-chat").default_model
# ChatCompletionMessageToolCall.id: the API enforces maxLength 40 (not in the spec).
ID_POLICY = IdPolicy(max_length=40)
TOOL_NAMES = OPENAI_TOOL_NAMES
#: ``messages`` holding only the system message is accepted
#: (traffic/pydantic-ai/models__test_openai__test_openai_model_without_system_prompt.yaml#0, o3-mini):
#: no placeholder user message is invented after a system-only history.
ACCEPTS_SYSTEM_ONLY = True

#: Call controls by native name (openai 3.54 ``CompletionCreateParams``; API reference
#: chat/create): ``top_p`` 0..1, penalties -2..2, ``stop`` up to 4 sequences, ``seed``,
#: ``parallel_tool_calls``, ``service_tier``, ``prompt_cache_key`` / ``prompt_cache_retention``,
#: ``store``; ``moderation`` (recorded accepted with ``omni-moderation-latest``) as a setting.
#: No ``top_k``, no server-side conversation state.
CONTROLS = ControlNames(
    "openai-chat",
    top_p="top_p",
    presence_penalty="presence_penalty",
    frequency_penalty="frequency_penalty",
    stop="stop",
    seed="seed",
    parallel_tool_calls="parallel_tool_calls",
    service_tier="service_tier",
    service_tiers=frozenset({"auto", "default", "flex", "scale", "priority", "fast"}),
    cache_key="prompt_cache_key",
    cache_retention="prompt_cache_retention",
    store="store",
    settings=frozenset({"moderation", "safety_identifier"}),
    max_stop=4,
)
