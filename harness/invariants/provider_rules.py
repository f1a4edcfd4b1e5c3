"""The provider hard rules (``harness.rules``) as invariant violations: the only source of ``reject`` in I7/I8.

Why: a ``reject`` verdict must hold against real traffic, and the rules are what
``harness calibrate`` proves quiet on every request a provider accepted. The invariants'
own body checks judge the pinned design (``policy``) or information loss (``degrade``);
what the provider refuses comes from here, so I7, I8 and I12 never call a request the
API accepted "rejected".
"""

from __future__ import annotations

from harness.invariants.base import CheckContext, Violation
from harness.rules import RuleFinding, check_body

__all__ = ["RULE_INVARIANT", "rule_violations"]

#: Which invariant reports each rule (tool pairing and ids: I7; conversation shape: I8; syntax: I12).
RULE_INVARIANT: dict[str, str] = {
    "empty-conversation": "I8",
    "system-text-once": "I8",
    "chat-no-empty-arrays": "I8",
    "tool-name-syntax": "I12",
    "anthropic-tool-use-answered": "I7",
    "anthropic-tool-result-has-use": "I7",
    "anthropic-tool-use-ids": "I7",
    "anthropic-non-blank-text": "I8",
    "anthropic-error-result-content": "I8",
    "anthropic-image-media-type": "I12",
    "chat-tool-calls-answered": "I7",
    "chat-tool-message-has-call": "I7",
    "responses-output-has-call": "I7",
    "responses-call-id-length": "I7",
    "responses-reasoning-followed": "I8",
    "gemini-mime-type": "I12",
    "gemini-function-calls-answered": "I7",
    "bedrock-roles-alternate": "I8",
    "bedrock-tool-result-pairing": "I7",
    "bedrock-tool-config-required": "I7",
    "bedrock-error-result-content": "I8",
    # the OpenAI-compatible dialects (harness/rules/dialects.py)
    "mistral-tool-call-id": "I7",
    "groq-refused-fields": "I12",
    "groq-raw-reasoning-with-tools": "I12",
    "deepseek-tool-loop-reasoning": "I12",
    "kimi-tool-call-reasoning": "I12",
    "deepseek-responses-output-before-message": "I7",
    # Cohere v2 Chat (harness/rules/cohere.py)
    "cohere-tool-choice-needs-tools": "I12",
    # values a schema cannot judge (harness/rules/values.py)
    "openai-image-bytes": "I12",
    "gemini-sampling-range": "I12",
}


def _findings(ctx: CheckContext) -> list[RuleFinding]:
    cached = ctx.cache.get("rules")
    if cached is None:
        cached = check_body(ctx.provider, ctx.body)
        ctx.cache["rules"] = cached
    return cached


def rule_violations(ctx: CheckContext, invariant: str) -> list[Violation]:
    """The rule findings this invariant reports for the context's request, each with the rule's kind."""
    return [
        ctx.violation(
            invariant,
            None,
            f"[{f.rule}] {f.path or '<root>'}: {f.message} (why: {f.why})",
            f.example,
            kind=f.kind,
        )
        for f in _findings(ctx)
        if RULE_INVARIANT.get(f.rule, "I12") == invariant
    ]
