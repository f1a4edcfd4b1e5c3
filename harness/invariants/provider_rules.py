"""The provider hard rules (``harness.rules``) as invariant violations: the only source of ``reject`` in I7/I8.

Why: a ``reject`` verdict must hold against real traffic, and the rules are what
``harness calibrate`` proves quiet on every request a provider accepted. The invariants'
own body checks judge the pinned design (``policy``) or information loss (``degrade``);
what the provider refuses comes from here, so I7, I8 and I12 never call a request the
API accepted "rejected".
"""

from __future__ import annotations

from harness.invariants.base import CheckContext, Violation
from harness.rules import RULES, RuleFinding, check_body

__all__ = ["rule_violations"]

#: The invariant that reports each rule (``Rule.invariant``).
_REPORTED_BY: dict[str, str] = {rule.id: rule.invariant for rule in RULES}


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
        if _REPORTED_BY[f.rule] == invariant
    ]
