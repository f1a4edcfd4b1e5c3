"""The traffic audit in four forms: JSON (sorted keys), Markdown, HTML and terminal text.

All four render one JSON document (``report_data``), so they cannot disagree, and are
deterministic: findings sorted by file, interaction and check. Its lists may be on disk
(``harness.traffic.spool.Rows``, from ``spool_traffic``): every form is written as a stream of
pieces (``iter_json``, ``iter_markdown``, ``iter_html``, ``iter_terminal``), each list read item
by item, so memory stays flat however many findings there are; the pieces joined are the bytes
the whole-string renderers (``render_*``) return. Each finding names the
cassette and interaction it comes from; Markdown and HTML link to the file (relative to
the report's directory). Oracle disagreements (a ``reject`` verdict on a request the API
accepted) have their own section and count and never fail the run: they are evidence
against the check. The HTML page reads like the audit report: summary first, legend,
the same page width and colours (``harness.outputs.report_style``).
"""

from __future__ import annotations

import html
import os
import textwrap
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar, cast

from harness.contract.kinds import KIND_MEANINGS, KINDS, Kind
from harness.outputs import write_files
from harness.outputs.report_style import CSS, kinds_legend_html
from harness.outputs.text_table import fit_table, terminal_width
from harness.traffic.audit import FIGURES, SpooledAudit, TrafficAudit
from harness.traffic.spool import Rows
from harness.traffic.spool import iter_json as json_pieces

__all__ = [
    "iter_html",
    "iter_json",
    "iter_markdown",
    "iter_terminal",
    "render_html",
    "render_json",
    "render_markdown",
    "render_terminal",
    "report_data",
    "write_reports",
]

Json = dict[str, Any]
T = TypeVar("T")
#: A list of the report: in memory, or read from the spool on each iteration.
Items = Sequence[T] | Rows[T]

#: What each continuity check demands (the request checks carry their own why).
CHECKS: dict[str, str] = {
    "continuity-reasoning": "every reasoning payload of response N is sent back in request N+1, byte-exact",
    "continuity-tool-answered": "every tool call of response N is answered once, by its id verbatim, in call order",
    "continuity-text": "response N's text and tool arguments come back unchanged",
    "continuity-server-tools": "every server tool block of response N comes back in request N+1 as the provider sent it",
    "continuity-citations": "every citation of response N's answer comes back in request N+1 as the provider sent it",
    "continuity-stored": "a response continued by previous_response_id was stored (store: false makes it unfindable)",
    "cache-prefix": "request N's blocks up to its last cache breakpoint come back byte-identical, the breakpoint not moved back",
    "continuity-prefix": "request N's conversation, system and tools are a byte-identical prefix of request N+1's",
    "oracle:*": "the provider's published schema and official SDK types accept the body",
    "rule:*": "the provider's hard rules (tool pairing and ids, non-empty content, names, media types)",
}


def _rows(items: Items[T]) -> Rows[T]:
    return items if isinstance(items, Rows) else Rows.of(items)


def report_data(
    result: TrafficAudit | SpooledAudit, fail_on: Iterable[Kind], accepted: set[Any], baseline: str | None
) -> Json:
    """The report's JSON document; its lists are ``Rows`` read lazily from ``result`` (the spool's
    stay on disk), so it is valid as long as ``result`` is (inside ``spool_traffic``'s block)."""
    fatal = set(fail_on)
    counts = dict.fromkeys(KINDS, 0)
    failing = 0
    for f in result.findings:  # one pass, nothing kept
        if f.kind in counts:
            counts[f.kind] += 1
        failing += f.kind in fatal and f.key not in accepted
    findings = _rows(result.findings).map(
        lambda f: {**vars(f), "where": f.where, "accepted_by_baseline": f.key in accepted}
    )
    return {
        "files": result.files,
        "providers": {p: result.figures[p] for p in sorted(result.figures)},
        "findings": findings,
        "disagreements": _rows(result.disagreements).map(lambda f: {**vars(f), "where": f.where}),
        "rejections": _rows(result.rejections).map(lambda r: {**vars(r), "by": list(r.by)}),
        "skipped": _rows(result.skipped),
        "unreadable": _rows(result.unreadable),
        "notes": _rows(result.notes),
        "fail_on": [k for k in KINDS if k in fatal],
        "baseline": baseline,
        "counts": counts,
        "failing": failing,
        "ok": not failing and not result.unreadable,
    }


