"""``docs/invariants.md``: every invariant, generated from the registry.

    uv run python -m tools.invariant_docs docs/invariants.md

The invariant registry (``harness.invariants.INVARIANTS``: one entry per invariant). The rules
an invariant reports are named by the rules themselves (``Rule.invariant``), so adding a rule
changes nothing here. ``tests/test_invariant_docs.py`` fails when the committed file differs
from what this prints.
"""

from __future__ import annotations

from harness.invariants import INVARIANTS
from tools import write_page

__all__ = ["render"]


def render() -> str:
    lines = [
        "# Invariants",
        "",
        "Generated from the invariant registry (`harness/invariants/registry.py`, `INVARIANTS`) by",
        "`python -m tools.invariant_docs docs/invariants.md`; `tests/test_invariant_docs.py` keeps it",
        "current. `harness check --list` prints the same list. Add an invariant with one entry in the",
        "registry (docs/architecture.md).",
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
        if inv.rules:
            lines += [
                "",
                f"It also reports the provider hard rules whose `invariant` is {inv.id} (`harness/rules/`).",
            ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    write_page(render)
