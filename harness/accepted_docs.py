"""``docs/accepted.md``: every accepted difference, by provider, generated from the lists themselves.

    uv run python -m harness.accepted_docs docs/accepted.md

Four lists accept a difference instead of reporting it, each entry an ``Accepted``
(``harness.contract.accepted``); a reviewer reads them all here. ``tests/test_accepted_docs.py``
fails when the committed file differs from what this prints, or when a new kind of
``Accepted`` appears that this page does not list.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

from harness.closed_loop import ALLOWLIST as LOOP_ALLOWLIST
from harness.contract.accepted import Accepted
from harness.contract.providers import PROVIDERS
from harness.crosscheck import DIFFERENCES
from harness.import_check import ALLOWLIST as IMPORT_ALLOWLIST
from harness.jsondiff import JsonAllowance
from harness.oracles.allowances import ALLOWANCES, DEFAULTS, FieldDefault, OracleAllowance
from harness.outputs import write_text

__all__ = ["SOURCES", "Source", "render"]


@dataclass(frozen=True)
class Source:
    """One list of accepted differences: its name, its home, and what its entries accept."""

    name: str
    module: str
    accepts: str
    entries: Sequence[Accepted]


SOURCES: tuple[Source, ...] = (
    Source(
        "oracle",
        "harness/oracles/allowances.py",
        "an error of the schema (`spec`) or SDK (`sdk`) request oracle on a body; `where` is a regex "
        "over the body path. Recorded evidence is re-checked by tests/test_calibration.py. A `default` "
        "entry is a field the API fills in when absent: the oracles judge the body with it filled in",
        (*ALLOWANCES, *DEFAULTS),
    ),
    Source(
        "closed loop",
        "harness/closed_loop.py",
        "a difference between a recorded request N+1 and ours rebuilt from response N; `where` is a "
        "JSON path glob. tests/test_closed_loop.py fails on an entry no recorded round trip needs",
        LOOP_ALLOWLIST,
    ),
    Source(
        "import check",
        "harness/import_allowlist.py",
        "a difference between a recorded request and the reference render of its import; `where` is "
        "a JSON path glob (it reuses the closed-loop entries that hold for a single request)",
        IMPORT_ALLOWLIST,
    ),
    Source(
        "stream oracle",
        "harness/crosscheck/differences.py",
        "a difference between an official SDK's accumulation of a stream and our parser's; `where` "
        "says what differs. tests/test_crosscheck.py fails on an entry no case needs",
        DIFFERENCES,
    ),
)


def _matcher(entry: Accepted) -> list[str]:
    """The list-specific extras that narrow the entry, one bullet each."""
    lines: list[str] = []
    if isinstance(entry, OracleAllowance):
        lines.append(f"message: `{entry.message}`")
        if entry.value is not None:
            lines.append(f"type on the path: `{entry.value}`")
        if entry.hosts:
            lines.append(f"hosts: {', '.join(entry.hosts)}")
        if entry.models is not None:
            lines.append(f"models: `{entry.models}`")
    elif isinstance(entry, FieldDefault):
        lines.append(f"fills `{entry.key}` = `{entry.default!r}` on objects of type `{entry.kind}`")
        if entry.role is not None:
            lines.append(f"role: {entry.role}")
        if entry.listed is not None:
            lines.append(f"only when `{entry.listed}` is a list")
    elif isinstance(entry, JsonAllowance):
        lines.append(f"kind: {entry.kind}" + ("" if entry.accepts is None else ", when its predicate holds"))
        if entry.cassettes is not None:
            lines.append(f"only in: {', '.join(sorted(entry.cassettes))}")
    return lines


def _place(entry: Accepted) -> str:
    """``where`` as written: a path pattern in code, prose as is, the empty pattern named."""
    if not isinstance(entry, OracleAllowance | FieldDefault | JsonAllowance):
        return " ".join(entry.where.split())
    return f"`{entry.where}`" if entry.where else "the body itself (empty path)"


def _label(source: Source, entry: Accepted) -> str:
    if isinstance(entry, OracleAllowance):
        return f"{source.name}: {entry.oracle}"
    return f"{source.name}: default" if isinstance(entry, FieldDefault) else source.name


def _rows() -> dict[str, list[tuple[Accepted, list[str]]]]:
    """Per provider, each distinct entry once with every list it is in (shared entries are one object)."""
    by_provider: dict[str, list[tuple[Accepted, list[str]]]] = {p: [] for p in PROVIDERS}
    seen: dict[int, list[str]] = {}
    for source in SOURCES:
        for entry in source.entries:
            if id(entry) in seen:
                seen[id(entry)].append(_label(source, entry))
                continue
            labels = [_label(source, entry)]
            seen[id(entry)] = labels
            by_provider.setdefault(entry.provider, []).append((entry, labels))
    for rows in by_provider.values():
        rows.sort(key=lambda row: (row[0].id, row[1][0], row[0].where))
    return by_provider


def render() -> str:
    """The whole page: the lists, then one section per provider with its entries sorted by id."""
    lines = [
        "# Accepted differences",
        "",
        "Generated by `uv run python -m harness.accepted_docs docs/accepted.md`; do not edit by hand.",
        "",
        "Every difference the harness tolerates instead of reporting, in one place. Each entry is an",
        "`Accepted` (`harness/contract/accepted.py`): an id, the one provider it holds for, where it",
        "applies, why it is harmless and the evidence for it; its list adds the matcher it needs.",
        "",
        "| list | home | accepts |",
        "| --- | --- | --- |",
        *(f"| {s.name} | `{s.module}` | {s.accepts} |" for s in SOURCES),
    ]
    for provider, rows in _rows().items():
        lines += ["", f"## {provider}", "", f"{len(rows)} entries.", ""]
        for entry, labels in rows:
            place = _place(entry)
            lines += [f"### `{entry.id}` ({', '.join(labels)})", "", f"- where: {place}"]
            lines += [f"- {m}" for m in _matcher(entry)]
            lines.append(f"- why: {' '.join(entry.why.split())}")
            if entry.evidence:
                lines += ["- evidence:", *(f"  - {e}" for e in entry.evidence)]
            lines.append("")
        lines.pop()
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # with a path: written atomically (an interrupted run never truncates it)
    if len(sys.argv) > 1:
        write_text(sys.argv[1], render())
    else:
        sys.stdout.write(render())
