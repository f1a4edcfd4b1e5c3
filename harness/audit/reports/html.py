"""The HTML form: one self-contained file (inline CSS, no scripts, no external assets)."""

from __future__ import annotations

from html import escape

from harness.audit.baseline import BaselineComparison, BodyChange
from harness.audit.model import AuditResult
from harness.audit.reports.common import (
    SHORT_HEADERS,
    FailureView,
    anchor,
    cell_view,
    failure_views,
    legend,
    summary_line,
    summary_rows,
    terse,
    verdict,
    visible,
    why,
)
from harness.contract.kinds import KIND_MEANINGS, KINDS
from harness.outputs.report_style import CSS

__all__ = ["CSS", "legend_html", "render_html"]


def _matrix(result: AuditResult) -> list[str]:
    out = [
        '<table class="matrix">',
        "<tr><th>provider</th>"
        + "".join(
            f'<th title="{escape(c)}: {escape(d)}"><a href="#check-{escape(c)}">{escape(SHORT_HEADERS.get(c, c))}</a></th>'
            for c, d, _ in legend(result.checks)
        )
        + "</tr>",
    ]
    for provider, row in result.matrix().items():
        cells = "".join(
            f'<td class="{v.status} {v.kind or ""}" title="{escape(v.text)}: {escape(v.title)}">'
            + (
                f'<a href="#{escape(anchor(provider, c))}">{escape(terse(row[c]))}</a>'
                if v.status == "fail"
                else escape(terse(row[c]))
            )
            + "</td>"
            for c, v in ((c, cell_view(row[c])) for c in result.checks)
        )
        out.append(f"<tr><td>{escape(provider)}</td>{cells}</tr>")
    return [*out, "</table>"]


def _summary(result: AuditResult) -> list[str]:
    out = [
        '<h2 id="summary">Summary</h2><table class="summary"><tr><th>provider</th>'
        + "".join(f"<th>{k}</th>" for k in KINDS)
        + "<th>skip</th><th>worst</th></tr>"
    ]
    for row in summary_rows(result):
        worst = ", ".join(
            f'<a href="#{escape(anchor(row.provider, c))}">{escape(c)}</a> ({k})' for c, k in row.worst
        )
        out.append(
            f"<tr><td>{escape(row.provider)}</td>"
            + "".join(f'<td class="{k if row.by_kind[k] else ""}">{row.by_kind[k]}</td>' for k in KINDS)
            + f"<td>{row.skipped}</td><td>{worst or '-'}</td></tr>"
        )
    return [*out, "</table>"]


def legend_html(checks: list[str]) -> list[str]:
    """The legend section: what each finding kind means, and each check's demand and reason."""
    kinds = "".join(f"<li><b>{k}</b>: {escape(KIND_MEANINGS[k])}</li>" for k in KINDS)
    rows = "".join(
        f'<tr id="check-{escape(c)}"><td><b>{escape(c)}</b></td><td>{escape(d)}</td><td>{escape(w)}</td></tr>'
        for c, d, w in legend(checks)
    )
    return [
        '<h2 id="legend">Legend</h2>',
        f"<ul>{kinds}</ul>",
        f'<table class="legend"><tr><th>check</th><th>demands</th><th>why it matters</th></tr>{rows}</table>',
    ]


def _failure(view: FailureView) -> list[str]:
    items = "".join(f"<li>{escape(visible(d))}</li>" for d in view.details)
    more = f"<li>… {view.more} more in audit.json</li>" if view.more else ""
    example = escape(visible(view.record.example or view.record.case))
    return [
        f'<details open id="{escape(anchor(view.provider, view.check))}"><summary>{escape(view.title)}</summary>',
        f"<p>Why it matters: {escape(why(view.check))}</p>",
        f"<ul>{items}{more}</ul>",
        f"<p>Smallest failing example (<code>{escape(view.record.case)}</code>):</p><pre>{example}</pre>",
        "</details>",
    ]


def _diff_line(line: str) -> str:
    if line.startswith(("+++", "---")):
        return f"<b>{escape(line)}</b>"
    css = {"+": "add", "-": "del", "@": "hunk"}.get(line[:1])
    return f'<span class="{css}">{escape(line)}</span>' if css else escape(line)


def _change(change: BodyChange) -> list[str]:
    body = "\n".join(_diff_line(line) for line in change.diff)
    return [
        f"<details open><summary>{escape(change.provider)} {escape(change.case)}</summary>",
        f'<pre class="diff">{body}</pre></details>',
    ]


def _baseline(comparison: BaselineComparison) -> list[str]:
    assert comparison.baseline is not None
    out = [
        "<h2>Baseline</h2>",
        f"<p>Compared with <b>{escape(comparison.baseline.label)}</b>: {len(comparison.accepted)} known failures, "
        f"{len(comparison.new)} new, {len(comparison.fixed)} fixed.</p>",
    ]
    out += [f'<p class="note">note: {escape(note)}</p>' for note in comparison.notes]
    for title, failures in (("New failures", comparison.new), ("Fixed", comparison.fixed)):
        if failures:
            out += [f"<h3>{title}</h3><ul>"] + [f"<li>{escape(str(f))}</li>" for f in failures] + ["</ul>"]
    out.append(f"<h3>Request body changes ({len(comparison.changed)})</h3>")
    if not comparison.changed:
        out.append("<p>No request body changed.</p>")
    for change in comparison.changed:
        out += _change(change)
    for title, keys in (
        ("Only in this audit", comparison.added),
        ("Only in the baseline", comparison.removed),
    ):
        if keys:
            out += (
                [f"<h3>{title}</h3><ul>"] + [f"<li>{escape(p)} {escape(c)}</li>" for p, c in keys] + ["</ul>"]
            )
    return out


def render_html(result: AuditResult, comparison: BaselineComparison) -> str:
    title = f"Audit: {result.label}"
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p>{escape(summary_line(result))}</p>",
        *_summary(result),
    ]
    out += [f'<p class="note">note: {escape(note)}</p>' for note in result.notes]
    out += [
        "<h2>Conformance matrix</h2>",
        "<p>Each square: ✓ cases passed; ✗ failing cases by worst kind (R reject, D degrade, "
        "P policy) / cases; skip: nothing to judge. Hover for details; click a failing square "
        "for its findings.</p>",
        *_matrix(result),
        *legend_html(result.checks),
        "<h2>Failures</h2>",
    ]
    views = failure_views(result)
    if not views:
        out.append("<p>None.</p>")
    for view in views:
        out += _failure(view)
    if comparison.baseline is not None:
        out += _baseline(comparison)
    css = "verdict-ok" if comparison.ok else "verdict-bad"
    out += [f'<p class="{css}">Verdict: {escape(verdict(comparison))}</p>', "</body></html>", ""]
    return "\n".join(out)
