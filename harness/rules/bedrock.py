"""AWS Bedrock Converse hard rules its service model cannot express.

The service model (``harness/oracles/bedrock.py``) says what each block looks like; these
say how blocks relate across messages. Each rule is quiet on every request Bedrock accepted
in ``traffic/pydantic-ai-more/`` (``harness calibrate``). Not a rule: "the conversation
starts with a user message": Bedrock relaxed that check (strands-agents/harness-sdk PR #120:
"the only restriction is that toolUse content blocks must be immediately followed by a
toolResult, and a toolResult must have a corresponding toolUse immediately before it"),
and it accepted an assistant-first Claude request
(traffic/pydantic-ai-more/models__test_bedrock__test_bedrock_anthropic_message_history_starting_with_response.yaml#0).
"""

from __future__ import annotations

import re
from typing import Any

from harness.rules.base import Rule, RuleFinding, as_dict, as_list, blocks

__all__ = ["BEDROCK_RULES"]


def _messages(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [as_dict(m) for m in as_list(body.get("messages"))]


def _alternate(provider: str, wire: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    """Strict alternation is the Anthropic models' rule on Converse (the evidence: Claude); Amazon Titan
    answered 200 to two user messages in a row (traffic/clients2/openllmetry/packages/
    opentelemetry-instrumentation-bedrock/tests/traces/cassettes/test_guardrails/test_guardrail_converse.yaml#0),
    so a request whose model is known and not Anthropic's is not judged by it."""
    if model is not None and not re.search(r"(^|[./:])anthropic\.", model):
        return []
    out: list[RuleFinding] = []
    messages = _messages(body)
    for i in range(1, len(messages)):
        role = messages[i].get("role")
        if role is not None and role == messages[i - 1].get("role"):
            out.append(
                ALTERNATE.finding(
                    f"messages/{i}/role",
                    "A conversation must alternate between user and assistant roles",
                    {"role": role},
                    "Bedrock answers 400 ValidationException for the whole request",
                )
            )
    return out


def _ids(message: dict[str, Any], key: str, id_key: str) -> list[tuple[int, str]]:
    """(index, id) of the client-side ``key`` blocks: a server tool's ``toolUse`` (``type:
    server_tool_use``) is answered by a ``toolResult`` in the same assistant message
    (traffic/pydantic-ai-more/models__test_bedrock__test_bedrock_model_with_code_execution_tool.yaml#1)."""
    if key == "toolResult" and message.get("role") != "user":
        return []
    return [
        (i, str(as_dict(b.get(key)).get(id_key)))
        for i, b in blocks(message)
        if key in b
        and isinstance(as_dict(b.get(key)).get(id_key), str)
        and as_dict(b.get(key)).get("type") != "server_tool_use"
    ]


def _pairing(provider: str, wire: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    """toolUse blocks are answered in the message right after; toolResult blocks answer the one right before."""
    out: list[RuleFinding] = []
    messages = _messages(body)
    for n, message in enumerate(messages):
        results = _ids(message, "toolResult", "toolUseId")
        asked = {cid for _, cid in _ids(messages[n - 1], "toolUse", "toolUseId")} if n > 0 else set[str]()
        for i, cid in results:
            if cid not in asked:
                out.append(
                    PAIRING.finding(
                        f"messages/{n}/content/{i}/toolResult/toolUseId",
                        f"toolResult '{cid}' answers no toolUse of the previous turn",
                        {"toolUseId": cid},
                        "Bedrock answers 400: the toolResult blocks exceed the toolUse blocks of the previous turn",
                    )
                )
        if n + 1 < len(messages):
            answered = {cid for _, cid in _ids(messages[n + 1], "toolResult", "toolUseId")}
            for i, cid in _ids(message, "toolUse", "toolUseId"):
                if cid not in answered:
                    out.append(
                        PAIRING.finding(
                            f"messages/{n}/content/{i}/toolUse/toolUseId",
                            f"toolUse '{cid}' is not answered by a toolResult in the next message",
                            {"toolUseId": cid},
                            "Bedrock answers 400: a toolUse must be followed by its toolResult",
                        )
                    )
    return out


def _tool_config(provider: str, wire: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    if body.get("toolConfig") is not None:
        return []
    for n, message in enumerate(_messages(body)):
        for i, b in blocks(message):
            key = "toolUse" if "toolUse" in b else "toolResult" if "toolResult" in b else None
            if key is not None:
                return [
                    TOOL_CONFIG.finding(
                        f"messages/{n}/content/{i}/{key}",
                        "The toolConfig field must be defined when using toolUse and toolResult content blocks",
                        {key: "..."},
                        "Bedrock answers 400 ValidationException for the whole request",
                    )
                ]
    return []


def _error_content(provider: str, wire: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    out: list[RuleFinding] = []
    for n, message in enumerate(_messages(body)):
        for i, b in blocks(message):
            result = as_dict(b.get("toolResult"))
            if result.get("status") == "error" and not as_list(result.get("content")):
                out.append(
                    ERROR_CONTENT.finding(
                        f"messages/{n}/content/{i}/toolResult/content",
                        "The content field of a toolResult cannot be empty when status value is error",
                        result,
                        "Bedrock answers 400 ValidationException for the whole request",
                    )
                )
    return out


ALTERNATE = Rule(
    "bedrock-roles-alternate",
    (),
    "reject",
    "user and assistant messages alternate (no two messages of one role in a row)",
    (
        "https://github.com/langchain-ai/langchain-aws/issues/130 (ValidationException 'A conversation must "
        "alternate between user and assistant roles' for consecutive user messages)",
        "https://github.com/microsoft/semantic-kernel/issues/10281 (the same for two assistant messages)",
    ),
    _alternate,
    invariant="I8",
    wires=("bedrock-converse",),
)
PAIRING = Rule(
    "bedrock-tool-result-pairing",
    (),
    "reject",
    "a toolUse is answered by its toolResult in the very next message, and a toolResult answers a toolUse of the message right before",
    (
        "https://github.com/pydantic/pydantic-ai/issues/2327 ('The number of toolResult blocks exceeds the number "
        "of toolUse blocks of previous turn')",
        "https://github.com/strands-agents/harness-sdk/pull/120 (Bedrock's remaining history check: toolUse "
        "immediately followed by toolResult, toolResult immediately after its toolUse)",
    ),
    _pairing,
    invariant="I7",
    wires=("bedrock-converse",),
)
TOOL_CONFIG = Rule(
    "bedrock-tool-config-required",
    (),
    "reject",
    "a request whose messages hold toolUse or toolResult blocks declares toolConfig",
    (
        "https://github.com/langgenius/dify/issues/17545 (ValidationException 'The toolConfig field must be "
        "defined when using toolUse and toolResult content blocks.')",
        "https://github.com/vercel/ai/pull/7537 (tool history with no active tools)",
    ),
    _tool_config,
    invariant="I7",
    wires=("bedrock-converse",),
)
ERROR_CONTENT = Rule(
    "bedrock-error-result-content",
    (),
    "reject",
    "a toolResult with status error has content",
    (
        "https://github.com/aws-samples/sample-multi-agent-orchestration-chat-on-agentcore/issues/15 "
        "('The content field at messages.<n>.content.0.toolResult cannot be empty when status value is error.')",
    ),
    _error_content,
    invariant="I8",
    wires=("bedrock-converse",),
)

BEDROCK_RULES: tuple[Rule, ...] = (ALTERNATE, PAIRING, TOOL_CONFIG, ERROR_CONTENT)
