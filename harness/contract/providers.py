"""The pinned provider ids (DESIGN "Adapters"), for code that must not import the reference adapters."""

from __future__ import annotations

__all__ = ["CHAT_DIALECTS", "ENDPOINTS", "PROVIDERS"]

PROVIDERS: tuple[str, ...] = (
    "anthropic",
    "gemini",
    "openai-chat",
    "openai-responses",
    "openrouter",
    "bedrock",
    # OpenAI-compatible Chat Completions dialects (issue 27): CHAT_DIALECTS below.
    "mistral",
    "groq",
    "deepseek",
    "cerebras",
    "zai",
    "huggingface",
    "cohere",  # Cohere v2 Chat: a wire of its own (issue 27)
)

#: Providers that speak the OpenAI Chat Completions wire with rules of their own: a judge
#: keyed by wire treats them as ``openai-chat`` unless it knows better.
CHAT_DIALECTS: tuple[str, ...] = ("mistral", "groq", "deepseek", "cerebras", "zai", "huggingface")

#: Endpoints that serve a provider's wire beside its own API (``harness render --endpoint``, the
#: router's ``Route.endpoint``): ``bedrock``, AWS Bedrock's InvokeModel with Anthropic's Messages
#: body; ``vertex``, Google Vertex AI's generateContent with Gemini's. Each is a module of the
#: provider's folder (``harness/providers/anthropic/bedrock.py``, ``harness/providers/gemini/vertex.py``).
ENDPOINTS: dict[str, tuple[str, ...]] = {"anthropic": ("bedrock",), "gemini": ("vertex",)}
