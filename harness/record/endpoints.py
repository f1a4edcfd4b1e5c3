"""Where each provider's request goes and how it authenticates: URL, headers, API key variable.

Kept apart from the adapters because it is the only place that knows about keys:
adapters stay pure (no network, no secrets). The facts are the provider table's
(``ProviderEntry.record``, ``harness.contract.providers``); this module turns them into
requests.

Base URLs follow each official SDK's ``base_url`` convention, so ``--base-url`` means
the same thing as in the SDK (OpenAI and OpenRouter include ``/v1``; Anthropic is the
bare host; Gemini includes the API version ``/v1beta``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from harness.contract.providers import PROVIDER_TABLE
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

#: Wires whose call path names the model (and streaming), from the call's params.
_MODEL_PATHS: dict[str, Callable[[CallParams], str]] = {
    "gemini": gemini_endpoint_path,
    "bedrock-converse": aws.converse_path,
}


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
    #: The wire of the body sent there.
    wire: str = ""

    def path_for(self, params: CallParams) -> str:
        model_path = _MODEL_PATHS.get(self.wire)
        return model_path(params) if model_path is not None else self.path


#: Each provider's own API, from its table entry.
ENDPOINTS: dict[str, Endpoint] = {
    e.id: Endpoint(
        e.id,
        e.record.key_env,
        e.record.base_url,
        e.record.path,
        e.record.auth,
        e.record.docs,
        e.record.headers,
        e.wire,
    )
    for e in PROVIDER_TABLE
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
    wire="gemini",
)
#: A base URL in Vertex AI's shape (any host: a local fake server too).
_VERTEX_PATH = re.compile(r"/v1(beta1)?/projects/[^/]+/locations/[^/]+/publishers/google/?$")


def vertex_base_url(project: str, location: str) -> str:
    """Vertex AI's base URL for Gemini models (``global`` has no region prefix on the host)."""
    host = "aiplatform.googleapis.com" if location == "global" else f"{location}-aiplatform.googleapis.com"
    return f"https://{host}/v1/projects/{project}/locations/{location}/publishers/google"


def endpoint_for(provider: str, base_url: str | None = None) -> Endpoint:
    """The provider's endpoint: Vertex AI's for ``gemini`` when the base URL has Vertex's path."""
    if VERTEX.provider == provider and base_url is not None and _VERTEX_PATH.search(urlsplit(base_url).path):
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
