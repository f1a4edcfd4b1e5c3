"""The side-by-side report in the audit's four forms: terminal (rich), HTML, Markdown and JSON.

Each square says what the target's own audit says, worded by the same helpers
(``terse`` for the terminal, ``cell_view`` elsewhere): failing cases by worst kind, pass,
or skip with the reason; ``-`` where the target's audit did not run the provider or check.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from harness.audit.cross import CrossTarget
from harness.audit.model import Cell
from harness.audit.reports.common import SHORT_HEADERS, cell_view, legend, summary_rows, terse
from harness.audit.reports.files import json_text, write_forms
from harness.audit.reports.html import CSS, legend_html
from harness.audit.reports.markdown import MD_ICON, md_cell
from harness.audit.reports.terminal import cell_style, fits, report_console
from harness.contract.kinds import KIND_MEANINGS, KINDS

__all__ = [
    "print_cross",
    "render_cross_html",
    "render_cross_json",
    "render_cross_markdown",
    "write_cross_reports",
]

_ABSENT = "-"
_KEY = "✓ cases passed; ✗ failing cases by worst kind (R reject, D degrade, P policy) / cases; skip: nothing to judge"


def _title(cross: CrossTarget) -> str:
    return "Side by side: " + " vs ".join(cross.labels)


def _about(cross: CrossTarget) -> str:
    return (
        f"{len(cross.labels)} targets x {len(cross.providers)} providers x {len(cross.checks)} checks; "
        "each square is that target's own audit square (- where its audit did not run the provider or check)"
    )


def _worst(cross: CrossTarget, provider: str, label: str) -> str:
    """A target's squares for one provider by worst kind: ``R3 D4 P1``, ``pass``, or ``-``.

    The counts are the target's own audit summary (``summary_rows``), so the two agree.
    """
    audit = next(c.audit for c in cross.columns if c.label == label)
    row = next((r for r in summary_rows(audit) if r.provider == provider), None)
    if row is None:
        return _ABSENT
    failing = " ".join(f"{k[0].upper()}{row.by_kind[k]}" for k in KINDS if row.by_kind[k]) or "pass"
    return f"{failing} skip {row.skipped}" if row.skipped else failing


def _skip_reasons(cross: CrossTarget, provider: str) -> list[tuple[str, str, str]]:
    """(check, target, reasons) for every square that only skipped."""
    return [
        (check, label, "; ".join(cell.skip_reasons) or "no cases")
        for check in cross.checks_of(provider)
        for label in cross.labels
        if (cell := cross.cell(provider, check, label)) is not None and cell.status == "skip"
    ]


# --- terminal ---------------------------------------------------------------------------------


def _square(cell: Cell | None) -> Text:
    if cell is None:
        return Text(_ABSENT, style="dim")
    return Text(terse(cell), style=cell_style(cell))


def _summary_table(cross: CrossTarget) -> Table:
    table = Table(title="Summary: failing squares by worst kind", title_justify="left")
    table.add_column("provider", no_wrap=True)
    for label in cross.labels:
        table.add_column(label, justify="center", no_wrap=True)
    for provider in cross.providers:
        table.add_row(provider, *(_worst(cross, provider, label) for label in cross.labels))
    return table


def _provider_table(cross: CrossTarget, provider: str) -> Table:
    table = Table(title=provider, title_justify="left", title_style="bold")
    table.add_column("check", no_wrap=True)
    for label in cross.labels:
        table.add_column(label, justify="center", no_wrap=True)
    for check in cross.checks_of(provider):
        table.add_row(check, *(_square(cross.cell(provider, check, label)) for label in cross.labels))
    return table


def _wrapped(console: Console, head: str, squares: list[Text]) -> None:
    """``head`` then the squares, two spaces apart, wrapped between squares and never inside one."""
    line = Text(head)
    for square in squares:
        if line.cell_len + 2 + square.cell_len > console.width:
            console.print(line, no_wrap=True)
            line = Text("   ")
        line.append("  ").append_text(square)
    console.print(line, no_wrap=True)


def _provider_list(cross: CrossTarget, provider: str, console: Console) -> None:
    """One line per check, for terminals too narrow for the table: every square whole, nothing cut."""
    console.print(Text(provider, style="bold"))
    for check in cross.checks_of(provider):
        squares = [
            Text(f"{label} ").append_text(_square(cross.cell(provider, check, label)))
            for label in cross.labels
        ]
        _wrapped(console, f"  {SHORT_HEADERS.get(check, check)}:", squares)


def print_cross(cross: CrossTarget, console: Console | None = None) -> None:
    console = console or report_console()
    console.print(Text(_title(cross), style="bold"))
    console.print(_about(cross), highlight=False)
    console.print(Text(_KEY, style="dim"))
    summary = _summary_table(cross)
    if fits(summary, console):
        console.print(summary)
    else:
        console.print(Text("Summary: failing squares by worst kind", style="bold"))
        for provider in cross.providers:
            squares = [Text(f"{label} {_worst(cross, provider, label)}") for label in cross.labels]
            _wrapped(console, f"  {provider}:", squares)
    for provider in cross.providers:
        table = _provider_table(cross, provider)
        if fits(table, console):
            console.print(table)
        else:
            _provider_list(cross, provider, console)
        for check, label, reasons in _skip_reasons(cross, provider):
            console.print(Text(f"  skip {check} ({label}): {reasons}", style="dim"))
    for note in cross.notes:
        console.print(f"note: {note}", style="yellow", highlight=False)


# --- Markdown ---------------------------------------------------------------------------------


def _md_square(cell: Cell | None) -> str:
    if cell is None:
        return _ABSENT
    view = cell_view(cell)
    reasons = f": {'; '.join(cell.skip_reasons)}" if view.status == "skip" and cell.skip_reasons else ""
    return f"{MD_ICON[view.kind or view.status]} {md_cell(view.text + reasons)}"


def render_cross_markdown(cross: CrossTarget) -> str:
    lines = [f"# {_title(cross)}", "", _about(cross) + ".", ""]
    lines += [
        f"- **{c.label}**: "
        + "".join(f"{k}={v}, " for k, v in sorted(c.audit.options.items()) if v is not None)
        + f"{len(c.audit.failures())} failing (provider, check, case)"
        for c in cross.columns
    ]
    lines += [
        "",
        "## Summary",
        "",
        "Failing squares (provider x check) by their worst finding kind: R reject, D degrade, P policy.",
        "",
    ]
    lines += ["| provider | " + " | ".join(map(md_cell, cross.labels)) + " |"]
    lines += ["|---|" + "---|" * len(cross.labels)]
    lines += [
        f"| [{p}](#{p}) | " + " | ".join(_worst(cross, p, label) for label in cross.labels) + " |"
        for p in cross.providers
    ]
    lines.append("")
    lines += [f"> note: {md_cell(note)}" for note in cross.notes]
    for provider in cross.providers:
        lines += ["", f'<a name="{provider}"></a>', "", f"## {provider}", ""]
        lines += ["| check | " + " | ".join(map(md_cell, cross.labels)) + " |"]
        lines += ["|---|" + "---|" * len(cross.labels)]
        lines += [
            f"| {check} | "
            + " | ".join(_md_square(cross.cell(provider, check, label)) for label in cross.labels)
            + " |"
            for check in cross.checks_of(provider)
        ]
    lines += ["", "## Legend", ""]
    lines += [f"- **{k}**: {KIND_MEANINGS[k]}" for k in KINDS]
    lines += ["", "| check | demands | why it matters |", "|---|---|---|"]
    lines += [f"| {c} | {md_cell(d)} | {md_cell(w)} |" for c, d, w in legend(cross.checks)]
    return "\n".join(lines) + "\n"


# --- HTML -------------------------------------------------------------------------------------


def _html_square(cell: Cell | None) -> str:
    if cell is None:
        return f'<td class="skip" title="not audited">{_ABSENT}</td>'
    view = cell_view(cell)
    title = f"{view.text}: {view.title}" if view.title else view.text
    return f'<td class="{view.status} {view.kind or ""}" title="{escape(title)}">{escape(terse(cell))}</td>'


def render_cross_html(cross: CrossTarget) -> str:
    heads = "".join(f"<th>{escape(label)}</th>" for label in cross.labels)
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(_title(cross))}</title><style>{CSS}</style></head><body>",
        f"<h1>{escape(_title(cross))}</h1>",
        f"<p>{escape(_about(cross))}. {escape(_KEY)}. Hover a square for its counts.</p>",
        '<h2 id="summary">Summary</h2><p>Failing squares by their worst finding kind: R reject, D degrade, P policy.</p>',
        f'<table class="summary"><tr><th>provider</th>{heads}</tr>',
    ]
    out += [
        f'<tr><td><a href="#{escape(p)}">{escape(p)}</a></td>'
        + "".join(f"<td>{escape(_worst(cross, p, label))}</td>" for label in cross.labels)
        + "</tr>"
        for p in cross.providers
    ]
    out.append("</table>")
    out += [f'<p class="note">note: {escape(note)}</p>' for note in cross.notes]
    for provider in cross.providers:
        out += [
            f'<h2 id="{escape(provider)}">{escape(provider)}</h2>',
            f'<table class="matrix"><tr><th>check</th>{heads}</tr>',
        ]
        out += [
            f'<tr><td><a href="#check-{escape(check)}">{escape(check)}</a></td>'
            + "".join(_html_square(cross.cell(provider, check, label)) for label in cross.labels)
            + "</tr>"
            for check in cross.checks_of(provider)
        ]
        out.append("</table>")
        out += [
            f'<p class="note">skip {escape(check)} ({escape(label)}): {escape(reasons)}</p>'
            for check, label, reasons in _skip_reasons(cross, provider)
        ]
    out += [*legend_html(cross.checks), "</body></html>", ""]
    return "\n".join(out)


# --- JSON and files ---------------------------------------------------------------------------


def render_cross_json(cross: CrossTarget) -> str:
    return json_text(cross.to_json())


def write_cross_reports(cross: CrossTarget, out: Path) -> dict[str, Path]:
    """Write ``compare.json``, ``compare.html`` and ``compare.md`` into ``out``; returns them by form."""
    return write_forms(
        out,
        "compare",
        {
            "json": render_cross_json(cross),
            "html": render_cross_html(cross),
            "markdown": render_cross_markdown(cross),
        },
    )
