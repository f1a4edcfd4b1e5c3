"""``docs/invariants.md``: every invariant and the provider rules each reports, generated from the registries.

    uv run python -m tools.invariant_docs docs/invariants.md

The invariant registry (``harness.invariants.INVARIANTS``: one entry per invariant) and the
table of provider hard rules (``harness.rules.RULES``: each names the invariant that reports
it). ``tests/test_invariant_docs.py`` fails when the committed file differs from what this prints.
"""

from __future__ import annotations

from harness.invariants import INVARIANTS
from harness.rules import RULES, Rule
from tools import write_page

__all__ = ["render"]


def _where(rule: Rule) -> str:
    """Whom a rule judges: its wires' every provider, named providers, a provider on another wire."""
    on = [f"wire `{w}`" for w in rule.wires] + [f"`{p}`" for p in rule.providers]
    out = ", ".join(on)
    if rule.exempt:
        out += " (not " + ", ".join(f"`{p}`" for p in rule.exempt) + ")"
    if rule.hosts:
        out += " on " + ", ".join(f"`{h}`" for h in rule.hosts)
    return out


def render() -> str:
    lines = [
        "# Invariants",
        "",
        "Generated from the invariant registry (`harness/invariants/registry.py`, `INVARIANTS`) and the",
        "table of provider hard rules (`harness/rules/`, `RULES`) by `python -m tools.invariant_docs",
        "docs/invariants.md`; `tests/test_invariant_docs.py` keeps it current. `harness check --list`",
        "prints the same list. Add an invariant with one entry in the registry (docs/architecture.md).",
        "",
        "A check is reported skipped, never passed, on a history that gives it nothing to judge.",
        "",
        "| id | name | what it demands | skipped when |",
        "| --- | --- | --- | --- |",
    ]
    for inv in INVARIANTS:
        skipped = [inv.subject([]) or ""] if inv.subject is not None else []
        if inv.streams:
            skipped.append("no assistant message has the provider's stream form")
        if inv.history_rule is not None:
            skipped.append("the history itself breaks it")
        lines.append(f"| {inv.id} | `{inv.name}` | {inv.description} | {'; '.join(skipped)} |")
    for inv in INVARIANTS:
        lines += ["", f"## {inv.id} {inv.name}", "", inv.description + ".", "", f"Why it matters: {inv.why}."]
        reported = [r for r in RULES if r.invariant == inv.id]
        if inv.rules:
            lines += ["", f"Provider hard rules it reports ({len(reported)}):", ""]
            lines += [f"- `{r.id}` ({r.kind}; {_where(r)}): {r.summary}" for r in reported]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    write_page(render)
