"""The audit's four forms: terminal (rich), HTML, Markdown and JSON (the baseline format)."""

from __future__ import annotations

import json
from pathlib import Path

from harness.audit.baseline import BaselineComparison
from harness.audit.model import AuditResult
from harness.audit.reports.html import render_html
from harness.audit.reports.markdown import render_markdown
from harness.audit.reports.terminal import print_report

__all__ = ["print_report", "render_html", "render_json", "render_markdown", "write_reports"]


def render_json(result: AuditResult) -> str:
    return json.dumps(result.to_json(), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def write_reports(result: AuditResult, comparison: BaselineComparison, out: Path) -> dict[str, Path]:
    """Write ``audit.json``, ``audit.html`` and ``audit.md`` into ``out``; returns them by form."""
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "json": (out / "audit.json", render_json(result)),
        "html": (out / "audit.html", render_html(result, comparison)),
        "markdown": (out / "audit.md", render_markdown(result, comparison)),
    }
    for path, text in files.values():
        path.write_text(text, encoding="utf-8")
    return {form: path for form, (path, _) in files.items()}
