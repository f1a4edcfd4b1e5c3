"""What every report form says, worded once: cell labels, the failure list, the verdict."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from harness.audit.baseline import BaselineComparison
from harness.audit.model import AuditResult, Cell, Failure, Record, Status
from harness.contract.kinds import KINDS, Kind

__all__ = [
    "SHORT_HEADERS",
    "CellView",
    "FailureView",
    "anchor",
    "by_kind",
    "cell_view",
    "failure_views",
    "kind_counts",
    "legend",
    "summary_line",
    "summary_rows",
    "terse",
    "verdict",
    "visible",
    "why",
]

#: Details shown per failing example; the JSON keeps them all.
MAX_DETAILS = 12


@dataclass(frozen=True)
class CellView:
    status: Status
    text: str
    title: str
    #: The worst finding kind among the square's failures (None unless it failed).
    kind: Kind | None = None


def kind_counts(cell: Cell, *, short: bool = False) -> str:
    """``reject 3, policy 1`` (or ``R3 P1``): failing cases by their worst finding kind."""
    return (" " if short else ", ").join(
        f"{k[0].upper()}{cell.by_kind[k]}" if short else f"{k} {cell.by_kind[k]}"
        for k in KINDS
        if cell.by_kind.get(k)
    )


#: Column headers where space is short (the legend spells every check out).
SHORT_HEADERS: dict[str, str] = {"replay-chunks": "chunks", "replay-vs-reference": "vs-ref"}


def terse(cell: Cell) -> str:
    """A square in a few characters: ``✓69``, ``✗R3·P1/69`` (failing cases by worst kind / total), ``skip``."""
    total = cell.passed + cell.failed + cell.skipped
    if cell.failed:
        return f"✗{kind_counts(cell, short=True).replace(' ', '·')}/{total}"
    return f"✓{cell.passed}" if cell.passed else "skip"


def cell_view(cell: Cell) -> CellView:
    total = cell.passed + cell.failed + cell.skipped
    reasons = "; ".join(cell.skip_reasons)
    if cell.failed:
        smallest = cell.smallest.case if cell.smallest else ""
        return CellView(
            "fail", f"{kind_counts(cell)} of {total}", f"smallest failing case: {smallest}", cell.worst
        )
    if not cell.passed:
        return CellView("skip", "skip" if total else "-", reasons or "no cases")
    extra = f" ({cell.skipped} skipped)" if cell.skipped else ""
    return CellView("pass", f"pass {cell.passed}{extra}", reasons)


#: The audit's own checks, worded like the invariants: what each demands and why it matters.
_OWN_CHECKS: dict[str, tuple[str, str]] = {
    "render": (
        "the target renders every valid history",
        "a crash means the conversation cannot continue at all",
    ),
    "replay": (
        "one final message with usage and a stop reason consistent with the errors and tool calls",
        "a reply that ends without saying how hides a cut answer",
    ),
    "replay-chunks": ("chunk boundaries change nothing", "real networks split streams anywhere"),
    "replay-vs-reference": (
        "text, thinking, signatures, tool calls, stop reason and usage agree with the reference parser "
        "(itself cross-checked against the official SDKs)",
        "what the parser loses is lost from the history",
    ),
}


def visible(text: str) -> str:
    """Text with every character a reader could not see shown escaped.

    Controls, format characters (zero-width, bidi), unpaired surrogates, private-use and
    unassigned code points, and odd spaces become ``\\uXXXX``; ordinary letters of any
    script stay as they are, so a generated example never shows as boxes of missing glyphs.
    """
    out: list[str] = []
    for ch in text:
        category = unicodedata.category(ch)
        if ch in "\n\t" or (category[0] not in "CZ" and category != "Co") or ch == " ":
            out.append(ch)
        else:
            code = ord(ch)
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
    return "".join(out)


@dataclass(frozen=True)
class SummaryRow:
    """One provider at a glance: failing squares by worst kind, skipped squares, the worst checks."""

    provider: str
    by_kind: dict[Kind, int]
    skipped: int
    worst: tuple[tuple[str, Kind], ...]


def summary_rows(result: AuditResult) -> list[SummaryRow]:
    rows: list[SummaryRow] = []
    for provider, row in result.matrix().items():
        failing: list[tuple[str, Kind]] = sorted(
            ((check, cell.worst) for check, cell in row.items() if cell.worst),
            key=lambda item: (KINDS.index(item[1]), item[0]),
        )
        rows.append(
            SummaryRow(
                provider,
                {k: sum(1 for _, w in failing if w == k) for k in KINDS},
                sum(1 for cell in row.values() if cell_view(cell).status == "skip"),
                tuple(failing[:3]),
            )
        )
    return rows


def anchor(provider: str, check: str) -> str:
    """The id of a (provider, check) square's failure section, for links from the matrix."""
    return f"{provider}-{check}"


def legend(checks: list[str]) -> list[tuple[str, str, str]]:
    """(check id, what it demands, why it matters) for every column of a report."""
    from harness.invariants import INVARIANTS

    known = {i.id: (f"{i.name}: {i.description}", i.why) for i in INVARIANTS} | _OWN_CHECKS
    return [(c, *known.get(c, ("", ""))) for c in checks]


def why(check: str) -> str:
    return dict((c, w) for c, _, w in legend([check])).get(check, "")


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
    def kinds(self) -> str:
        outcome = self.record.checks[self.check]
        return "/".join(outcome.found)

    @property
    def title(self) -> str:
        plural = "s" if self.count != 1 else ""
        return (
            f"{self.provider} x {self.check} [{self.kinds}]: {self.count} failing case{plural}, "
            f"smallest {self.record.case}"
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


def by_kind(failures: list[Failure]) -> str:
    """``12 reject, 3 degrade, 40 policy`` (every kind named, zeros included, so nothing reads as absent)."""
    return ", ".join(f"{sum(f.kind == k for f in failures)} {k}" for k in KINDS)


def summary_line(result: AuditResult) -> str:
    cases = len({r.case for r in result.records})
    failures = result.failures()
    model = result.options.get("model")
    override = f", every case rendered with model {model}" if model else ""
    return (
        f"{result.label}: {cases} cases x {len(result.providers)} providers{override}, "
        f"{len(result.checks)} checks; failing (provider, check, case): {by_kind(failures)}"
    )


def verdict(comparison: BaselineComparison) -> str:
    fatal = "/".join(comparison.fail_on) or "nothing"
    if comparison.baseline is None:
        if comparison.ok:
            listed = f" ({by_kind(comparison.new)} listed)" if comparison.new else ""
            return f"no {fatal} failures{listed}"
        return f"{len(comparison.fatal)} {fatal} failures ({by_kind(comparison.new)})"
    if comparison.ok:
        return (
            f"no new {fatal} failure against the baseline ({len(comparison.accepted)} accepted, "
            f"{len(comparison.new)} new of other kinds)"
        )
    return (
        f"{len(comparison.fatal)} {fatal} failures not in the baseline "
        f"({by_kind(comparison.new)} new; {len(comparison.accepted)} accepted)"
    )
