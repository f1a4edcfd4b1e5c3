"""``harness import-check``: every accepted recorded request is evidence about our reference adapters.

For each HTTP 200 request of the five providers in some traffic, ``import_request``
reads it back into a canonical history and params; when it represents the request fully,
the reference adapter renders it for the same provider and model, and the render is
compared with the recorded body by JSON path (``harness.loop.jsondiff.diff_json``). A difference
is accepted only by an entry of the registry of accepted differences for import-check
(``harness.accepted``, ``for_judge("import-check")``: id, provider, path pattern, why,
evidence); one matched by an entry with ``open`` set is *open* (our adapter's to fix,
docs/import-check-decisions.md), never allowed; anything else is listed, per provider, as
a difference beyond the allowlist.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.accepted.registry import for_judge
from harness.contract.accepted import Accepted, Seen
from harness.contract.providers import wire_of
from harness.contract.routing import BEDROCK_INVOKE
from harness.importcheck import shapes
from harness.importer import PROVIDERS, import_request
from harness.loop.jsondiff import DiffContext, JsonDifference, diff_json
from harness.rules.bedrock_invoke import invoke_view
from harness.targets import get_target
from harness.traffic import load_traffic
from harness.traffic.calibrate import EDITED_REASON
from harness.traffic.evidence import pasted_response
from harness.traffic.loader import EDITED

#: Why a call whose response its host cannot have sent is not rendered (``harness.traffic.evidence``).
PASTED_REASON = (
    "the response is not the host's (pasted into a hand-made cassette): no evidence of what it accepts"
)

__all__ = ["DECISIONS", "CheckedRequest", "ImportCheck", "check_one", "check_traffic", "entries", "see"]

DECISIONS = "docs/import-check-decisions.md"


def entries() -> tuple[Accepted, ...]:
    """import-check's entries, allowed and open, in registry order (read at each call: a test may add one)."""
    return for_judge("import-check")


def see(entry: Accepted) -> str:
    """Where an open entry's decision is argued: its anchor in docs/import-check-decisions.md."""
    return f"{DECISIONS}#{entry.open}"


def evidence_of(entry: Accepted) -> str:
    """An entry's evidence; the closed loop's own entries are evidenced by its test suite."""
    return "; ".join(entry.evidence) if entry.evidence else "the closed loop's tests (tests/test_loop.py)"


#: import-check's own predicates (the structural rewrites), over ``entries()``.
STRUCTURAL = shapes.Structural(entries)


def _entry_json(entry: Accepted) -> dict[str, str]:
    return {
        "id": entry.id,
        "provider": entry.provider,
        "path": entry.where,
        "why": entry.why,
        "evidence": evidence_of(entry),
    }


def _open_entries() -> dict[str, Accepted]:
    """The open entries of ``entries()`` by id, in their order."""
    return {e.id: e for e in entries() if e.open is not None}


def _open_refs(request: CheckedRequest) -> list[str]:
    by_id = _open_entries()
    return sorted({see(by_id[d.allowed_by]) for d in request.open if d.allowed_by})


def unrepresented_counts(requests: Iterable[CheckedRequest]) -> dict[str, dict[str, int]]:
    """Per provider: how many requests each unrepresentable feature kept from full representation.

    A feature is an unrepresented line with list indices as ``[*]`` and the shown value cut
    off (``tools[*].defer_loading: not representable``); one count per request.
    """
    out: dict[str, dict[str, int]] = {}
    for request in requests:
        features = {_feature(line) for line in request.unrepresented}
        counts = out.setdefault(request.provider, {})
        for feature in features:
            counts[feature] = counts.get(feature, 0) + 1
    return {p: dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))) for p, c in sorted(out.items())}


def _feature(line: str) -> str:
    """A line without its list indices and, for "not representable (VALUE)", without the value."""
    path, _, reason = line.partition(": ")
    if reason.startswith(("not representable (", "not a boolean (")):
        reason = reason.split(" (", 1)[0]
    return re.sub(r"\[\d+\]", "[*]", path) + ": " + reason