def iter_json(data: Json) -> Iterator[str]:
    """``render_json``'s text in pieces: each list one item at a time."""
    yield from json_pieces(data, ensure_ascii=False)
    yield "\n"


def render_json(data: Json) -> str:
    """``json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False)``, with ``Rows`` as lists."""
    return "".join(iter_json(data))


def _findings(data: Json) -> Items[Json]:
    return cast(Items[Json], data["findings"])


def _disagreements(data: Json) -> Items[Json]:
    return cast(Items[Json], data.get("disagreements", []))


def _joined(lines: Iterable[str]) -> Iterator[str]:
    """``"\\n".join(lines)`` in pieces."""
    for n, line in enumerate(lines):
        yield f"\n{line}" if n else line


def _disagreement_line(f: Json) -> str:
    return f"{f['where']} {f['provider']} HTTP {f['status']} {f['check']} {f['path'] or '<root>'}: {f['message']}"


def _verdict(data: Json) -> str:
    counts = cast(dict[str, int], data["counts"])
    kinds = ", ".join(f"{k} {counts[k]}" for k in KINDS)
    state = "OK" if data["ok"] else "FAIL"
    extra = f", {len(data['unreadable'])} unreadable" if data["unreadable"] else ""
    missed = _disagreements(data)
    extra += f", {len(missed)} oracle disagreement(s) on accepted requests" if missed else ""
    return f"{state}: {len(_findings(data))} finding(s) ({kinds}), {data['failing']} failing on {'+'.join(data['fail_on']) or 'nothing'}{extra}"


def _figure_rows(data: Json) -> list[list[str]]:
    providers = cast(dict[str, dict[str, int]], data["providers"])
    rows = [["provider", *FIGURES]]
    rows += [[p, *(str(providers[p][f]) for f in FIGURES)] for p in providers]
    return rows


#: The terminal's figure columns: (header, numerator, denominator or None); a pair of figures
#: reads as one "n/of" column, so the table fits 80 columns in two blocks.
_TERMINAL_FIGURES: tuple[tuple[str, str, str | None], ...] = (
    ("requests", "requests", None),
    ("2xx", "accepted", None),
    ("4xx", "rejected", None),
    ("disagree", "disagreements", None),
    ("continued", "continuations", "pairs"),
    ("exact", "reasoning_exact", "reasoning"),
    ("re-enc", "reasoning_reencoded", None),
    ("by-ref", "reasoning_by_reference", None),
    ("answered", "tool_calls_answered", "tool_calls"),
    ("texts", "texts_kept", "texts"),
    ("prefix", "prefixes_stable", "prefixes"),
    ("cache", "cache_prefixes_kept", "cache_prefixes"),
)
_TERMINAL_LEGEND = (
    "  continued: pairs of calls where the next continues the last; exact/re-enc/by-ref: reasoning sent "
    "back byte-exact, re-encoded or by reference, of all; answered: tool calls; texts: kept unchanged; "
    "prefix: stable; cache: the prefix up to the last breakpoint kept (the JSON report has every figure)"
)


def _terminal_figure_rows(data: Json) -> list[list[str]]:
    """Providers with no request in the traffic are left out (the JSON report lists them all)."""
    providers = cast(dict[str, dict[str, int]], data["providers"])
    rows = [["provider", *(head for head, _, _ in _TERMINAL_FIGURES)]]
    for p, figures in providers.items():
        if figures["requests"]:
            cells = [
                str(figures[n]) if d is None else f"{figures[n]}/{figures[d]}"
                for _, n, d in _TERMINAL_FIGURES
            ]
            rows.append([p, *cells])
    return rows


