"""Invariants I1..I13: named, reusable checks of a target's mapping (DESIGN "Invariants").

    from harness.invariants import run_invariants
    report = run_invariants(history, params)            # every provider of the reference target
    for v in report.violations: print(v, v.example)

Each check takes a ``CheckContext`` (history, params, provider, target) and returns
``Violation``s; ``INVARIANTS`` lists them in order, ``get_invariant`` finds one.
"""

from __future__ import annotations

from harness.invariants.base import CheckContext, Violation
from harness.invariants.event_order import event_order_problems

#: The invariants I1..I13, in order: what ``run_invariants`` runs by default.
from harness.invariants.registry import INVARIANTS as INVARIANTS
from harness.invariants.registry import CheckReport, Invariant, get_invariant, run_invariants
from harness.invariants.replay_events import history_to_ui_events

__all__ = [
    "INVARIANTS",
    "CheckContext",
    "CheckReport",
    "Invariant",
    "Violation",
    "event_order_problems",
    "get_invariant",
    "history_to_ui_events",
    "run_invariants",
]
