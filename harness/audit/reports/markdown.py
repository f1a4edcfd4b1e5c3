"""The Markdown form, for a CI job summary: matrix table, failures with examples, baseline diffs."""

from __future__ import annotations

from harness.audit.baseline import BaselineComparison
from harness.audit.model import AuditResult
from harness.audit.reports.common import (
    anchor,
    cell_view,
    failure_views,
    legend,
    summary_line,
    summary_rows,
    verdict,
    visible,
    why,
)
from harness.contract.kinds import KINDS

__all__ = ["MD_ICON", "md_cell", "render_markdown"]

#: A square's icon, by its worst finding kind or else its status.
MD_ICON = {"pass": "✅", "fail": "❌", "skip": "⏭️", "reject": "⛔", "degrade": "❌", "policy": "⚠️"}


def _fence(text: str, language: str = "") -> list[str]:
    ticks = "```"
    while ticks in text:
        ticks += "`"
    return [f"{ticks}{language}", text.rstrip("\n"), ticks]


def md_cell(text: str) -> str:
    """Text for a Markdown table cell: a ``|`` would end the cell, so it is escaped."""
    return text.replace("|", "\\|")


def render_markdown(result: AuditResult, comparison: BaselineComparison) -> str:
    lines = [f"# Audit: {result.label}", "", summary_line(result), ""]
    lines += ["## Summary", "", "| provider | " + " | ".join(KINDS) + " | skip | worst |"]
    lines.append("|---|" + "---|" * (len(KINDS) + 2))
    for row in summary_rows(result):
        worst = ", ".join(f"[{c}](#{anchor(row.provider, c)}) ({k})" for c, k in row.worst) or "-"
        counts = " | ".join(str(row.by_kind[k]) for k in KINDS)
        lines.append(f"| {row.provider} | {counts} | {row.skipped} | {worst} |")
    lines.append("")
    lines += [f"> note: {note}" for note in result.notes]
    lines += ["", "## Conformance matrix", ""]
    lines.append("| provider | " + " | ".join(result.checks) + " |")
    lines.append("|---|" + "---|" * len(result.checks))
    for provider, row in result.matrix().items():
        views = [cell_view(row[c]) for c in result.checks]
        lines.append(
            f"| {provider} | "
            + " | ".join(
                f"{MD_ICON[v.kind or v.status]} "
                + (f"[{md_cell(v.text)}](#{anchor(provider, c)})" if v.status == "fail" else md_cell(v.text))
                for c, v in zip(result.checks, views, strict=True)
            )
            + " |"
        )
    lines += [
        "",
        "Kinds: reject = the provider's API refuses the request; degrade = accepted, but the model "
        "loses something it needs; policy = differs from the pinned design where the provider accepts both.",
        "",
    ]
    lines += ["| check | demands | why it matters |", "|---|---|---|"]
    lines += [f"| {c} | {md_cell(d)} | {md_cell(w)} |" for c, d, w in legend(result.checks)]
    failures = failure_views(result)
    lines += ["", "## Failures", ""]
    if not failures:
        lines.append("None.")
    for view in failures:
        lines += [f'<a name="{anchor(view.provider, view.check)}"></a>', ""]
        lines += [f"### {view.title}", "", f"Why it matters: {why(view.check)}", ""]
        lines += [f"- {md_cell(visible(d))}" for d in view.details]
        if view.more:
            lines.append(f"- ... {view.more} more in audit.json")
        lines += ["", "Smallest failing example:", ""]
        lines += _fence(visible(view.record.example or view.record.case))
        lines.append("")
    if comparison.baseline is not None:
        lines += ["## Baseline", "", f"Compared with **{comparison.baseline.label}**.", ""]
        lines += [f"> note: {note}" for note in comparison.notes]
        lines.append(
            f"{len(comparison.accepted)} known failures, {len(comparison.new)} new, {len(comparison.fixed)} fixed."
        )
        for title, items in (("New failures", comparison.new), ("Fixed", comparison.fixed)):
            if items:
                lines += ["", f"### {title}", ""] + [f"- {f}" for f in items]
        lines += ["", f"### Request body changes ({len(comparison.changed)})", ""]
        if not comparison.changed:
            lines.append("No request body changed.")
        for change in comparison.changed:
            lines += [f"#### {change.provider} {change.case}", ""]
            lines += _fence("\n".join(change.diff), "diff")
            lines.append("")
        for title, keys in (
            ("Only in this audit", comparison.added),
            ("Only in the baseline", comparison.removed),
        ):
            if keys:
                lines += ["", f"### {title}", ""] + [f"- {p} {c}" for p, c in keys]
    lines += ["", f"**Verdict:** {verdict(comparison)}", ""]
    return "\n".join(lines)