def _status(f: Json) -> str:
    return f"HTTP {f['status']}" if f["status"] else ""


def _rejection_line(r: Json) -> str:
    detail = ", ".join(cast(list[str], r["by"])) if r["verdict"] == "caught" else r["reason"]
    return (
        f"{r['where']} {r['provider']} HTTP {r['status']} {r['verdict']}: {detail} -- API said: {r['error']}"
    )


def _cache_lines(data: Json) -> list[str]:
    """Per provider whose responses report prompt-cache usage: the tokens read from and written to it."""
    providers = cast(dict[str, dict[str, int]], data["providers"])
    return [
        f"cache tokens: {p}: {f.get('cache_read_tokens', 0)} read, {f.get('cache_write_tokens', 0)} written"
        for p, f in providers.items()
        if f.get("cache_read_tokens") or f.get("cache_write_tokens")
    ]


def iter_terminal(data: Json, width: int | None = None) -> Iterator[str]:
    """``render_terminal``'s text in pieces (a line at a time)."""
    return (f"{line}\n" for line in _terminal_lines(data, width))


def _terminal_lines(data: Json, width: int | None) -> Iterator[str]:
    yield f"traffic audit: {data['files']} file(s)"
    width = width or terminal_width()
    rows = _terminal_figure_rows(data)
    if len(rows) > 1:  # a header alone says nothing: no model request was read
        yield from fit_table(rows, width)
        yield from textwrap.wrap(_TERMINAL_LEGEND, width, subsequent_indent="  ", break_on_hyphens=False)
    yield from _cache_lines(data)
    for f in _findings(data):
        mark = " (baseline)" if f["accepted_by_baseline"] else ""
        yield f"{f['kind']:<7} {f['where']} {f['provider']} {f['check']} {f['path'] or '<root>'}: {f['message']}{mark}"
    yield from (f"rejected: {_rejection_line(r)}" for r in cast(Items[Json], data["rejections"]))
    missed = _disagreements(data)
    if missed:
        yield f"oracle disagreements: {len(missed)} (reject verdicts on accepted requests; the checks are wrong)"
        yield from (f"  {_disagreement_line(f)}" for f in missed)
    yield from (f"unreadable: {u}" for u in cast(Items[str], data["unreadable"]))
    yield from (f"note: {n}" for n in cast(Items[str], data.get("notes", [])))
    if data["skipped"]:
        yield f"skipped: {len(data['skipped'])} call(s) that are not judged (see the JSON report)"
    yield _verdict(data)


def render_terminal(data: Json, width: int | None = None) -> str:
    """The text report; the figure table fits ``width`` (default: the terminal's, see
    ``terminal_width``), cut into blocks of columns when narrower."""
    return "".join(iter_terminal(data, width))


def _href(file: str, out_dir: Path) -> str:
    return Path(os.path.relpath(Path(file).resolve(), out_dir.resolve())).as_posix()


class _Hrefs:
    """``_href`` for one pass over a list sorted by file: a file's link is worked out once for its
    run of findings (resolving a path is a system call per folder), and only the last is kept."""

    def __init__(self, out_dir: Path) -> None:
        self._out_dir = out_dir
        self._last: tuple[str, str] | None = None

    def __call__(self, file: str) -> str:
        if self._last is None or self._last[0] != file:
            self._last = (file, _href(file, self._out_dir))
        return self._last[1]


def iter_markdown(data: Json, out_dir: Path) -> Iterator[str]:
    """``render_markdown``'s text in pieces (a line at a time)."""
    return _joined(_markdown_lines(data, out_dir))


