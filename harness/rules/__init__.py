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
from harness.oracles import could_not_judge
from harness.oracles.normalise import normalise_body
from harness.rules.anthropic import ANTHROPIC_RULES
from harness.rules.base import Rule, RuleFinding
from harness.rules.bedrock import BEDROCK_RULES
from harness.rules.cohere import COHERE_RULES
from harness.rules.common import COMMON_RULES
from harness.rules.dialects import DIALECT_RULES
from harness.rules.files import FILE_RULES
from harness.rules.gemini import GEMINI_RULES
from harness.rules.openai import CHAT_RULES, RESPONSES_RULES
from harness.rules.values import VALUE_RULES

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
    *VALUE_RULES,
    *FILE_RULES,
)


def rules_for(provider: str, *, wire: str | None = None) -> list[Rule]:
    """The rules that judge ``provider``'s body in ``wire`` (None: its own API's): its wire's,
    its own, and those of this provider on that wire only (``deepseek:openai-responses``)."""
    own = provider_entry(provider).wire  # ValueError naming the valid ids
    on = wire or own
    return [r for r in RULES if r.applies(provider, on, on == own)]


def check_body(
    provider: str,
    body: dict[str, Any],
    *,
    wire: str | None = None,
    host: str | None = None,
    model: str | None = None,
) -> list[RuleFinding]:
    """Every rule of the provider (on this wire) applied to ``body``; the body is not modified.

    The body is read as the provider's parser reads it, through the schema oracle's own
    ``normalise_body`` (Gemini's two spellings of field names), so a rule and the oracle
    never disagree about what a body says. ``host`` (where the request goes, when known)
    leaves out the rules of another host's API (``Rule.hosts``). ``model``: the model when the URL
    names it (Bedrock's model id); otherwise the body's ``model``.
    """
    on = wire or provider_entry(provider).wire
    chosen = [r for r in rules_for(provider, wire=wire) if r.applies_to(host)]
    try:
        body = normalise_body(provider, body)
    except Exception as exc:  # the reading breaks on this body: one finding, no rule run
        return [_broken(chosen[0] if chosen else None, exc)]
    model = model or (body.get("model") if isinstance(body.get("model"), str) else None)
    found: list[RuleFinding] = []
    for rule in chosen:
        try:
            found += rule.check(provider, on, body, model)
        except Exception as exc:  # a rule that breaks on a body is one finding on it, never a crash
            found.append(_broken(rule, exc))
    return found


def _broken(rule: Rule | None, exc: Exception) -> RuleFinding:
    """A rule that raised on a body: ``reject``, so the run fails (a broken judge is loud, never a skip)."""
    return RuleFinding(
        rule.id if rule else "rules",
        "reject",
        "",
        could_not_judge("rule", exc),
        "",
        "a judge that raises on recorded input is a bug in the harness: report it with this body",
    )
