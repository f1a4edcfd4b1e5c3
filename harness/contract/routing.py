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
from fnmatch import translate
from urllib.parse import unquote, urlsplit

from harness.contract.providers import WIRE_TABLE, home_provider, host_provider

__all__ = ["BEDROCK_INVOKE", "VERTEX", "WIRES", "Route", "bedrock_invoke_model", "route"]

#: The wire formats a model call can be in.
WIRES: tuple[str, ...] = tuple(w.id for w in WIRE_TABLE)

# Bedrock Runtime InvokeModel / InvokeModelWithResponseStream: POST /model/{modelId}/invoke[-with-response-stream]
# (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html). The body is the
# model family's own; for Anthropic's models it is the Messages body with ``anthropic_version`` and
# without ``model`` (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html;
# the anthropic SDK's Bedrock client, anthropic/lib/bedrock/_client.py, moves ``model`` and ``stream``
# into this URL). Other families (Titan, Cohere and Nova embeddings) are not model calls of the harness.
_BEDROCK_INVOKE = re.compile(r"^/model/([^/]+)/invoke(-with-response-stream)?$")
_BEDROCK_HOST = re.compile(translate("bedrock-runtime*.amazonaws.com"))
# An Anthropic model id, inference profile (``us.anthropic...``) or an ARN ending in one.
_ANTHROPIC_MODEL = re.compile(r"(^|[./])anthropic\.")
#: ``Route.endpoint`` of Bedrock's InvokeModel with an Anthropic Messages body (``render --endpoint``'s name).
BEDROCK_INVOKE = "bedrock"
#: ``Route.endpoint`` of Gemini's wire on Vertex AI (``*aiplatform.googleapis.com``).
VERTEX = "vertex"
_VERTEX_HOST = re.compile(translate("*aiplatform.googleapis.com"))
#: Each wire's call path on its providers' hosts, and (wire, its own provider, path) for the
#: wires recognised on any host, compiled once: the router runs on every recorded call.
_PATHS: dict[str, re.Pattern[str]] = {w.id: re.compile(w.path) for w in WIRE_TABLE}
_ANYWHERE: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (w.id, home_provider(w.id), re.compile(w.anywhere)) for w in WIRE_TABLE if w.anywhere is not None
)


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


def _wire_route(provider: str, wire: str, host: str, path: str) -> Route:
    endpoint = VERTEX if wire == "gemini" and _VERTEX_HOST.match(host) else ""
    return Route(provider, wire, f"{host}{path}", endpoint)


def route(method: str, url: str) -> Route | None:
    """The route of a model call, or None for anything else (listing models, uploads, other hosts' APIs).

    A host in the provider table (``ProviderEntry.hosts``) routes only to its provider's wires;
    any other host (OpenAI's own API, proxies, gateways, a local server) routes by path
    (``WireEntry.anywhere``) to the wire's own provider.
    """
    if method.upper() != "POST":
        return None
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    path = parts.path.rstrip("/")
    if _BEDROCK_HOST.match(host):
        invoke = _BEDROCK_INVOKE.search(path)
        if invoke and _ANTHROPIC_MODEL.search(unquote(invoke.group(1))):
            return Route("anthropic", "anthropic", f"{host}{path}", BEDROCK_INVOKE)
    entry = host_provider(host, path)
    if entry is not None:
        wire = next((w for w in entry.wires if _PATHS[w].search(path)), None)
        return None if wire is None else _wire_route(entry.id, wire, host, path)
    for wire, home, anywhere in _ANYWHERE:
        if anywhere.search(path):
            return _wire_route(home, wire, host, path)
    return None
