"""OpenAI Responses: the model facts the mapping depends on, kept apart from the mapping code."""

from __future__ import annotations

from harness.contract.providers import provider_entry
from harness.mapping.call_controls import ControlNames
from harness.mapping.openai_family import OPENAI_TOOL_NAMES, accepts_reasoning
from harness.mapping.wire import IdPolicy

__all__ = [
    "CONTROLS",
    "DEFAULT_MODEL",
    "ID_POLICY",
    "MESSAGE_PHASES",
    "MIN_OUTPUT_TOKENS",
    "TOOL_NAMES",
    "accepts_reasoning",
]

PROVIDER_ID = "openai-responses"
#: The model a request names when ``params.model`` is None (the provider table's).
DEFAULT_MODEL = provider_entry("openai-responses").default_model
# FunctionCallOutputItemParam.call_id: maxLength 64 (field lesson 6).
ID_POLICY = IdPolicy(max_length=64)
TOOL_NAMES = OPENAI_TOOL_NAMES
# CreateResponse.max_output_tokens: minimum 16.
MIN_OUTPUT_TOKENS = 16
# MessagePhase (OutputMessage.phase, EasyInputMessage.phase).
MESSAGE_PHASES = ("commentary", "final_answer")

#: Call controls by native name (openai 3.54 ``ResponseCreateParams``; API reference
#: responses/create): ``top_p``, ``parallel_tool_calls``, ``service_tier``, ``prompt_cache_key``,
#: ``prompt_cache_retention``, server-side state (``previous_response_id``, ``conversation``,
#: ``store``, ``background``, ``include``); ``moderation`` as a setting. Responses has no
#: ``top_k``, penalties, ``stop`` or ``seed``.
CONTROLS = ControlNames(
    "openai-responses",
    top_p="top_p",
    parallel_tool_calls="parallel_tool_calls",
    service_tier="service_tier",
    service_tiers=frozenset({"auto", "default", "flex", "scale", "priority", "fast", "ultrafast"}),
    cache_key="prompt_cache_key",
    cache_retention="prompt_cache_retention",
    previous_response_id="previous_response_id",
    conversation="conversation",
    store="store",
    background="background",
    include="include",
    settings=frozenset({"moderation", "safety_identifier"}),
)
