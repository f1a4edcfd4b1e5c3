"""DeepSeek (``api.deepseek.com``): the model facts and dialect rules the mapping depends on.

Evidence: docs/field-rules.md ("DeepSeek"), https://api-docs.deepseek.com/guides/thinking_mode
and https://api-docs.deepseek.com/guides/reasoning_model, the recordings in
traffic/pydantic-ai-more/ (``api.deepseek.com``: 1 Chat, 10 Responses-compatible calls).
"""

from __future__ import annotations

from harness.mapping.openai_family import OPENAI_TOOL_NAMES
from harness.mapping.wire import IdPolicy

__all__ = [
    "DEFAULT_MODEL",
    "ID_POLICY",
    "MAX_TOKENS_FIELD",
    "TOOL_NAMES",
    "refuses_reasoning_input",
    "thinking_by_default",
]

#: The model a request names when ``params.model`` is None (the recorded Responses calls' model).
DEFAULT_MODEL = "deepseek-v4-flash"
ID_POLICY = IdPolicy()
TOOL_NAMES = OPENAI_TOOL_NAMES
#: DeepSeek's create-chat-completion documents ``max_tokens``.
MAX_TOKENS_FIELD = "max_tokens"


def refuses_reasoning_input(model: str) -> bool:
    """deepseek-reasoner (R1): "if you pass reasoning_content in the input messages, the API
    returns a 400 error" (guides/reasoning_model)."""
    return model == "deepseek-reasoner"


def thinking_by_default(model: str) -> bool:
    """Thinking mode is on by default (guides/thinking_mode, "default enabled"), except on
    ``deepseek-chat``, the non-thinking alias."""
    return model != "deepseek-chat"
