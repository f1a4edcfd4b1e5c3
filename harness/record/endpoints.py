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
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from harness.params import CallParams
from harness.providers.gemini.request import endpoint_path as gemini_endpoint_path
from harness.record import aws

__all__ = [
    "ENDPOINTS",
    "NOT_RECORDABLE",
    "VERTEX",
    "Endpoint",
    "HttpRequest",
    "MissingKeyError",
    "api_key_for",
    "build_request",
    "endpoint_for",
    "vertex_base_url",
]


@dataclass(frozen=True)
class Endpoint:
    """One provider's HTTP surface. ``path`` is relative to ``base_url`` (Gemini's depends on params)."""

    provider: str
    key_env: str
    base_url: str
    path: str
    #: "authorization" sends "Bearer KEY"; "sigv4" signs the request (``aws.py``); any other
    #: name sends the bare key
    auth_header: str
    docs: str
    extra_headers: tuple[tuple[str, str], ...] = ()

    def path_for(self, params: CallParams) -> str:
        if self.provider == "bedrock":
            return aws.converse_path(params)
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
    # AWS SigV4 (harness/record/aws.py): the access key id names the credentials; the secret key,
    # session token and region come from their own AWS_* variables. ``{region}`` is filled in.
    "bedrock": Endpoint(
        "bedrock",
        "AWS_ACCESS_KEY_ID",
        aws.BASE_URL,
        "",
        "sigv4",
        "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html",
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

#: Gemini's wire on Google Vertex AI
#: (https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/projects.locations.publishers.models/streamGenerateContent):
#: ``{base}/models/{model}:streamGenerateContent?alt=sse`` under the base
#: ``https://{location}-aiplatform.googleapis.com/v1/projects/{project}/locations/{location}/publishers/google``,
#: with an OAuth access token as ``Authorization: Bearer`` (``gcloud auth print-access-token``), never
#: written: the recorder scrubs the header and the token's value. Chosen by a ``--base-url`` with that
#: path: ``harness record --provider gemini --base-url "$(vertex_base_url(project, location))"`` with
#: ``VERTEX_ACCESS_TOKEN`` set.
VERTEX = Endpoint(
    "gemini",
    "VERTEX_ACCESS_TOKEN",
    "https://{location}-aiplatform.googleapis.com/v1/projects/{project}/locations/{location}/publishers/google",
    "",
    "authorization",
    "https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/projects.locations.publishers.models/streamGenerateContent",
)
#: A base URL in Vertex AI's shape (any host: a local fake server too).
_VERTEX_PATH = re.compile(r"/v1(beta1)?/projects/[^/]+/locations/[^/]+/publishers/google/?$")


def vertex_base_url(project: str, location: str) -> str:
    """Vertex AI's base URL for Gemini models (``global`` has no region prefix on the host)."""
    host = "aiplatform.googleapis.com" if location == "global" else f"{location}-aiplatform.googleapis.com"
    return f"https://{host}/v1/projects/{project}/locations/{location}/publishers/google"


def endpoint_for(provider: str, base_url: str | None = None) -> Endpoint:
    """The provider's endpoint: Vertex AI's for ``gemini`` when the base URL has Vertex's path."""
    if provider == "gemini" and base_url is not None and _VERTEX_PATH.search(urlsplit(base_url).path):
        return VERTEX
    return ENDPOINTS[provider]


#: Providers ``harness record`` cannot reach yet, and why (one line for the CLI).
NOT_RECORDABLE: dict[str, str] = {}


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


def api_key_for(provider: str, environ: dict[str, str] | None = None, base_url: str | None = None) -> str:
    endpoint = endpoint_for(provider, base_url)
    if endpoint.auth_header == "sigv4":  # every variable the signature needs, checked before any call
        try:
            credentials = aws.credentials_from_env(environ)
            aws.require_botocore()
            return credentials.access_key
        except aws.AwsCredentialsError as exc:
            raise MissingKeyError(str(exc)) from None
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
    """The POST for one rendered body: provider URL, auth header, JSON content.

    SigV4 (Bedrock): the credentials are read from the environment here, at signing time
    (``api_key`` is their access key id), and the signature covers the final URL and bytes.
    """
    endpoint = endpoint_for(provider, base_url)
    if endpoint.auth_header == "sigv4":
        content = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        credentials = aws.credentials_from_env()
        url = join_url(
            base_url or endpoint.base_url.format(region=credentials.region), endpoint.path_for(params)
        )
        accept = "application/vnd.amazon.eventstream" if params.stream else "application/json"
        headers = {"content-type": "application/json", "accept": accept}
        return HttpRequest("POST", url, aws.sign("POST", url, headers, content, credentials), content)
    url = join_url(base_url or endpoint.base_url, endpoint.path_for(params))
    headers = {
        "content-type": "application/json",
        "accept": "text/event-stream" if params.stream else "application/json",
        endpoint.auth_header: f"Bearer {api_key}" if endpoint.auth_header == "authorization" else api_key,
        **dict(endpoint.extra_headers),
    }
    content = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return HttpRequest("POST", url, headers, content)
