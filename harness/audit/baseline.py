"""Baselines: known failures to accept, and earlier request bodies to diff against.

A baseline is an earlier audit's JSON (any target or version) or a goldens directory
(``goldens/`` or ``goldens/requests/``: the reference adapters' bodies per
``<provider>-<scenario>.json``, no failures). A failure is accepted when the baseline has
the same (provider, check, case) failing, whatever the details; the wire diff shows,
per case, how the request body changed, and nothing else.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from harness.audit.model import AuditResult, Failure
from harness.contract.kinds import DEFAULT_FAIL_ON, Kind
from harness.contract.providers import PROVIDERS
from harness.contract.rendered import canonical_json
from harness.inputs import InputError, loads_json, read_text

__all__ = [
    "Baseline",
    "BaselineComparison",
    "BaselineError",
    "BodyChange",
    "compare",
    "load_baseline",
    "read_audit",
]

Json = dict[str, Any]


class BaselineError(ValueError):
    """An unreadable baseline; ``str()`` is one line naming the file."""


@dataclass
class Baseline:
    label: str
    kind: str  # "audit" or "goldens"
    requests: dict[tuple[str, str], Json]
    failures: set[Failure] = field(default_factory=lambda: set())
    options: Json = field(default_factory=lambda: {})


@dataclass(frozen=True)
class BodyChange:
    """One case whose request body differs: a unified diff of the canonical JSON."""

    provider: str
    case: str
    diff: tuple[str, ...]


@dataclass
class BaselineComparison:
    baseline: Baseline | None
    accepted: list[Failure] = field(default_factory=lambda: [])
    new: list[Failure] = field(default_factory=lambda: [])
    fixed: list[Failure] = field(default_factory=lambda: [])
    changed: list[BodyChange] = field(default_factory=lambda: [])
    added: list[tuple[str, str]] = field(default_factory=lambda: [])
    removed: list[tuple[str, str]] = field(default_factory=lambda: [])
    notes: list[str] = field(default_factory=lambda: [])

    #: The finding kinds that fail the run (``--fail-on``); policy findings are listed, not fatal.
    fail_on: tuple[Kind, ...] = DEFAULT_FAIL_ON

    @property
    def fatal(self) -> list[Failure]:
        """New failures of a kind that fails the run."""
        return [f for f in self.new if f.kind in self.fail_on]

    @property
    def ok(self) -> bool:
        """No failure of a fatal kind that the baseline does not know."""
        return not self.fatal


def _provider_of(stem: str) -> str | None:
    matches = [p for p in PROVIDERS if stem.startswith(p + "-")]
    return max(matches, key=len) if matches else None


def _load_goldens(path: Path) -> Baseline:
    folder = path / "requests" if (path / "requests").is_dir() else path
    requests: dict[tuple[str, str], Json] = {}
    for file in sorted(folder.glob("*.json")):
        provider = _provider_of(file.stem)
        if provider is None:
            continue
        try:  # the input boundary: a regular file, strict UTF-8, bounded depth and integers
            data: Any = loads_json(read_text(file), source=str(file))
        except InputError as exc:
            raise BaselineError(str(exc)) from None
        if isinstance(data, dict) and isinstance(cast(Json, data).get("body"), dict):
            scenario = file.stem[len(provider) + 1 :]
            requests[(provider, f"scenario/{scenario}")] = cast(Json, cast(Json, data)["body"])
    if not requests:
        raise BaselineError(f"{path}: no request goldens (<provider>-<scenario>.json) found")
    return Baseline(label=f"goldens ({folder.name})", kind="goldens", requests=requests)


def read_audit(path: Path) -> AuditResult:
    """An audit JSON file (what ``harness audit --out`` wrote as ``audit.json``).

    Raises BaselineError, one line naming the file, when it cannot be read or is not an audit.
    """
    try:  # the input boundary: regular file, bounded size, depth and integers
        return AuditResult.from_json(loads_json(read_text(path), source=str(path)), PROVIDERS)
    except InputError as exc:
        raise BaselineError(str(exc)) from None
    except ValueError as exc:
        raise BaselineError(f"{path}: {exc}".splitlines()[0]) from None


def load_baseline(path: Path) -> Baseline:
    """An audit JSON file or a goldens directory."""
    if path.is_dir():
        return _load_goldens(path)
    result = read_audit(path)
    requests = {(r.provider, r.case): r.request for r in result.records if r.request is not None}
    return Baseline(
        label=result.label,
        kind="audit",
        requests=requests,
        failures=set(result.failures()),
        options=result.options,
    )


def _diff(before: Json, after: Json, before_label: str, after_label: str) -> tuple[str, ...]:
    lines = difflib.unified_diff(
        canonical_json(before).splitlines(),
        canonical_json(after).splitlines(),
        fromfile=before_label,
        tofile=after_label,
        lineterm="",
    )
    return tuple(lines)


def compare(
    result: AuditResult, baseline: Baseline | None, fail_on: tuple[Kind, ...] = DEFAULT_FAIL_ON
) -> BaselineComparison:
    """Accepted, new and fixed failures, and per-case request body changes, for the audited providers."""
    failures = result.failures()
    if baseline is None:
        return BaselineComparison(None, new=failures, fail_on=fail_on)
    providers = set(result.providers)
    known = {f for f in baseline.failures if f.provider in providers}
    current = {(r.provider, r.case): r.request for r in result.records if r.request is not None}
    if baseline.kind == "goldens":
        current = {key: body for key, body in current.items() if key[1].startswith("scenario/")}
    before = {key: body for key, body in baseline.requests.items() if key[0] in providers}
    changed = [
        BodyChange(
            p, c, _diff(before[(p, c)], body, f"{baseline.label}: {p} {c}", f"{result.label}: {p} {c}")
        )
        for (p, c), body in sorted(current.items())
        if (p, c) in before and canonical_json(before[(p, c)]) != canonical_json(body)
    ]
    notes = [
        f"the baseline was made with {key}={baseline.options.get(key)!r}, this audit with {value!r}"
        for key, value in sorted(result.options.items())
        if baseline.kind == "audit" and baseline.options.get(key) != value
    ]
    return BaselineComparison(
        baseline,
        notes=notes,
        accepted=[f for f in failures if f in known],
        new=[f for f in failures if f not in known],
        fixed=sorted(known - set(failures)),
        changed=changed,
        fail_on=fail_on,
        added=sorted(set(current) - set(before)),
        removed=sorted(set(before) - set(current)),
    )
