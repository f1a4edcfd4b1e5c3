"""I12 schema-conformance: the request validates against the provider's published schema and SDK types.

Also the provider's syntax rules a schema cannot state (tool name syntax, media types:
``harness.rules``, calibrated on real traffic).

Both oracles of ``harness.oracles`` judge the body (``spec``: the vendored published
schema; ``sdk``: the official SDK's request types, made strict); errors tolerated by a
named allowance are not violations. Without the optional SDKs only ``spec`` runs, with
a note saying so (the audit and ``harness.testing`` then report I12 as skipped,
with that note as the reason, never as a pass).
"""

from __future__ import annotations

from harness.invariants.base import CheckContext, Violation
from harness.oracles import PROVIDERS, validate

__all__ = ["SDK_SKIPPED", "check_schema_conformance"]

ID = "I12"
#: How the note starts when the sdk oracle could not run: a clean I12 is then no pass (see harness.audit).
SDK_SKIPPED = "I12: the sdk oracle did not run"


def check_schema_conformance(ctx: CheckContext) -> list[Violation]:
    if ctx.provider not in PROVIDERS:
        ctx.note(f"I12 skipped for {ctx.provider}: no schema oracle for this provider")
        return []
    try:
        report = validate(ctx.provider, ctx.body)
    except RuntimeError as exc:  # the sdk oracle needs the optional provider SDKs
        ctx.note(f"{SDK_SKIPPED}: {exc}; judged by the published schema only")
        report = validate(ctx.provider, ctx.body, oracles=("spec",))
    if report.skipped:
        rest = " and the other oracle" if len(report.skipped) < 2 else ""
        ctx.note(
            f"I12: no {' or '.join(report.skipped)} oracle for {ctx.provider}; judged by the rules{rest}"
        )
    return [
        ctx.violation(
            ID,
            None,
            f"[{e.oracle}] {e.path or '<root>'}: {e.message}".splitlines()[0],
            {"path": e.path},
            kind="reject",
        )
        for e in report.errors
    ]
