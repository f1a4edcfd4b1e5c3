"""Which published schema judges which provider: the schema oracle's registry.

Apart from ``harness.oracles.spec`` (the machinery) so that a provider whose schema needs a
translation of its own (Bedrock's Smithy model, ``harness.oracles.bedrock``) can build on the
machinery without an import cycle.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from harness.oracles.bedrock import bedrock_spec_oracle
from harness.oracles.spec import (
    SpecOracle,
    close_objects,
    discovery_to_json_schema,
    fix_nullable,
    load_spec,
    one_of_to_any_of,
)

__all__ = ["SPEC_TARGETS", "spec_oracle"]


@cache
def _openai_document(closed: bool) -> dict[str, Any]:
    """The transformed OpenAI document, shared by chat and responses (read-only from here)."""
    doc = one_of_to_any_of(fix_nullable(load_spec("openai-openapi.json")))  # both rebuild: no copy needed
    if closed:
        close_objects(doc)
    return doc


def _openai(schema: str, *, closed: bool) -> SpecOracle:
    doc = _openai_document(closed)
    return SpecOracle(doc, f"/components/schemas/{schema}", closed=closed, uri="urn:openai-openapi")


def _anthropic() -> SpecOracle:
    doc = one_of_to_any_of(fix_nullable(load_spec("anthropic-openapi.json")))
    # Already closed by the document itself (additionalProperties: false on its objects).
    return SpecOracle(
        doc, "/components/schemas/CreateMessageParams", closed=False, uri="urn:anthropic-openapi"
    )


def _gemini() -> SpecOracle:
    doc = discovery_to_json_schema(load_spec("gemini-discovery.json"))
    return SpecOracle(doc, "/schemas/GenerateContentRequest", closed=False, uri="urn:gemini-discovery")


def _bedrock() -> SpecOracle:
    return bedrock_spec_oracle()  # the Smithy translation lives with the Bedrock oracles


SPEC_TARGETS: dict[str, tuple[str, Callable[[], SpecOracle]]] = {
    "openai-chat": ("openai-openapi.json#CreateChatCompletionRequest (closed)",
                    lambda: _openai("CreateChatCompletionRequest", closed=True)),
    "openai-responses": ("openai-openapi.json#CreateResponse (closed)",
                         lambda: _openai("CreateResponse", closed=True)),
    "anthropic": ("anthropic-openapi.json#CreateMessageParams", _anthropic),
    "gemini": ("gemini-discovery.json#GenerateContentRequest", _gemini),
    "openrouter": ("openai-openapi.json#CreateChatCompletionRequest (open)",
                   lambda: _openai("CreateChatCompletionRequest", closed=False)),
    "bedrock": ("bedrock-runtime-service-2.json#ConverseRequest (Smithy shapes as JSON Schema)", _bedrock),
}  # fmt: skip


@cache
def spec_oracle(provider: str) -> SpecOracle:
    """The spec oracle for a provider id, built on first use and reused."""
    try:
        _, build = SPEC_TARGETS[provider]
    except KeyError:
        raise ValueError(f"no spec oracle for provider {provider!r}") from None
    return build()
