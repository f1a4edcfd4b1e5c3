"""Anthropic's Messages body as AWS Bedrock's InvokeModel takes it (``harness render --provider anthropic --endpoint bedrock``).

Bedrock serves Claude's own Messages body through ``POST /model/{modelId}/invoke`` (and
``/invoke-with-response-stream``), with three differences in the envelope
(https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html;
the anthropic SDK's Bedrock client, ``anthropic/lib/bedrock/_client.py`` ``_prepare_options``, makes
the same three):

- ``anthropic_version: "bedrock-2023-05-31"`` in the body (AWS: required, "must be bedrock-2023-05-31");
- no ``model``: the model id is the URL's;
- no ``stream``: ``/invoke-with-response-stream`` streams, as AWS event-stream frames whose
  ``chunk.bytes`` are Anthropic's stream events (``harness.stream.eventstream``).

Everything else is the body ``harness/providers/anthropic/request.py`` renders for Anthropic's API.
Accepted so: ``traffic/pydantic-ai-more/models__test_anthropic_mid_conversation_system__test_mid_conversation_system_prompt_on_bedrock.yaml#0``.
The judges read it back through ``harness/rules/bedrock_invoke.py``.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from harness.params import CallParams

__all__ = ["BEDROCK_ID", "BEDROCK_VERSION", "invoke_path", "to_endpoint"]

#: The ``anthropic_version`` AWS documents for the Messages body on Bedrock.
BEDROCK_VERSION = "bedrock-2023-05-31"
#: A Bedrock model id or inference profile of an Anthropic model (``us.anthropic.claude-...``, an ARN).
BEDROCK_ID = re.compile(r"(^|[./])anthropic\.")


def invoke_path(model: str, stream: bool) -> str:
    """``/model/{modelId}/invoke[-with-response-stream]``, the model id quoted as the SDK quotes it."""
    return f"/model/{quote(model, safe=':')}/invoke{'-with-response-stream' if stream else ''}"


def to_endpoint(body: dict[str, Any], params: CallParams) -> tuple[dict[str, Any], list[str], list[str]]:
    """The InvokeModel body for an Anthropic Messages body, no warning (nothing is lost: the model
    and streaming move to the URL), and a note on that URL."""
    out = {k: v for k, v in body.items() if k not in ("model", "stream")}
    out["anthropic_version"] = BEDROCK_VERSION
    model = str(body.get("model") or "")
    stream = body.get("stream") is True
    if BEDROCK_ID.search(model):
        where = invoke_path(model, stream)
    else:  # Anthropic's API id is not Bedrock's: say so rather than guess the version suffix
        where = invoke_path("{modelId}", stream).replace("%7B", "{").replace("%7D", "}") + (
            f" (Bedrock names {model or 'the model'} anthropic.<id>-v<N>:0, or an inference profile us.anthropic...)"
        )
    return out, [], [f"bedrock: POST https://bedrock-runtime.{{region}}.amazonaws.com{where}"]
