"""How a call routed by its host's dialect (``hosts.py``) is judged: Azure OpenAI and other Chat servers.

- Azure OpenAI: OpenAI's oracles and rules, on the body as Azure reads it (the deployment in
  the URL names the model when the body has none: learn.microsoft.com/azure/ai-foundry/openai/
  reference, "Create chat completion": the body has no required ``model``), plus Azure's own
  rule: a deployment URL (``/openai/deployments/{name}/...``) carries ``api-version``, which
  the reference marks required for every operation (the v1 API's ``/openai/v1/...`` URLs do not).
- Any other OpenAI-compatible server (vLLM, ollama's ``/v1``, LM Studio, Together, Fireworks,
  xAI...): the Chat core, that is the wire's structural rules and its schema, without what only
  OpenAI enforces: its closed objects (a server's own extensions, ``top_k``,
  ``repetition_penalty``, ``safety_model``, are its own: Together's recordings send them, answered
  200) and its reading of ``null`` (a server built on pydantic or proto3 reads ``null`` for an
  optional field as unset: Together answered 200 to ``"response_format": null``,
  ``"tools": null``, ``"tool_choice": null``). OpenAI-only rules are host-bound already
  (``Rule.hosts``).
"""

from __future__ import annotations

import re
from typing import Any, cast
from urllib.parse import unquote, urlsplit

from harness.contract.routing import Route
from harness.rules import RuleFinding
from harness.rules.base import Rule
from harness.traffic.hosts import AZURE, COMPATIBLE, azure_deployment

__all__ = ["AZURE_API_VERSION", "azure_view", "bedrock_converse_model", "core_error", "dialect_rules"]

_CONVERSE = re.compile(r"^/model/([^/]+)/converse(-stream)?/?$")

#: An oracle error about a key the schema does not declare (spec: jsonschema; sdk: pydantic).
_EXTRA = re.compile(
    r"Unevaluated properties are not allowed|Additional properties are not allowed|extra_forbidden"
)


def azure_view(route: Route, body: dict[str, Any], uri: str) -> dict[str, Any]:
    """The body as Azure reads it: the deployment names the model when the body has none."""
    if route.endpoint != AZURE or "model" in body:
        return body
    deployment, _ = azure_deployment(uri)
    return {**body, "model": deployment} if deployment else body


def bedrock_converse_model(uri: str) -> str | None:
    """The model id of a Bedrock Converse URL (percent-decoded; Converse bodies do not name it)."""
    match = _CONVERSE.search(urlsplit(uri).path)
    return unquote(match.group(1)) if match else None


def _value(body: Any, path: str) -> tuple[bool, Any]:
    node = body
    for part in [p for p in path.split("/") if p]:
        if isinstance(node, dict) and part in node:
            node = cast(dict[str, Any], node)[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(cast(list[Any], node)):
            node = cast(list[Any], node)[int(part)]
        else:
            return False, None
    return True, node


def core_error(route: Route, path: str, message: str, body: dict[str, Any]) -> bool:
    """Whether an oracle error stands on this route: on a compatible server, an unknown key or a
    ``null`` for a field is the server's business, not the Chat core's."""
    if route.endpoint != COMPATIBLE:
        return True
    if _EXTRA.search(message):
        return False
    found, value = _value(body, path)
    return not (found and value is None)


def _api_version(uri: str) -> list[RuleFinding]:
    deployment, version = azure_deployment(uri)
    if deployment is None or version:
        return []
    return [
        AZURE_API_VERSION.finding(
            "",
            "an Azure OpenAI deployment URL without the `api-version` query parameter",
            uri,
            "Azure OpenAI's data-plane operations on /openai/deployments/{deployment}/ require "
            "`api-version`; without it the call is refused",
        )
    ]


AZURE_API_VERSION = Rule(
    "azure-api-version",
    ("openai-chat", "openai-responses"),
    "reject",
    "a call to an Azure OpenAI deployment URL carries the `api-version` query parameter",
    (
        "https://learn.microsoft.com/azure/ai-foundry/openai/reference (api-version: query, required, "
        "on every /openai/deployments/{deployment-id}/ operation)",
    ),
    lambda provider, wire, body, model: [],  # judged on the URL by dialect_rules, not on the body
    invariant="I12",
)


def dialect_rules(route: Route, uri: str) -> list[RuleFinding]:
    """The rules of the host's dialect that read the URL (Azure's ``api-version``)."""
    return _api_version(uri) if route.endpoint == AZURE else []
