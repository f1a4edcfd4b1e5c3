"""The one URL router: every provider endpoint, OpenRouter's two formats, compatible hosts, non-model calls."""

from __future__ import annotations

import pytest

from harness.contract.routing import route


@pytest.mark.parametrize(
    ("method", "url", "provider", "wire"),
    [
        ("POST", "https://api.anthropic.com/v1/messages?beta=true", "anthropic", "anthropic"),
        ("POST", "https://api.openai.com/v1/chat/completions", "openai-chat", "openai-chat"),
        ("POST", "https://api.openai.com/v1/responses", "openai-responses", "openai-responses"),
        (
            "POST",
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
            "gemini",
            "gemini",
        ),
        (
            "POST",
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:generateContent",
            "gemini",
            "gemini",
        ),
        ("POST", "https://openrouter.ai/api/v1/chat/completions", "openrouter", "openai-chat"),
        ("POST", "https://openrouter.ai/api/v1/responses", "openrouter", "openai-responses"),
        # the OpenAI-compatible dialects route to their own providers by host
        ("POST", "https://api.groq.com/openai/v1/chat/completions", "groq", "openai-chat"),
        ("POST", "https://api.deepseek.com/chat/completions", "deepseek", "openai-chat"),
        ("POST", "https://api.deepseek.com/responses", "deepseek", "openai-responses"),
        ("POST", "https://api.mistral.ai/v1/chat/completions", "mistral", "openai-chat"),
        ("POST", "https://api.cerebras.ai/v1/chat/completions", "cerebras", "openai-chat"),
        ("POST", "https://api.z.ai/api/paas/v4/chat/completions", "zai", "openai-chat"),
        ("POST", "https://open.bigmodel.cn/api/paas/v4/chat/completions", "zai", "openai-chat"),
        ("POST", "https://router.huggingface.co/together/v1/chat/completions", "huggingface", "openai-chat"),
        ("POST", "https://proxy.example.com/v1/chat/completions", "openai-chat", "openai-chat"),
    ],
)
def test_model_calls_route_to_their_provider_and_wire(
    method: str, url: str, provider: str, wire: str
) -> None:
    found = route(method, url)
    assert found is not None
    assert (found.provider, found.wire) == (provider, wire)


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("GET", "https://api.openai.com/v1/models"),
        ("POST", "https://api.openai.com/v1/files"),
        ("GET", "https://api.anthropic.com/v1/messages"),
        ("POST", "https://api.anthropic.com/v1/messages/count_tokens"),
        ("POST", "https://generativelanguage.googleapis.com/upload/v1beta/files"),
        ("POST", "https://openrouter.ai/api/v1/models"),
    ],
)
def test_other_calls_are_not_model_calls(method: str, url: str) -> None:
    assert route(method, url) is None
