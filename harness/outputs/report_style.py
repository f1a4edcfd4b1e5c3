"""The look every HTML report shares: one style sheet and the finding-kind legend.

Why a module of its own: the audit report (``harness.audit.reports``) and the traffic
audit (``harness.traffic.audit_report``) are read side by side, so they share page
width, colours and legend; the traffic audit is a judge and may not import the audit
package (which reaches the reference adapters), so the shared part lives here.
"""

from __future__ import annotations

from html import escape

from harness.contract.kinds import KIND_MEANINGS, KINDS

__all__ = ["CSS", "kinds_legend_html"]

CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#1b1f24;max-width:1200px}
pre,li{overflow-wrap:anywhere;white-space:pre-wrap}.legend td,.summary td:last-child{text-align:left}
table.matrix{font-size:12px}table.matrix td,table.matrix th{padding:.2em .35em;white-space:nowrap}
h1{font-size:1.5em}h2{margin-top:2em;border-bottom:1px solid #d0d7de}
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #d0d7de;padding:.3em .6em;text-align:center}
th:first-child,td:first-child{text-align:left}
.pass{background:#dafbe1}.fail{background:#ffebe9;font-weight:600}.policy{background:#fff8c5}.skip{background:#f6f8fa;color:#6e7781}
pre{background:#f6f8fa;padding:.8em;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
.diff .add{color:#116329;background:#dafbe1}.diff .del{color:#82071e;background:#ffebe9}.diff .hunk{color:#8250df}
.note{color:#9a6700}.verdict-ok{color:#116329;font-weight:700}.verdict-bad{color:#cf222e;font-weight:700}
details{margin:.6em 0}summary{cursor:pointer;font-weight:600}
"""


def kinds_legend_html() -> str:
    """What each finding kind means, as an HTML list."""
    return "<ul>" + "".join(f"<li><b>{k}</b>: {escape(KIND_MEANINGS[k])}</li>" for k in KINDS) + "</ul>"
