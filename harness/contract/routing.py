"""Which provider API a recorded HTTP request went to, from its method and URL alone.

Why one place: replay (``--provider`` inferred from a cassette), calibration and the
traffic audit all need the same answer, and a router that disagrees with itself would
judge one request by two providers' rules.

``provider`` is the pinned provider id whose rules apply; ``wire`` is the wire format of
the body (OpenRouter serves both OpenAI Chat Completions and Responses formats, so
``openrouter`` may carry ``wire="openai-responses"``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

__all__ = ["BEDROCK_INVOKE", "VERTEX", "WIRES", "Route", "bedrock_invoke_model", "route"]

#: The wire formats a model call can be in.
WIRES: tuple[str, ...] = (
    "anthropic",
    "gemini",
    "openai-chat",
    "openai-responses",
    "bedrock-converse",
    "cohere-v2",
)

_GEMINI_PATH = re.compile(r"/models/[^/:]+:(stream)?[gG]enerateContent$")
# Bedrock Runtime Converse / ConverseStream: POST /model/{modelId}/converse[-stream]
# (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html).
_BEDROCK_CONVERSE = re.compile(r"^/model/[^/]+/converse(-stream)?$")
# Bedrock Runtime InvokeModel / InvokeModelWithResponseStream: POST /model/{modelId}/invoke[-with-response-stream]
# (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html). The body is the
# model family's own; for Anthropic's models it is the Messages body with ``anthropic_version`` and
# without ``model`` (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html;
# the anthropic SDK's Bedrock client, anthropic/lib/bedrock/_client.py, moves ``model`` and ``stream``
# into this URL). Other families (Titan, Cohere and Nova embeddings) are not model calls of the harness.
_BEDROCK_INVOKE = re.compile(r"^/model/([^/]+)/invoke(-with-response-stream)?$")
# An Anthropic model id, inference profile (``us.anthropic...``) or an ARN ending in one.
_ANTHROPIC_MODEL = re.compile(r"(^|[./])anthropic\.")
#: ``Route.endpoint`` of Bedrock's InvokeModel with an Anthropic Messages body (``render --endpoint``'s name).
BEDROCK_INVOKE = "bedrock"
#: ``Route.endpoint`` of Gemini's wire on Vertex AI (``*aiplatform.googleapis.com``).
VERTEX = "vertex"
# Cohere v2 Chat: POST https://api.cohere.com/v2/chat (https://docs.cohere.com/v2/reference/chat);
# api.cohere.ai is the older host name. Embed, rerank and the v1 chat are no v2 Chat call.
_COHERE_HOSTS = ("api.cohere.com", "api.cohere.ai")


@dataclass(frozen=True)
class Route:
    """A model call: the provider whose rules apply and the wire format of its body."""

    provider: str
    wire: str
    #: Why this route was chosen (host and path), for notes.
    reason: str
    #: The endpoint that serves the wire when it is not the provider's own API, named as
    #: ``harness.contract.providers.ENDPOINTS`` names it: ``bedrock`` (Anthropic's Messages body on
    #: Bedrock's InvokeModel), ``vertex`` (Gemini on Vertex AI); "" for the provider's own API.
    endpoint: str = ""


def bedrock_invoke_model(url: str) -> str | None:
    """The model id of a Bedrock InvokeModel URL (percent-decoded), or None for another URL."""
    match = _BEDROCK_INVOKE.search(urlsplit(url).path.rstrip("/"))
    return unquote(match.group(1)) if match else None


#: The OpenAI-compatible dialects by host (issue 27): host -> (provider id, path prefix).
_DIALECT_HOSTS: dict[str, tuple[str, str]] = {
    "api.mistral.ai": ("mistral", ""),
    "api.groq.com": ("groq", "/openai/"),
    "api.deepseek.com": ("deepseek", ""),
    "api.cerebras.ai": ("cerebras", ""),
    "api.z.ai": ("zai", ""),
    "open.bigmodel.cn": ("zai", ""),
    "router.huggingface.co": ("huggingface", ""),
}


def _dialect(host: str, path: str) -> Route | None:
    """A dialect's Chat Completions call (DeepSeek also serves a Responses-compatible endpoint)."""
    found = _DIALECT_HOSTS.get(host)
    if found is None or not path.startswith(found[1] or "/"):
        return None
    provider = found[0]
    if path.endswith("/chat/completions"):
        return Route(provider, "openai-chat", f"{host}{path}")
    if provider == "deepseek" and path.endswith("/responses"):
        return Route(provider, "openai-responses", f"{host}{path}")
    return None


def route(method: str, url: str) -> Route | None:
    """The route of a model call, or None for anything else (listing models, uploads, other hosts' APIs)."""
    if method.upper() != "POST":
        return None
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    path = parts.path.rstrip("/")
    if host.startswith("bedrock-runtime") and host.endswith(".amazonaws.com"):
        if _BEDROCK_CONVERSE.search(path):
            return Route("bedrock", "bedrock-converse", f"{host}{path}")
        invoke = _BEDROCK_INVOKE.search(path)
        if invoke and _ANTHROPIC_MODEL.search(unquote(invoke.group(1))):
            return Route("anthropic", "anthropic", f"{host}{path}", BEDROCK_INVOKE)
        return None
    if host in _COHERE_HOSTS:
        return Route("cohere", "cohere-v2", f"{host}{path}") if path == "/v2/chat" else None
    if host == "openrouter.ai" or host.endswith(".openrouter.ai"):
        if path.endswith("/chat/completions"):
            return Route("openrouter", "openai-chat", f"{host}{path}")
        if path.endswith("/responses"):
            return Route("openrouter", "openai-responses", f"{host}{path}")
        return None
    if host == "generativelanguage.googleapis.com" or _GEMINI_PATH.search(path):
        endpoint = VERTEX if host.endswith("aiplatform.googleapis.com") else ""
        return Route("gemini", "gemini", f"{host}{path}", endpoint) if _GEMINI_PATH.search(path) else None
    if host == "api.anthropic.com" or host.endswith(".anthropic.com"):
        return Route("anthropic", "anthropic", f"{host}{path}") if path.endswith("/messages") else None
    dialect = _dialect(host, path)
    if dialect is not None:
        return dialect
    # OpenAI and other OpenAI-compatible hosts (Azure, proxies): by path.
    if path.endswith("/chat/completions"):
        return Route("openai-chat", "openai-chat", f"{host}{path}")
    if path.endswith("/responses"):
        return Route("openai-responses", "openai-responses", f"{host}{path}")
    if path.endswith("/v1/messages"):  # Anthropic-compatible gateways
        return Route("anthropic", "anthropic", f"{host}{path}")
    return None
