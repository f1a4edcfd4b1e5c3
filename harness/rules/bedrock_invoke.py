"""Anthropic's Messages body on Bedrock's InvokeModel: the envelope rules, and the body the Anthropic checks read.

Bedrock serves Claude's own Messages body through ``POST /model/{modelId}/invoke`` and
``/invoke-with-response-stream`` (https://docs.aws.amazon.com/bedrock/latest/userguide/
model-parameters-anthropic-claude-messages-request-response.html). The body differs from
``api.anthropic.com``'s in its envelope only:

- ``anthropic_version`` is in the body (AWS: "(Required) ... The value must be
  bedrock-2023-05-31"); the anthropic SDK's Bedrock client adds it when missing
  (``anthropic/lib/bedrock/_client.py``, ``_prepare_options``);
- ``anthropic_beta``, a list, carries what the ``anthropic-beta`` header carries on
  Anthropic's API (the same SDK function moves the header into the body; pydantic/pydantic-ai at
  commit 4fda389, ``tests/models/cassettes/test_anthropic_bedrock_count_tokens/test_anthropic_bedrock_count_tokens_real_api.yaml#0``,
  has one in an ``invokeModel`` body Bedrock accepted);
- no ``model`` (the model id is the URL's) and no ``stream`` (the URL's ``-with-response-stream``
  says it): the SDK pops both; Bedrock's schema is closed ("Malformed input request: #: extraneous
  key [stream] is not permitted", sigoden/aichat#543; "... extraneous key [chat_id] is not
  permitted", BerriAI/litellm#7416).

Everything else is Anthropic's Messages body, judged by Anthropic's oracles and rules through
``invoke_view`` (the envelope off, the URL's model in). Accepted:
``traffic/pydantic-ai-more/models__test_anthropic_mid_conversation_system__test_mid_conversation_system_prompt_on_bedrock.yaml#0``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from harness.contract.routing import bedrock_invoke_model
from harness.rules.base import Rule, RuleFinding

__all__ = ["ENVELOPE", "INVOKE_RULES", "check_invoke", "invoke_view"]

#: The body fields that belong to Bedrock's envelope, not to Anthropic's Messages body.
ENVELOPE = ("anthropic_version", "anthropic_beta")

#: The version AWS documents for the Messages body on Bedrock.
BEDROCK_VERSION = "bedrock-2023-05-31"

_I = ("anthropic:bedrock-invoke",)


def _version(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    version = body.get("anthropic_version")
    if isinstance(version, str) and version:
        return []
    return [
        ANTHROPIC_VERSION.finding(
            "anthropic_version",
            "Malformed input request: #: required key [anthropic_version] not found",
            {"anthropic_version": version},
            f"Bedrock answers 400 for the whole request; send anthropic_version: {BEDROCK_VERSION}",
        )
    ]


ANTHROPIC_VERSION = Rule(
    "bedrock-invoke-anthropic-version",
    _I,
    "reject",
    "an InvokeModel body for an Anthropic model carries `anthropic_version` (the value is not judged: "
    "the anthropic SDK's Bedrock client of uv.lock sends its own API version when the caller gives none)",
    (
        "https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html "
        "(anthropic_version: Required)",
        "anthropic SDK anthropic/lib/bedrock/_client.py _prepare_options (always sets it)",
        "traffic/pydantic-ai-more/models__test_anthropic_mid_conversation_system__test_mid_conversation_system_prompt_on_bedrock.yaml#0",
    ),
    _version,
)


def _no_url_fields(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    return [
        NO_URL_FIELDS.finding(
            key,
            f"Malformed input request: #: extraneous key [{key}] is not permitted",
            {key: body[key]},
            "on Bedrock the model and streaming are chosen by the URL "
            "(/model/{modelId}/invoke[-with-response-stream]); the body's schema is closed",
        )
        for key in ("model", "stream")
        if key in body
    ]


NO_URL_FIELDS = Rule(
    "bedrock-invoke-no-model-in-body",
    _I,
    "reject",
    "an InvokeModel body for an Anthropic model has no `model` and no `stream`: the URL says both",
    (
        "anthropic SDK anthropic/lib/bedrock/_client.py _prepare_options (pops model and stream into the URL)",
        "https://github.com/sigoden/aichat/issues/543 (extraneous key [stream] is not permitted)",
        "https://github.com/BerriAI/litellm/issues/7416 (extraneous key [chat_id] is not permitted)",
    ),
    _no_url_fields,
)

INVOKE_RULES: tuple[Rule, ...] = (ANTHROPIC_VERSION, NO_URL_FIELDS)


def check_invoke(body: dict[str, Any]) -> list[RuleFinding]:
    """The envelope rules on an InvokeModel body (Anthropic's own rules run on ``invoke_view``)."""
    return [f for rule in INVOKE_RULES for f in rule.check("anthropic", body, None)]


def invoke_view(body: dict[str, Any], uri: str) -> dict[str, Any]:
    """The Messages body Anthropic's checks read: the envelope off, the InvokeModel URL's model id in,
    and ``stream: true`` for ``/invoke-with-response-stream``.

    A ``model`` or ``stream`` in the body stays (``check_invoke`` rejects it); the URL's only fill
    a body without them."""
    view = {k: v for k, v in body.items() if k not in ENVELOPE}
    view.setdefault("model", bedrock_invoke_model(uri) or "")
    if urlsplit(uri).path.rstrip("/").endswith("/invoke-with-response-stream"):
        view.setdefault("stream", True)
    return view
