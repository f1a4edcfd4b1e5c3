"""The terminal form: the matrix as a rich table, each failing square's smallest case, the verdict.

The matrix is providers down and checks across when that fits the width; on a narrow
terminal (80 columns) it is turned, checks down and providers across; only when even that
does not fit is it a per-provider list.
"""

from __future__ import annotations

from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from harness.audit.baseline import BaselineComparison
from harness.audit.model import AuditResult, Cell
from harness.audit.reports.common import (
    SHORT_HEADERS,
    cell_view,
    failure_views,
    legend,
    summary_line,
    terse,
    verdict,
    visible,
    why,
)
from harness.contract.kinds import KINDS
from harness.outputs.text_table import terminal_width

__all__ = ["cell_style", "fits", "print_report", "report_console"]

_STATUS_STYLE = {"pass": "green", "fail": "bold red", "skip": "dim"}
#: A failure's colour by its worst kind: what the API refuses, what silently loses, what merely differs.
_KIND_STYLE = {"reject": "bold red", "degrade": "red", "policy": "yellow"}
_HEADER = SHORT_HEADERS


def cell_style(cell: Cell) -> str:
    """A square's colour: by its worst finding kind when it failed, else by its status."""
    view = cell_view(cell)
    return _KIND_STYLE[view.kind] if view.kind else _STATUS_STYLE[view.status]


def report_console() -> Console:
    """The console a report prints to by default, as wide as ``terminal_width`` says: ``COLUMNS``
    when set, a terminal's own width, else 160 columns (pipes, CI logs)."""
    return Console(width=terminal_width())


def _summary(result: AuditResult) -> Table:
    """One line per provider: failing squares by worst kind, skipped squares, and the worst findings."""
    table = Table(title="Summary (squares = provider x check)", title_justify="left", expand=False)
    table.add_column("provider", no_wrap=True)
    for kind in KINDS:
        table.add_column(kind, justify="right", style=_KIND_STYLE[kind])
    table.add_column("skip", justify="right", style="dim")
    table.add_column("worst", overflow="fold")
    for provider, row in result.matrix().items():
        worst_first = sorted(
            (c for c in row.items() if c[1].worst), key=lambda c: (KINDS.index(c[1].worst or "policy"), c[0])
        )
        counts = [str(sum(1 for c in row.values() if c.worst == k)) for k in KINDS]
        skipped = str(sum(1 for c in row.values() if cell_view(c).status == "skip"))
        worst = ", ".join(f"{check} ({cell.worst})" for check, cell in worst_first[:3]) or "-"
        table.add_row(provider, *counts, skipped, worst)
    return table


def _matrix(result: AuditResult) -> Table:
    table = Table(
        title=(
            f"Conformance matrix: {result.label} (✓ passed; ✗ failing cases by worst kind: "
            "R reject, D degrade, P policy / total; skip: nothing to judge)"
        ),
        title_justify="left",
    )
    table.add_column("provider", no_wrap=True)
    for check in result.checks:
        table.add_column(_HEADER.get(check, check), justify="center", no_wrap=True)
    for provider, row in result.matrix().items():
        cells = [row[c] for c in result.checks]
        table.add_row(provider, *(Text(terse(c), style=cell_style(c)) for c in cells))
    return table


def _transposed(result: AuditResult) -> Table:
    """The matrix turned: checks down, providers across (five columns fit where twenty do not)."""
    table = Table(
        title=f"Conformance matrix: {result.label} (✓ passed; ✗ failing by worst kind R/D/P / total)",
        title_justify="left",
    )
    table.add_column("check", no_wrap=True)
    matrix = result.matrix()
    for provider in matrix:
        table.add_column(provider, justify="center", no_wrap=True)
    for check in result.checks:
        cells = [row[check] for row in matrix.values()]
        table.add_row(_HEADER.get(check, check), *(Text(terse(c), style=cell_style(c)) for c in cells))
    return table


def fits(table: Table, console: Console) -> bool:
    """Whether the table's natural width (nothing shrunk, nothing cut) fits the terminal."""
    natural = Measurement.get(console, console.options.update_width(100_000), table)
    return natural.maximum <= console.width


def _by_provider(result: AuditResult, console: Console) -> None:
    """The matrix as a list, for terminals too narrow for the table: every square, whole, nothing cut."""
    console.print(
        Text(f"Conformance by provider: {result.label} (R reject, D degrade, P policy / total)", style="bold")
    )
    for provider, row in result.matrix().items():
        console.print(Text(provider, style="bold"))
        line = Text("  ")
        for check in result.checks:
            cell = row[check]
            square = Text(f"{_HEADER.get(check, check)} ").append(terse(cell), style=cell_style(cell))
            if line.cell_len + 2 + square.cell_len > console.width and line.plain.strip():
                console.print(line, no_wrap=True)
                line = Text("  ")
            line.append("  " if line.plain.strip() else "").append(square)
        console.print(line, no_wrap=True)


def print_report(result: AuditResult, comparison: BaselineComparison, console: Console | None = None) -> None:
    console = console or report_console()
    console.print(_summary(result))
    table = _matrix(result)
    turned = _transposed(result)
    if fits(table, console):
        console.print(table)
    elif fits(turned, console):
        console.print(turned)
    else:
        _by_provider(result, console)
    console.print(summary_line(result), highlight=False)
    console.print(
        Text(
            "checks: " + "; ".join(f"{c} {d.split(':')[0]}" for c, d, _ in legend(result.checks)), style="dim"
        )
    )
    for note in result.notes:
        console.print(f"note: {note}", style="yellow", highlight=False)
    for view in failure_views(result):
        console.print(Text(view.title, style="bold red"))
        console.print(Text(f"    why it matters: {why(view.check)}", style="dim"))
        for detail in view.details[:3]:
            console.print(Text(f"    {visible(detail)[:300]}"))
        if len(view.details) > 3 or view.more:
            console.print(
                Text(f"    ... {len(view.details) - 3 + view.more} more (see the HTML report)", style="dim")
            )
    if comparison.baseline is not None:
        console.print(
            f"baseline {comparison.baseline.label}: {len(comparison.accepted)} known failures, "
            f"{len(comparison.new)} new, {len(comparison.fixed)} fixed; "
            f"{len(comparison.changed)} request bodies changed",
            highlight=False,
        )
        for note in comparison.notes:
            console.print(f"note: {note}", style="yellow", highlight=False)
        for change in comparison.changed:
            console.print(Text(f"    changed: {change.provider} {change.case}", style="cyan"))
    style = "green" if comparison.ok else "bold red"
    if comparison.ok and comparison.new:
        style = "yellow"
    console.print(Text(verdict(comparison), style=style))