@dataclass
class CheckedRequest:
    """One accepted request: where it is, what the importer could not hold, and the render's differences."""

    provider: str
    where: str
    unrepresented: list[str]
    differences: list[JsonDifference] = field(default_factory=lambda: [])
    error: str | None = None

    @property
    def beyond(self) -> list[JsonDifference]:
        return [d for d in self.differences if d.allowed_by is None]

    @property
    def open(self) -> list[JsonDifference]:
        """Differences decided as our adapter's to fix (an entry with ``open``): not allowed."""
        by_id = _open_entries()
        return [d for d in self.differences if d.allowed_by in by_id]

    @property
    def verdict(self) -> str:
        if self.error is not None:
            return "not-imported"
        if self.unrepresented:
            return "partial"
        if not self.differences:
            return "identical"
        if self.beyond:
            return "beyond"
        return "open" if self.open else "allowed"


@dataclass
class ImportCheck:
    requests: list[CheckedRequest] = field(default_factory=lambda: [])
    skipped: dict[str, int] = field(default_factory=lambda: {})
    #: Inputs that could not be read (one line each, ``FILE#N: problem``): never counted as checked.
    unreadable: list[str] = field(default_factory=lambda: [])

    def figures(self) -> dict[str, dict[str, int]]:
        """Per provider: accepted, imported, fully represented, identical, within the allowlist, open, beyond it."""
        out: dict[str, dict[str, int]] = {}
        for provider in PROVIDERS:
            mine = [r for r in self.requests if r.provider == provider]
            verdicts = [r.verdict for r in mine]
            out[provider] = {
                "accepted": len(mine),
                "imported": sum(v != "not-imported" for v in verdicts),
                "represented": sum(v in ("identical", "allowed", "open", "beyond") for v in verdicts),
                "identical": verdicts.count("identical"),
                "within_allowlist": verdicts.count("allowed"),
                "open_adapter_change": verdicts.count("open"),
                "beyond_allowlist": verdicts.count("beyond"),
            }
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "figures": self.figures(),
            "skipped": dict(sorted(self.skipped.items())),
            "allowlist": [_entry_json(a) for a in entries() if a.open is None],
            "pending": [{**_entry_json(p), "see": see(p)} for p in _open_entries().values()],
            "beyond": [
                {"provider": r.provider, "where": r.where, "paths": sorted({d.path for d in r.beyond})}
                for r in self.requests
                if r.verdict == "beyond"
            ],
            "open": [
                {"provider": r.provider, "where": r.where, "see": _open_refs(r)}
                for r in self.requests
                if r.verdict == "open"
            ],
            "unrepresented": unrepresented_counts(self.requests),
            "not_imported": [
                {"where": r.where, "error": r.error} for r in self.requests if r.error is not None
            ],
        }


def check_one(provider: str, where: str, stem: str, body: Any, uri: str) -> CheckedRequest:
    try:
        imported = import_request(provider, body, uri=uri)
    except ValueError as exc:
        return CheckedRequest(provider, where, [], error=str(exc))
    checked = CheckedRequest(provider, where, imported.unrepresented)
    if imported.unrepresented:
        return checked
    rendered = get_target("reference").render(provider, imported.history, imported.params)
    ctx, everything = DiffContext(provider, stem), entries()
    checked.differences = diff_json(body, rendered.body, ctx, everything, STRUCTURAL.extra())
    open_ids = {e.id for e in everything if e.open is not None}
    if open_ids:
        inside = [d for allowed in checked.differences for d in _inside(allowed, ctx, everything)]
        checked.differences += [d for d in inside if d.allowed_by in open_ids]
    return checked


def _inside(
    difference: JsonDifference, ctx: DiffContext, everything: Sequence[Accepted]
) -> list[JsonDifference]:
    """The differences inside a node a structural entry accepted (it hides open ones otherwise)."""
    entry = next((e for e in everything if e.id == difference.allowed_by), None)
    rewrites = [p.args[0] for p in entry.when if p.name == "restructured"] if entry is not None else []
    if entry is None or entry.open is not None or not rewrites:
        return []
    seen = Seen(
        ctx.provider, difference.path, difference.kind, difference.recorded, difference.ours,
        cassette=ctx.cassette, minted_ids=ctx.minted_ids,
    )  # fmt: skip
    return STRUCTURAL.inner(seen, rewrites[0]) or []