def _markdown_lines(data: Json, out_dir: Path) -> Iterator[str]:
    yield from ["# Traffic audit", "", f"{_verdict(data)}", "", f"{data['files']} cassette file(s).", ""]
    rows = _figure_rows(data)
    yield from ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
    yield from ["| " + " | ".join(r) + " |" for r in rows[1:]]
    yield from ["", "## Findings", ""]
    counts = cast(dict[str, int], data["counts"])
    for kind in KINDS:
        if not counts[kind]:
            continue
        yield from [f"### {kind} ({counts[kind]}): {KIND_MEANINGS[kind]}", ""]
        href = _Hrefs(out_dir)
        for f in _findings(data):  # a pass per kind: nothing kept
            if f["kind"] != kind:
                continue
            mark = " (accepted by the baseline)" if f["accepted_by_baseline"] else ""
            status = f" {_status(f)}" if f["status"] != 200 else ""
            yield (
                f"- [`{f['where']}`]({href(f['file'])}) {f['provider']} `{f['check']}` "
                f"`{f['path'] or '<root>'}`{status}: {str(f['message']).rstrip('.')}{mark}. Why it matters: {f['why']}"
            )
        yield ""
    missed = _disagreements(data)
    if missed:
        yield from [
            f"## Oracle disagreements ({len(missed)})",
            "",
            "A check called these requests a reject, but the API accepted them: the check is wrong "
            "(a calibration miss), not the project that sent them. They never fail the run.",
            "",
        ]
        href = _Hrefs(out_dir)
        yield from (
            f"- [`{f['where']}`]({href(f['file'])}) {_disagreement_line(f).split(' ', 1)[1]}" for f in missed
        )
        yield ""
    rejections = cast(Items[Json], data["rejections"])
    if rejections:
        yield from ["## Recorded rejections (4xx)", ""]
        yield from (f"- {_rejection_line(r)}" for r in rejections)
        yield ""
    unreadable = cast(Items[str], data["unreadable"])
    if unreadable:
        yield from ["## Unreadable", ""]
        yield from (f"- {u}" for u in unreadable)
        yield ""
    notes = cast(Items[str], data.get("notes", []))
    if notes:
        yield from ["## Notes", ""]
        yield from (f"- {n}" for n in notes)
        yield ""
    yield from ["## Checks", ""]
    yield from (f"- `{k}`: {v}" for k, v in CHECKS.items())
    yield from ["", f"Skipped (not judged): {len(data['skipped'])} call(s), listed in the JSON report.", ""]


def render_markdown(data: Json, out_dir: Path) -> str:
    return "".join(iter_markdown(data, out_dir))


def _summary_rows(data: Json) -> list[list[str]]:
    """Per provider: what was judged and what came out of it (the page's first table); each list
    counted in one pass."""
    providers = cast(dict[str, dict[str, int]], data["providers"])
    kinds = Counter((f["provider"], f["kind"]) for f in _findings(data))
    missed = Counter(f["provider"] for f in _disagreements(data))
    verdicts = Counter((r["provider"], r["verdict"]) for r in cast(Items[Json], data["rejections"]))
    head = ["provider", "requests", "accepted", "rejected", *KINDS, "oracle disagreements", "4xx caught",
            "4xx classified", "4xx unexplained"]  # fmt: skip
    rows = [head]
    for p, figures in providers.items():
        rows.append([
            p, str(figures["requests"]), str(figures["accepted"]), str(figures["rejected"]),
            *(str(kinds[p, k]) for k in KINDS),
            str(missed[p]),
            *(str(verdicts[p, v]) for v in ("caught", "classified", "unexplained")),
        ])  # fmt: skip
    return rows


def _table(rows: list[list[str]], css: str = "") -> str:
    e = html.escape
    head = "<tr>" + "".join(f"<th>{e(c)}</th>" for c in rows[0]) + "</tr>"
    body = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in rows[1:])
    return f'<table class="{css}">{head}{body}</table>'


