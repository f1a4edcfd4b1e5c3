"""Provider hard rules on a wire request body, each a named check with its evidence.

The schema oracles (``harness.oracles``) judge shape; these rules judge what a schema
cannot say: pairing of tool calls and results, uniqueness, non-empty content, id and
name syntax, media types, empty arrays. ``kind`` is ``reject`` where the API answers 4xx,
``degrade`` where it accepts but loses information, and ``policy`` where it accepts and
only the design objects (a system text sent twice). Preferences the provider repairs
itself (strict user/assistant alternation, which Anthropic merges) are not rules.

    check_body("anthropic", body)  # [RuleFinding(rule, kind, path, message, example, why)]

Every rule is calibrated on real traffic (``harness calibrate``): it must be quiet on
every request a provider accepted.
"""

from __future__ import annotations

from typing import Any

from harness.contract.providers import provider_entry
from harness.oracles.normalise import normalise_body
from harness.rules.anthropic import ANTHROPIC_RULES
from harness.rules.base import Rule, RuleFinding
from harness.rules.bedrock import BEDROCK_RULES
from harness.rules.cohere import COHERE_RULES
from harness.rules.common import COMMON_RULES
from harness.rules.dialects import DIALECT_RULES
from harness.rules.gemini import GEMINI_RULES
from harness.rules.openai import CHAT_RULES, RESPONSES_RULES

__all__ = ["RULES", "Rule", "RuleFinding", "check_body", "rules_for"]

RULES: tuple[Rule, ...] = (
    *COMMON_RULES,
    *ANTHROPIC_RULES,
    *CHAT_RULES,
    *RESPONSES_RULES,
    *GEMINI_RULES,
    *BEDROCK_RULES,
    *DIALECT_RULES,
    *COHERE_RULES,
)


def rules_for(provider: str, *, wire: str | None = None) -> list[Rule]:
    """The rules that judge ``provider``'s body in ``wire`` (None: its own API's): its wire's,
    its own, and those of this provider on that wire only (``deepseek:openai-responses``)."""
    own = provider_entry(provider).wire  # ValueError naming the valid ids
    on = wire or own
    return [r for r in RULES if r.applies(provider, on, on == own)]


def check_body(
    provider: str, body: dict[str, Any], *, wire: str | None = None, host: str | None = None
) -> list[RuleFinding]:
    """Every rule of the provider (on this wire) applied to ``body``; the body is not modified.

    The body is read as the provider's parser reads it, through the schema oracle's own
    ``normalise_body`` (Gemini's two spellings of field names), so a rule and the oracle
    never disagree about what a body says. ``host`` (where the request goes, when known)
    leaves out the rules of another host's API (``Rule.hosts``).
    """
    on = wire or provider_entry(provider).wire
    body = normalise_body(provider, body)
    model = body.get("model") if isinstance(body.get("model"), str) else None
    chosen = [r for r in rules_for(provider, wire=wire) if r.applies_to(host)]
    return [f for rule in chosen for f in rule.check(provider, on, body, model)]
