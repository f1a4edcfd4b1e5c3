"""Groq (``api.groq.com/openai/v1``): the model facts and dialect rules the mapping depends on.

Evidence: docs/field-rules.md ("Groq"), https://console.groq.com/docs/openai and
https://console.groq.com/docs/reasoning, and the recordings in traffic/pydantic-ai-more/
(``api.groq.com``, 49 model calls).
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
    "KIMI_REASONING_FIELD",
    "TOOL_NAMES",
    "effort_models",
    "format_models",
    "switch_models",
]

#: The model a request names when ``params.model`` is None (the provider table's).
DEFAULT_MODEL = provider_entry("groq").default_model
#: Groq accepts other providers' ids verbatim (recorded 200 with ``pyd_ai_445d...`` and
#: ``fc_311ba17b-...``: models__test_groq__test_tool_use_failed_error.yaml#2).
ID_POLICY = IdPolicy()
TOOL_NAMES = OPENAI_TOOL_NAMES
#: Groq's assistant message takes reasoning back as ``reasoning`` ("The reasoning output by the
#: assistant if reasoning_format was set to 'parsed'": groq SDK 1.7.0
#: types/chat/chat_completion_assistant_message_param.py, ``reasoning``); its SDK refuses
#: ``reasoning_content`` (extra_forbidden). A Kimi thinking model's tool calls carry it there.
KIMI_REASONING_FIELD = "reasoning"


def effort_models(model: str) -> bool:
    """gpt-oss takes ``reasoning_effort`` low/medium/high (recorded: groq-gpt-oss-thinking-*)."""
    return model.startswith("openai/gpt-oss")


def switch_models(model: str) -> bool:
    """Qwen 3 takes ``reasoning_effort`` "none" (off) or "default" (recorded: groq-qwen3-disable)."""
    return model.startswith("qwen/qwen3")


def format_models(model: str) -> bool:
    """DeepSeek R1 distills take ``reasoning_format`` alone and cannot stop reasoning (recorded
    ``parsed`` accepted: models__test_groq__test_groq_model_thinking_part.yaml#1 on
    deepseek-r1-distill-llama-70b; console.groq.com/docs/reasoning)."""
    return model.startswith("deepseek-r1-distill")


#: Files: none. Groq's chat content parts are text and image_url (docs: console.groq.com/docs/vision; speech goes to /audio/transcriptions, not chat); recorded: pydantic-ai multimodal_tool_return_matrix[*-groq] sends documents, audio and video to Groq only as text or a URL in text. A text document goes as its decoded text (``file-text-inlined``); any other
#: file is dropped with ``file-kind-unsupported``.
FILES = FileSupport(
    provider="groq",
    title="Groq Chat Completions",
    evidence="Groq's chat content parts are text and image_url (docs: console.groq.com/docs/vision; speech goes to /audio/transcriptions, not chat); recorded: pydantic-ai multimodal_tool_return_matrix[*-groq] sends documents, audio and video to Groq only as text or a URL in text.",
)


#: Call controls by native name (groq 1.7 ``CompletionCreateParams``; console.groq.com/docs/api-reference):
#: ``top_p``, penalties -2..2, ``stop`` (up to 4), ``seed``, ``parallel_tool_calls``,
#: ``service_tier`` (``on_demand``, ``flex``, ``auto``, ``performance``). No ``top_k``, cache key
#: or server-side state.
CONTROLS = ControlNames(
    "groq",
    top_p="top_p",
    presence_penalty="presence_penalty",
    frequency_penalty="frequency_penalty",
    stop="stop",
    seed="seed",
    parallel_tool_calls="parallel_tool_calls",
    service_tier="service_tier",
    service_tiers=frozenset({"auto", "on_demand", "flex", "performance"}),
    max_stop=4,
)