def iter_html(data: Json, out_dir: Path) -> Iterator[str]:
    """``render_html``'s text in pieces: a row or item at a time."""
    e = html.escape
    verdict_css = "verdict-ok" if data["ok"] else "verdict-bad"
    yield (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Traffic audit</title>'
        f"<style>{CSS}.reject{{background:#ffebe9}}.degrade{{background:#fff1e0}}</style></head>"
        f'<body><h1>Traffic audit</h1><p class="{verdict_css}">{e(_verdict(data))}</p>'
        f"<p>{data['files']} cassette file(s).</p>"
        f'<h2 id="summary">Summary</h2>{_table(_summary_rows(data), "summary")}'
        f'<h2 id="legend">Legend</h2>{kinds_legend_html()}'
        "<p>An <b>oracle disagreement</b> is a reject verdict on a request the API accepted: evidence "
        "against the check, never a finding against the audited project.</p>"
    )
    checks = "".join(f"<tr><td><code>{e(k)}</code></td><td>{e(v)}</td></tr>" for k, v in CHECKS.items())
    yield f'<table class="legend"><tr><th>check</th><th>demands</th></tr>{checks}</table>'
    yield (
        "<h2>Findings</h2><table><tr><th>kind</th><th>where</th><th>provider</th><th>check</th>"
        "<th>path</th><th>status</th><th>what</th></tr>"
    )
    href = _Hrefs(out_dir)
    yield from (
        f'<tr class="{e(f["kind"])}"><td>{e(f["kind"])}</td>'
        f'<td><a href="{e(href(f["file"]))}">{e(f["where"])}</a></td>'
        f"<td>{e(f['provider'])}</td><td><code>{e(f['check'])}</code></td><td><code>{e(f['path'] or '<root>')}</code></td>"
        f"<td>{e(_status(f))}</td><td>{e(f['message'])}{' (accepted by the baseline)' if f['accepted_by_baseline'] else ''}"
        f"<br><small>{e(f['why'])}</small></td></tr>"
        for f in _findings(data)
    )
    yield (
        f"</table><h2>Oracle disagreements ({len(_disagreements(data))})</h2>"
        "<table><tr><th>where</th><th>provider</th><th>status</th><th>check</th><th>path</th><th>what</th></tr>"
    )
    href = _Hrefs(out_dir)
    yield from (
        f'<tr><td><a href="{e(href(f["file"]))}">{e(f["where"])}</a></td><td>{e(f["provider"])}</td>'
        f"<td>{e(_status(f))}</td><td><code>{e(f['check'])}</code></td><td><code>{e(f['path'] or '<root>')}</code></td>"
        f"<td>{e(f['message'])}</td></tr>"
        for f in _disagreements(data)
    )
    yield "</table><h2>Recorded rejections (4xx)</h2><ul>"
    yield from (f"<li>{e(_rejection_line(r))}</li>" for r in cast(Items[Json], data["rejections"]))
    yield "</ul><h2>Unreadable</h2><ul>"
    yield from (f"<li>{e(u)}</li>" for u in cast(Items[str], data["unreadable"]))
    yield (
        f"</ul><h2>Figures</h2>{_table(_figure_rows(data), 'matrix')}"
        f"<p>Skipped (not judged): {len(data['skipped'])} call(s), listed in the JSON report.</p></body></html>\n"
    )


def render_html(data: Json, out_dir: Path) -> str:
    return "".join(iter_html(data, out_dir))


#: The files ``write_reports`` writes under ``--out`` (checked before the run starts).
REPORT_NAMES = ("traffic-audit.json", "traffic-audit.md", "traffic-audit.html")


def write_reports(data: Json, out_dir: Path) -> list[Path]:
    """``traffic-audit.{json,md,html}`` under ``out_dir`` (created), as one atomic set (raises
    ``OutputError``); each written as a stream of pieces, never whole in memory."""
    written = {
        "traffic-audit.json": iter_json(data),
        "traffic-audit.md": iter_markdown(data, out_dir),
        "traffic-audit.html": iter_html(data, out_dir),
    }
    return write_files({out_dir / name: text for name, text in written.items()})
