"""The audit's four forms: terminal (rich), HTML, Markdown and JSON (the baseline format)."""

from __future__ import annotations

from pathlib import Path

from harness.audit.baseline import BaselineComparison
from harness.audit.model import AuditResult
from harness.audit.reports.files import json_text, write_forms
from harness.audit.reports.html import render_html
from harness.audit.reports.markdown import render_markdown
from harness.audit.reports.terminal import print_report

__all__ = ["print_report", "render_html", "render_json", "render_markdown", "write_reports"]


def render_json(result: AuditResult) -> str:
    return json_text(result.to_json())


def write_reports(result: AuditResult, comparison: BaselineComparison, out: Path) -> dict[str, Path]:
    """Write ``audit.json``, ``audit.html`` and ``audit.md`` into ``out``; returns them by form."""
    return write_forms(
        out,
        "audit",
        {
            "json": render_json(result),
            "html": render_html(result, comparison),
            "markdown": render_markdown(result, comparison),
        },
    )
