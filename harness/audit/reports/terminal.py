"""The terminal form: the matrix as a rich table, each failing square's smallest case, the verdict."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from harness.audit.baseline import Comparison
from harness.audit.model import AuditResult, Cell
from harness.audit.reports.common import cell_view, failure_views, kind_counts, summary_line, verdict, why

__all__ = ["print_report"]

_STYLE = {"pass": "green", "fail": "bold red", "skip": "dim"}
#: A failure's colour by its worst kind: what the API refuses, what silently loses, what merely differs.
_KIND_STYLE = {"reject": "bold red", "degrade": "red", "policy": "yellow"}
#: Terminal cells are terse (the HTML and Markdown forms spell them out).
_HEADER = {"replay-chunks": "chunks", "replay-vs-reference": "vs-ref"}


def _terse(cell: Cell) -> str:
    total = cell.passed + cell.failed + cell.skipped
    if cell.failed:
        return f"✗{kind_counts(cell, short=True)}/{total}"
    return f"✓{cell.passed}" if cell.passed else "skip"


def _style(cell: Cell) -> str:
    view = cell_view(cell)
    return _KIND_STYLE[view.kind] if view.kind else _STYLE[view.status]


def print_report(result: AuditResult, comparison: Comparison, console: Console | None = None) -> None:
    console = console or Console(width=None if Console().is_terminal else 160)
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
        table.add_row(provider, *(Text(_terse(c), style=_style(c)) for c in cells))
    console.print(table)
    console.print(summary_line(result), highlight=False)
    for note in result.notes:
        console.print(f"note: {note}", style="yellow", highlight=False)
    for view in failure_views(result):
        console.print(Text(view.title, style="bold red"))
        console.print(Text(f"    why it matters: {why(view.check)}", style="dim"))
        for detail in view.details[:3]:
            console.print(Text(f"    {detail[:300]}"))
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
