"""Cerebras (``api.cerebras.ai``): the model facts and dialect rules the mapping depends on.

Evidence: docs/field-rules.md ("Cerebras") and the recordings in traffic/pydantic-ai-more/
(``api.cerebras.ai``, 7 model calls, all accepted).
"""

from __future__ import annotations

from harness.contract.providers import provider_entry
from harness.mapping.call_controls import ControlNames
from harness.mapping.file_support import FileSupport
from harness.mapping.openai_family import OPENAI_TOOL_NAMES
from harness.mapping.wire import IdPolicy

__all__ = [
    "CONTROLS",
    "DEFAULT_MODEL",
    "FILES",
    "ID_POLICY",
    "TOOL_NAMES",
    "reasoning_models",
]

#: The model a request names when ``params.model`` is None (the provider table's).
DEFAULT_MODEL = provider_entry("cerebras").default_model
ID_POLICY = IdPolicy()
TOOL_NAMES = OPENAI_TOOL_NAMES


def reasoning_models(model: str) -> bool:
    """Models that take ``reasoning_effort`` (recorded: zai-glm-4.7 with ``reasoning_effort: "none"``
    and ``clear_thinking``; Cerebras docs: gpt-oss-120b low/medium/high)."""
    return model.startswith(("zai-glm", "gpt-oss"))


#: Files: none. Cerebras's chat messages take text content (inference-docs.cerebras.ai/api-reference/chat-completions); no file part. A text document goes as its decoded text (``file-text-inlined``); any other
#: file is dropped with ``file-kind-unsupported``.
FILES = FileSupport(
    provider="cerebras",
    title="Cerebras Chat Completions",
    evidence="Cerebras's chat messages take text content (inference-docs.cerebras.ai/api-reference/chat-completions); no file part.",
)


#: Call controls by native name (cerebras-cloud-sdk 1.91 ``CompletionCreateParams``): ``top_p``,
#: penalties -2..2, ``stop`` (up to 4), ``seed``, ``parallel_tool_calls``, ``service_tier``.
#: No ``top_k``, cache key or server-side state.
CONTROLS = ControlNames(
    "cerebras",
    top_p="top_p",
    presence_penalty="presence_penalty",
    frequency_penalty="frequency_penalty",
    stop="stop",
    seed="seed",
    parallel_tool_calls="parallel_tool_calls",
    service_tier="service_tier",
    service_tiers=frozenset({"auto", "default", "flex", "priority"}),
    max_stop=4,
)
