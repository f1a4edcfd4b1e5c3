"""Where each provider's request goes and how it authenticates: URL, headers, API key variable.

Kept apart from the adapters because it is the only place that knows about keys:
adapters stay pure (no network, no secrets), and this table is easy to review.

Base URLs follow each official SDK's ``base_url`` convention, so ``--base-url`` means
the same thing as in the SDK (OpenAI and OpenRouter include ``/v1``; Anthropic is the
bare host; Gemini includes the API version ``/v1beta``).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from harness.params import CallParams
from harness.providers.gemini.request import endpoint_path as gemini_endpoint_path

__all__ = [
    "ENDPOINTS",
    "NOT_RECORDABLE",
    "Endpoint",
    "HttpRequest",
    "MissingKeyError",
    "api_key_for",
    "build_request",
]


@dataclass(frozen=True)
class Endpoint:
    """One provider's HTTP surface. ``path`` is relative to ``base_url`` (Gemini's depends on params)."""

    provider: str
    key_env: str
    base_url: str
    path: str
    auth_header: str  # "authorization" sends "Bearer KEY"; any other name sends the bare key
    docs: str
    extra_headers: tuple[tuple[str, str], ...] = ()

    def path_for(self, params: CallParams) -> str:
        return gemini_endpoint_path(params) if self.provider == "gemini" else self.path


#: https://platform.openai.com/docs/api-reference/chat/create,
#: https://platform.openai.com/docs/api-reference/responses/create,
#: https://docs.anthropic.com/en/api/messages (x-api-key, anthropic-version),
#: https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent (x-goog-api-key, alt=sse),
#: https://openrouter.ai/docs/api-reference/chat-completion
ENDPOINTS: dict[str, Endpoint] = {
    "openai-chat": Endpoint(
        "openai-chat",
        "OPENAI_API_KEY",
        "https://api.openai.com/v1",
        "chat/completions",
        "authorization",
        "https://platform.openai.com/docs/api-reference/chat/create",
    ),
    "openai-responses": Endpoint(
        "openai-responses",
        "OPENAI_API_KEY",
        "https://api.openai.com/v1",
        "responses",
        "authorization",
        "https://platform.openai.com/docs/api-reference/responses/create",
    ),
    "anthropic": Endpoint(
        "anthropic",
        "ANTHROPIC_API_KEY",
        "https://api.anthropic.com",
        "v1/messages",
        "x-api-key",
        "https://docs.anthropic.com/en/api/messages",
        (("anthropic-version", "2023-06-01"),),
    ),
    "gemini": Endpoint(
        "gemini",
        "GEMINI_API_KEY",
        "https://generativelanguage.googleapis.com/v1beta",
        "",
        "x-goog-api-key",
        "https://ai.google.dev/api/generate-content",
    ),
    "openrouter": Endpoint(
        "openrouter",
        "OPENROUTER_API_KEY",
        "https://openrouter.ai/api/v1",
        "chat/completions",
        "authorization",
        "https://openrouter.ai/docs/api-reference/chat-completion",
    ),
    # The OpenAI-compatible dialects: Bearer keys, Chat Completions paths as their recordings show
    # them (traffic/pydantic-ai-more/, SOURCES.md).
    **{
        provider: Endpoint(provider, key_env, base_url, "chat/completions", "authorization", docs)
        for provider, key_env, base_url, docs in (
            (
                "mistral",
                "MISTRAL_API_KEY",
                "https://api.mistral.ai/v1",
                "https://docs.mistral.ai/api/#tag/chat",
            ),
            (
                "groq",
                "GROQ_API_KEY",
                "https://api.groq.com/openai/v1",
                "https://console.groq.com/docs/openai",
            ),
            ("deepseek", "DEEPSEEK_API_KEY", "https://api.deepseek.com", "https://api-docs.deepseek.com/"),
            (
                "cerebras",
                "CEREBRAS_API_KEY",
                "https://api.cerebras.ai/v1",
                "https://inference-docs.cerebras.ai/api-reference/chat-completions",
            ),
            ("zai", "ZAI_API_KEY", "https://api.z.ai/api/paas/v4", "https://docs.z.ai/api-reference"),
            (
                "huggingface",
                "HF_TOKEN",
                "https://router.huggingface.co/v1",
                "https://huggingface.co/docs/inference-providers",
            ),
        )
    },  # Cohere v2 Chat: a Bearer key (CO_API_KEY, the variable the cohere SDK reads), POST /v2/chat as the
    # recordings show it (traffic/pydantic-ai-more/, api.cohere.com/v2/chat).
    "cohere": Endpoint(
        "cohere",
        "CO_API_KEY",
        "https://api.cohere.com",
        "v2/chat",
        "authorization",
        "https://docs.cohere.com/v2/reference/chat",
    ),
}

#: Providers ``harness record`` cannot reach yet, and why (one line for the CLI).
NOT_RECORDABLE: dict[str, str] = {
    "bedrock": "AWS Bedrock takes SigV4-signed requests, which the recorder does not sign yet; "
    "its recordings come from pydantic-ai's cassettes (traffic/pydantic-ai-more/)",
}


class MissingKeyError(LookupError):
    """The provider's API key variable is unset or empty; ``str()`` is one line for the CLI."""


@dataclass(frozen=True)
class HttpRequest:
    """A request ready to send. ``repr`` hides the headers: they hold the key."""

    method: str
    url: str
    headers: dict[str, str]
    content: bytes

    def __repr__(self) -> str:
        return f"HttpRequest({self.method} {self.url}, {len(self.content)} bytes)"

    def body_json(self) -> Any:
        return json.loads(self.content)


def api_key_for(provider: str, environ: dict[str, str] | None = None) -> str:
    endpoint = ENDPOINTS[provider]
    key = (environ if environ is not None else dict(os.environ)).get(endpoint.key_env, "").strip()
    if not key:
        raise MissingKeyError(f"{endpoint.key_env} is not set (needed to record {provider})")
    return key


def join_url(base_url: str, path: str) -> str:
    """``base + "/" + path``, merging query strings so a base URL may carry its own (e.g. ``?key=``)."""
    base = urlsplit(base_url)
    rel = urlsplit(path)
    full_path = base.path.rstrip("/") + "/" + rel.path.lstrip("/")
    query = parse_qsl(base.query, keep_blank_values=True) + parse_qsl(rel.query, keep_blank_values=True)
    return urlunsplit((base.scheme, base.netloc, full_path, urlencode(query, safe=":/"), ""))


def build_request(
    provider: str, body: dict[str, Any], params: CallParams, api_key: str, base_url: str | None = None
) -> HttpRequest:
    """The POST for one rendered body: provider URL, auth header, JSON content."""
    endpoint = ENDPOINTS[provider]
    url = join_url(base_url or endpoint.base_url, endpoint.path_for(params))
    headers = {
        "content-type": "application/json",
        "accept": "text/event-stream" if params.stream else "application/json",
        endpoint.auth_header: f"Bearer {api_key}" if endpoint.auth_header == "authorization" else api_key,
        **dict(endpoint.extra_headers),
    }
    content = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return HttpRequest("POST", url, headers, content)
