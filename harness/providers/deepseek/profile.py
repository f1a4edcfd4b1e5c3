"""DeepSeek (``api.deepseek.com``): the model facts and dialect rules the mapping depends on.

Evidence: docs/field-rules.md ("DeepSeek"), https://api-docs.deepseek.com/guides/thinking_mode
and https://api-docs.deepseek.com/guides/reasoning_model, the recordings in
traffic/pydantic-ai-more/ (``api.deepseek.com``: 1 Chat, 10 Responses-compatible calls).
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
    "MAX_TOKENS_FIELD",
    "TOOL_NAMES",
    "thinking_by_default",
    "thinking_by_name",
]

#: The model a request names when ``params.model`` is None (the provider table's).
DEFAULT_MODEL = provider_entry("deepseek").default_model
ID_POLICY = IdPolicy()
TOOL_NAMES = OPENAI_TOOL_NAMES
#: DeepSeek's create-chat-completion documents ``max_tokens``.
MAX_TOKENS_FIELD = "max_tokens"


def thinking_by_name(model: str) -> bool:
    """``deepseek-reasoner`` is thinking mode by its name (guides/thinking_mode: "Set the model
    parameter: deepseek-reasoner", the other switch being ``thinking``), so its tool loops need
    ``reasoning_content`` like any thinking-mode loop: "Missing reasoning_content field in the
    assistant message at message index 2" on deepseek-reasoner with tools (zed-industries/zed
    #44301, verified against the API). The first reasoner's (R1's) 400 on any
    ``reasoning_content`` in input (the old guides/reasoning_model) is no longer what the name
    serves: pydantic-ai sends it back to deepseek-reasoner too (pydantic_ai/providers/deepseek.py
    lines 62-70, ``openai_chat_send_back_thinking_parts='field'`` for every DeepSeek model)."""
    return model == "deepseek-reasoner"


def thinking_by_default(model: str) -> bool:
    """Thinking mode is on by default (guides/thinking_mode, "default enabled"), except on
    ``deepseek-chat``, the non-thinking alias."""
    return model != "deepseek-chat"


#: Files: none. DeepSeek's user content is a string (api-docs.deepseek.com/api/create-chat-completion); no file part. A text document goes as its decoded text (``file-text-inlined``); any other
#: file is dropped with ``file-kind-unsupported``.
FILES = FileSupport(
    provider="deepseek",
    title="DeepSeek Chat Completions",
    evidence="DeepSeek's user content is a string (api-docs.deepseek.com/api/create-chat-completion); no file part.",
)


#: Call controls by native name (api-docs.deepseek.com/api/create-chat-completion): ``top_p``
#: (0..1), penalties -2..2, ``stop`` (up to 16). No ``top_k``, ``seed``, parallel switch,
#: service tier or cache key: DeepSeek caches prefixes on disk by itself.
CONTROLS = ControlNames(
    "deepseek",
    top_p="top_p",
    presence_penalty="presence_penalty",
    frequency_penalty="frequency_penalty",
    stop="stop",
    max_stop=16,
)
