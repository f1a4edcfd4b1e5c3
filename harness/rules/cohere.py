"""Cohere v2 Chat hard rules its SDK's request types cannot express, each with its evidence.

The ``cohere`` SDK's v2 types (``harness/oracles/sdk.py``) say what each field looks like;
these say how fields relate. Each rule is quiet on every request Cohere accepted in
``traffic/`` (``harness calibrate``). Sources: docs/field-rules.md, "Cohere".
"""

from __future__ import annotations

from typing import Any

from harness.rules.base import Rule, RuleFinding, as_list

__all__ = ["COHERE_RULES"]


def _choice_without_tools(
    provider: str, wire: str, body: dict[str, Any], model: str | None
) -> list[RuleFinding]:
    if body.get("tool_choice") != "REQUIRED" or as_list(body.get("tools")):
        return []
    return [
        TOOL_CHOICE_NEEDS_TOOLS.finding(
            "tool_choice",
            "tool_choice REQUIRED needs the tools parameter",
            {"tool_choice": body.get("tool_choice")},
            "the model is forced to call a tool the request does not declare; Cohere refuses the request",
        )
    ]


TOOL_CHOICE_NEEDS_TOOLS = Rule(
    "cohere-tool-choice-needs-tools",
    (),
    "reject",
    "tool_choice REQUIRED is sent with a non-empty tools list",
    (
        "https://docs.cohere.com/v2/reference/chat (tool_choice: 'When REQUIRED is specified, the model will be "
        "forced to use at least one of the user-defined tools, and the tools parameter must be passed in the "
        "request'; the same text in the cohere SDK, cohere/v2/raw_client.py RawV2Client.chat)",
        "every accepted REQUIRED call declares tools: traffic/pydantic-ai-more/"
        "models__test_tool_choice_matrix__test_tool_choice_matrix[required-cohere].yaml#0",
    ),
    _choice_without_tools,
    invariant="I12",
    wires=("cohere-v2",),
)

COHERE_RULES: tuple[Rule, ...] = (TOOL_CHOICE_NEEDS_TOOLS,)