def check_traffic(paths: Iterable[str | Path]) -> ImportCheck:
    """Import and render every accepted (HTTP 200) model request of the five providers under ``paths``."""
    result = ImportCheck()
    for call in load_traffic(paths):
        if call.problem is not None and call.problem.startswith("file: "):
            result.unreadable.append(f"{call.where}: {call.problem}")  # a whole file that could not be read
            continue
        if call.route is None or call.status != 200 or call.problem == "request body: empty":
            continue
        if call.problem is not None and call.problem.startswith(EDITED):
            result.skipped[EDITED_REASON] = result.skipped.get(EDITED_REASON, 0) + 1  # as calibrate
            continue
        if call.problem is not None:  # an accepted request whose body cannot be read: as calibrate
            result.unreadable.append(f"{call.where}: {call.problem}")
            continue
        if pasted_response(call) is not None:  # no evidence of what the host accepted: as calibrate
            result.skipped[PASTED_REASON] = result.skipped.get(PASTED_REASON, 0) + 1
            continue
        provider, wire = call.route.provider, call.route.wire
        if wire_of(provider) != wire:
            key = f"{provider} over the {wire} format"
            result.skipped[key] = result.skipped.get(key, 0) + 1
            continue
        body: Any = call.body
        if call.route.endpoint == BEDROCK_INVOKE:  # Anthropic's Messages body inside Bedrock's envelope
            body = invoke_view(body, call.uri)
        result.requests.append(check_one(provider, call.where, Path(call.file).stem, body, call.uri))
    return result


def render_text(check: ImportCheck) -> str:
    """The figures as a table, then each request that differs beyond the allowlist or is open, with why."""
    cols = (
        "accepted",
        "imported",
        "represented",
        "identical",
        "within_allowlist",
        "open_adapter_change",
        "beyond_allowlist",
    )
    lines = ["provider          " + "  ".join(f"{c:>19}" for c in cols)]
    for provider, row in check.figures().items():
        lines.append(f"{provider:<18}" + "  ".join(f"{row[c]:>19}" for c in cols))
    for key, n in sorted(check.skipped.items()):
        if " over the " in key:  # a provider over a wire its reference adapter does not render
            lines.append(f"skipped: {n} request(s) of {key} (not rendered by the reference in that format)")
        else:
            lines.append(f"skipped: {n} request(s): {key}")
    for r in check.requests:
        if r.verdict == "beyond":
            lines.append(
                f"{r.provider} {r.where}: beyond the allowlist: {', '.join(sorted({d.path for d in r.beyond}))}"
            )
        elif r.verdict == "open":
            lines.append(
                f"{r.provider} {r.where}: open: adapter change pending (see {', '.join(_open_refs(r))})"
            )
    return "\n".join(lines)


def render_json(check: ImportCheck) -> str:
    return json.dumps(check.to_json(), indent=2, sort_keys=True, ensure_ascii=False)


def render_markdown(check: ImportCheck) -> str:
    """The figures table docs/audits/import-check.md shows (a test keeps it equal to a fresh run)."""
    lines = [
        "| provider | accepted | imported | fully represented | identical | within allowlist "
        "| open: adapter change pending | beyond allowlist |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for provider, row in check.figures().items():
        share = f"{row['represented']} ({100 * row['represented'] // max(row['accepted'], 1)}%)"
        lines.append(
            f"| {provider} | {row['accepted']} | {row['imported']} | {share} | {row['identical']} "
            f"| {row['within_allowlist']} | {row['open_adapter_change']} | {row['beyond_allowlist']} |"
        )
    return "\n".join(lines) + "\n"


def render_unrepresented_markdown(check: ImportCheck) -> str:
    """Per provider, each feature the importer cannot represent and how many requests it kept partial."""
    lines: list[str] = []
    for provider, counts in unrepresented_counts(check.requests).items():
        lines.append(f"**{provider}**\n")
        lines.extend(f"- {n}: `{feature}`" for feature, n in counts.items())
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """``python -m harness.importcheck.check PATH... [--json]``: the figures (exit 2 with one line on a missing path)."""
    import argparse
    import sys

    from harness.traffic import TrafficInputError

    parser = argparse.ArgumentParser(
        prog="python -m harness.importcheck.check", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("paths", nargs="+", help="cassette files or directories")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--markdown", action="store_true", help="the figures table of the audit document")
    args = parser.parse_args(argv)
    try:
        check = check_traffic(args.paths)
    except TrafficInputError as exc:
        print(f"harness: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(render_json(check))
    else:
        print(render_markdown(check) if args.markdown else render_text(check))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
