"""I10 determinism: the same input gives byte-identical requests and the same warnings.

Rendering is pure (DESIGN "Adapters, Input"): no clock, no randomness, no state kept
between calls, no dependence on object identity. So a second render, a render of a
deep copy and a render of the history read back from its JSON Lines all agree, and
rendering leaves the history unchanged.

Warnings compared are those the target returns. What the harness heard on a target's
``warnings``/``logging`` channel (``harness.contract.channels``) is process state, not the
render's output: libraries log a notice once per process ("further blocks of this type are
logged at debug level") and Python shows a warning once per location by default, so a
second render legitimately announces less. Those are left out of the comparison.
"""

from __future__ import annotations

import copy

from harness.codec import loads_history
from harness.contract.channels import heard_warnings
from harness.contract.rendered import Rendered, compact_json
from harness.invariants.base import CheckContext, Violation
from harness.invariants.prefix import first_difference

__all__ = ["check_determinism"]

ID = "I10"


def check_determinism(ctx: CheckContext) -> list[Violation]:
    first = ctx.rendered
    before = ctx.history_jsonl()
    variants = {
        "a second render": ctx.render(ctx.history),
        "a render of a deep copy": ctx.render(copy.deepcopy(list(ctx.history))),
        "a render of the history read back from JSON Lines": ctx.render(loads_history(before)),
    }
    out: list[Violation] = []
    if ctx.history_jsonl() != before:
        out.append(
            ctx.violation(ID, None, "rendering changed the history it was given", None, kind="degrade")
        )
    first_json = compact_json(first.body)  # written once for the three comparisons
    for what, other in variants.items():
        problem = _differs(first, first_json, other)
        if problem is not None:
            out.append(
                ctx.violation(
                    ID, None, f"{what} differs from the first: {problem[0]}", problem[1], kind="degrade"
                )
            )
    return out


def _differs(a: Rendered, a_json: str, b: Rendered) -> tuple[str, object] | None:
    """How ``b`` differs from ``a`` (``same_json`` on the bodies, then the warnings), or None;
    ``a_json`` is ``compact_json(a.body)``."""
    if a_json != compact_json(b.body):
        diff = first_difference(a.body, b.body)
        path, was, became = diff or ("<root>", "?", "?")
        return f"body differs at {path}", {"first": was, "then": became}
    heard = {id(w) for w in (*heard_warnings(a.warnings), *heard_warnings(b.warnings))}
    wa = [str(w) for w in a.warnings if id(w) not in heard]
    wb = [str(w) for w in b.warnings if id(w) not in heard]
    if wa != wb:
        changed = next((x, y) for x, y in zip([*wa, ""], [*wb, ""], strict=False) if x != y)
        return "warnings differ", {"first": changed[0], "then": changed[1]}
    return None
