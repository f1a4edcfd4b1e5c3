"""What every report form says, worded once: cell labels, the failure list, the verdict."""

from __future__ import annotations

from dataclasses import dataclass

from harness.audit.baseline import Comparison
from harness.audit.model import AuditResult, Cell, Record, Status

__all__ = ["CellView", "FailureView", "cell_view", "failure_views", "summary_line", "verdict"]

#: Details shown per failing example; the JSON keeps them all.
MAX_DETAILS = 12


@dataclass(frozen=True)
class CellView:
    status: Status
    text: str
    title: str


def cell_view(cell: Cell) -> CellView:
    total = cell.passed + cell.failed + cell.skipped
    reasons = "; ".join(cell.skip_reasons)
    if cell.failed:
        smallest = cell.smallest.case if cell.smallest else ""
        return CellView("fail", f"fail {cell.failed}/{total}", f"smallest failing case: {smallest}")
    if not cell.passed:
        return CellView("skip", "skip" if total else "-", reasons or "no cases")
    extra = f" ({cell.skipped} skipped)" if cell.skipped else ""
    return CellView("pass", f"pass {cell.passed}{extra}", reasons)


@dataclass(frozen=True)
class FailureView:
    """One failing (provider, check) square with its smallest failing example."""

    provider: str
    check: str
    count: int
    record: Record
    details: tuple[str, ...]
    more: int

    @property
    def title(self) -> str:
        plural = "s" if self.count != 1 else ""
        return (
            f"{self.provider} x {self.check}: {self.count} failing case{plural}, smallest {self.record.case}"
        )


def failure_views(result: AuditResult) -> list[FailureView]:
    views: list[FailureView] = []
    for provider, row in result.matrix().items():
        for check in result.checks:
            cell = row.get(check)
            if cell is None or cell.smallest is None:
                continue
            details = cell.smallest.checks[check].details
            views.append(
                FailureView(
                    provider,
                    check,
                    cell.failed,
                    cell.smallest,
                    details[:MAX_DETAILS],
                    max(0, len(details) - MAX_DETAILS),
                )
            )
    return views


def summary_line(result: AuditResult) -> str:
    cases = len({r.case for r in result.records})
    failures = result.failures()
    model = result.options.get("model")
    override = f", every case rendered with model {model}" if model else ""
    return (
        f"{result.label}: {cases} cases x {len(result.providers)} providers{override}, "
        f"{len(result.checks)} checks, {len(failures)} failing (provider, check, case)"
    )


def verdict(comparison: Comparison) -> str:
    if comparison.baseline is None:
        return "no failures" if comparison.ok else f"{len(comparison.new)} failures"
    if comparison.ok:
        return f"every failure is known to the baseline ({len(comparison.accepted)} accepted)"
    return f"{len(comparison.new)} failures not in the baseline ({len(comparison.accepted)} accepted)"
