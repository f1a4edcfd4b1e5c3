"""``harness audit``: run the harness against any target and report conformance and regressions.

    from harness.audit import run_audit, load_baseline, compare, write_reports
    result = run_audit(get_target("klaude-code"))
    comparison = compare(result, load_baseline(Path("before/audit.json")))
    write_reports(result, comparison, Path("report"))

Checks: ``render`` (a valid history renders), I1..I13 (``harness.invariants``; I12 is
the schema oracles), and for each recorded model call ``replay``, ``replay-chunks`` and
``replay-vs-reference``. Cases: the scenario corpus, generated histories (fixed seed),
and the bundled cassettes.
"""

from __future__ import annotations

from harness.audit.baseline import Baseline, BaselineComparison, BaselineError, compare, load_baseline
from harness.audit.model import AuditResult, Cell, Failure, Outcome, Record
from harness.audit.reports import print_report, write_reports
from harness.audit.run import DEFAULT_EXAMPLES, run_audit

__all__ = [
    "DEFAULT_EXAMPLES",
    "AuditResult",
    "Baseline",
    "BaselineComparison",
    "BaselineError",
    "Cell",
    "Failure",
    "Outcome",
    "Record",
    "compare",
    "load_baseline",
    "print_report",
    "run_audit",
    "write_reports",
]
