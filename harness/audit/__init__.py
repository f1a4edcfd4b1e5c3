"""``harness audit``: run the harness against any target and report conformance and regressions.

    from harness.audit import run_audit, load_baseline, compare, write_reports
    result = run_audit(get_target("klaude-code"))
    comparison = compare(result, load_baseline(Path("before/audit.json")))
    write_reports(result, comparison, Path("report"))

Checks: ``render`` (a valid history renders), every invariant of the registry
(``harness.invariants.INVARIANTS``; I12 is the schema oracles), and for each recorded model call ``replay``, ``replay-chunks`` and
``replay-vs-reference``. Cases: the scenario corpus, generated histories (fixed seed),
and the bundled cassettes.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from harness.audit.baseline import Baseline, BaselineComparison, BaselineError, compare, load_baseline
    from harness.audit.model import AuditResult, Cell, Failure, Outcome, Record
    from harness.audit.reports import print_report, write_reports
    from harness.audit.run import DEFAULT_EXAMPLES, run_audit

#: Public name -> its module. Names load on first use (PEP 562), so the CLI can import
#: ``harness.audit.command`` to build ``--help`` without the audit machinery.
_EXPORTS: dict[str, str] = {
    **dict.fromkeys(
        ("Baseline", "BaselineComparison", "BaselineError", "compare", "load_baseline"),
        "harness.audit.baseline",
    ),
    **dict.fromkeys(("AuditResult", "Cell", "Failure", "Outcome", "Record"), "harness.audit.model"),
    **dict.fromkeys(("print_report", "write_reports"), "harness.audit.reports"),
    **dict.fromkeys(("DEFAULT_EXAMPLES", "run_audit"), "harness.audit.run"),
}

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


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'harness.audit' has no attribute {name!r}")
    return getattr(import_module(module), name)
