"""The audit's data: one record per (provider, case) with each check's outcome, and the matrix over them.

``AuditResult.to_json()`` is the baseline format: sorted keys, records in a fixed order,
no clock and no paths that differ between machines, so two audits of the same target
version are byte-identical and two versions differ exactly where their behaviour does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from harness.contract.kinds import KINDS, Kind

__all__ = ["DEFAULT_EXAMPLES", "FORMAT", "AuditResult", "Cell", "Failure", "Outcome", "Record", "Status"]

#: /2 adds the finding kind of every failure (a /1 baseline cannot say which failures were policy).
FORMAT = "harness-audit/2"
#: Generated histories per audit (fixed seed; see ``harness.audit.generated``).
DEFAULT_EXAMPLES = 20
Status = Literal["pass", "fail", "skip"]
Json = dict[str, Any]


@dataclass(frozen=True)
class Outcome:
    """A check's verdict on one case; ``details`` are failure messages or the reason for a skip."""

    status: Status
    details: tuple[str, ...] = ()
    #: The finding kind of each detail of a failure (same length as ``details``).
    kinds: tuple[Kind, ...] = ()

    @classmethod
    def ok(cls) -> Outcome:
        return cls("pass")

    @classmethod
    def fail(cls, *details: str, kind: Kind = "degrade") -> Outcome:
        """A failure whose details are all of one kind."""
        return cls("fail", tuple(details), (kind,) * len(details))

    @classmethod
    def failures(cls, findings: list[tuple[Kind, str]]) -> Outcome:
        """A failure of mixed kinds, worst first (reject, degrade, policy), else a pass."""
        if not findings:
            return cls.ok()
        ordered = sorted(findings, key=lambda f: KINDS.index(f[0]))
        return cls("fail", tuple(d for _, d in ordered), tuple(k for k, _ in ordered))

    @classmethod
    def skip(cls, reason: str) -> Outcome:
        return cls("skip", (reason,))

    @property
    def found(self) -> tuple[Kind, ...]:
        """The distinct kinds of this failure, worst first (empty unless it failed)."""
        return tuple(k for k in KINDS if k in self.kinds) if self.status == "fail" else ()

    def to_json(self) -> Json:
        data: Json = {"details": list(self.details), "status": self.status}
        if self.status == "fail":
            data["kinds"] = list(self.kinds)
        return data

    @classmethod
    def from_json(cls, data: Json) -> Outcome:
        status = data.get("status")
        if status not in ("pass", "fail", "skip"):
            raise ValueError(f"status: {status!r} is not pass, fail or skip")
        details = tuple(str(d) for d in _list(data.get("details", []), "details"))
        kinds: tuple[Kind, ...] = tuple(_kind(k) for k in _list(data.get("kinds", []), "kinds"))
        if status == "fail" and len(kinds) != len(details):
            raise ValueError("kinds: one finding kind per detail expected")
        return cls(status, details, kinds)


def _list(value: object, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{name}: a list expected, got {type(value).__name__}")
    return cast(list[Any], value)


def _kind(value: object) -> Kind:
    for kind in KINDS:
        if value == kind:
            return kind
    raise ValueError(f"kinds: {value!r:.40} is not one of {', '.join(KINDS)}")


@dataclass(frozen=True, order=True)
class Failure:
    """A failure's identity for baselines: a known failure is accepted whatever its details say."""

    provider: str
    check: str
    case: str
    kind: Kind = "degrade"

    def __str__(self) -> str:
        return f"{self.provider} {self.check} {self.case} [{self.kind}]"


@dataclass
class Record:
    """One case rendered (or replayed) for one provider.

    ``request`` is the rendered body (None for cassettes and failed renders), ``replay`` a
    deterministic summary of a replayed response; ``example`` (the history or the cassette
    reference) is kept only when some check failed, for the report's smallest example.
    """

    provider: str
    case: str
    kind: str
    size: int
    checks: dict[str, Outcome] = field(default_factory=lambda: {})
    request: Json | None = None
    replay: Json | None = None
    example: str | None = None

    @property
    def failed(self) -> bool:
        return any(o.status == "fail" for o in self.checks.values())

    def to_json(self) -> Json:
        return {
            "case": self.case,
            "checks": {name: o.to_json() for name, o in sorted(self.checks.items())},
            "example": self.example,
            "kind": self.kind,
            "provider": self.provider,
            "replay": self.replay,
            "request": self.request,
            "size": self.size,
        }

    @classmethod
    def from_json(cls, data: object) -> Record:
        record = _object(data, "record")
        checks = _object(record.get("checks", {}), "checks")
        size = record.get("size", 0)
        if not isinstance(size, int) or isinstance(size, bool):
            raise ValueError(f"size: a whole number expected, got {size!r:.40}")
        request, replay = record.get("request"), record.get("replay")
        example = record.get("example")
        return cls(
            provider=_string(record.get("provider"), "provider"),
            case=_string(record.get("case"), "case"),
            kind=str(record.get("kind", "")),
            size=size,
            checks={name: Outcome.from_json(_object(o, f"checks.{name}")) for name, o in checks.items()},
            request=None if request is None else _object(request, "request"),
            replay=None if replay is None else _object(replay, "replay"),
            example=None if example is None else _string(example, "example"),
        )


@dataclass
class Cell:
    """One (provider, check) square of the matrix."""

    passed: int = 0
    failed: int = 0
    skipped: int = 0
    smallest: Record | None = None
    skip_reasons: list[str] = field(default_factory=lambda: [])
    #: Failing cases by the worst kind each one found.
    by_kind: dict[Kind, int] = field(default_factory=lambda: {})

    @property
    def worst(self) -> Kind | None:
        return next((k for k in KINDS if self.by_kind.get(k)), None)

    @property
    def status(self) -> Status:
        if self.failed:
            return "fail"
        return "pass" if self.passed else "skip"


@dataclass
class AuditResult:
    """Everything one audit found, in a fixed order (providers, then case ids)."""

    target: str
    version: str | None
    providers: list[str]
    checks: list[str]
    records: list[Record]
    notes: list[str] = field(default_factory=lambda: [])
    #: How the cases were made (``examples``, ``model`` override): a baseline compares like with like.
    options: dict[str, Any] = field(default_factory=lambda: {})
    #: Inputs that could not be read (one line each); they were skipped, and the exit status says so.
    unreadable: list[str] = field(default_factory=lambda: [])

    def failures(self) -> list[Failure]:
        return sorted(
            Failure(r.provider, name, r.case, kind)
            for r in self.records
            for name, outcome in r.checks.items()
            for kind in outcome.found
        )

    def matrix(self) -> dict[str, dict[str, Cell]]:
        cells = {p: {c: Cell() for c in self.checks} for p in self.providers}
        for record in self.records:
            for name, outcome in record.checks.items():
                row = cells.setdefault(record.provider, {})
                cell = row.get(name)
                if cell is None:  # (not ``setdefault``: that would build a Cell per record)
                    cell = row[name] = Cell()
                if outcome.status == "pass":
                    cell.passed += 1
                elif outcome.status == "skip":
                    cell.skipped += 1
                    for reason in outcome.details:
                        if reason not in cell.skip_reasons:
                            cell.skip_reasons.append(reason)
                else:
                    cell.failed += 1
                    worst = outcome.found[0] if outcome.found else "degrade"
                    cell.by_kind[worst] = cell.by_kind.get(worst, 0) + 1
                    if cell.smallest is None or (record.size, record.case) < (
                        cell.smallest.size,
                        cell.smallest.case,
                    ):
                        cell.smallest = record
        return cells

    @property
    def label(self) -> str:
        return f"{self.target} {self.version}" if self.version else self.target

    def matrix_json(self) -> Json:
        """The matrix as data: counts, status and the smallest failing case per (provider, check)."""
        return {
            provider: {
                check: {
                    "failed": cell.failed,
                    "failed_by_kind": {k: cell.by_kind[k] for k in KINDS if k in cell.by_kind},
                    "passed": cell.passed,
                    "skip_reasons": cell.skip_reasons,
                    "skipped": cell.skipped,
                    "smallest_failure": None if cell.smallest is None else cell.smallest.case,
                    "status": cell.status,
                }
                for check, cell in row.items()
            }
            for provider, row in self.matrix().items()
        }

    def to_json(self) -> Json:
        return {
            "checks": list(self.checks),
            "failures": [
                {"case": f.case, "check": f.check, "kind": f.kind, "provider": f.provider}
                for f in self.failures()
            ],
            "format": FORMAT,
            "matrix": self.matrix_json(),
            "notes": list(self.notes),
            "options": dict(sorted(self.options.items())),
            "providers": list(self.providers),
            "records": [r.to_json() for r in self.records],
            "target": {"name": self.target, "version": self.version},
        }

    @classmethod
    def from_json(cls, data: object, providers: Sequence[str] | None = None) -> AuditResult:
        """Read an audit JSON; ValueError naming the field for anything else (``providers``: the known ids)."""
        doc = _object(data, "the document")
        if doc.get("format") != FORMAT:
            raise ValueError(f"format: not a {FORMAT} document ({doc.get('format')!r:.40})")
        target = _object(doc.get("target"), "target")
        version = target.get("version")
        result = cls(
            target=_string(target.get("name"), "target.name"),
            version=None if version is None else _string(version, "target.version"),
            providers=[_string(p, "providers") for p in _list(doc.get("providers"), "providers")],
            checks=[_string(c, "checks") for c in _list(doc.get("checks"), "checks")],
            records=[Record.from_json(r) for r in _list(doc.get("records"), "records")],
            notes=[_string(n, "notes") for n in _list(doc.get("notes", []), "notes")],
            options=_object(doc.get("options", {}), "options"),
        )
        known = set(providers) if providers is not None else None
        for name in [*result.providers, *(r.provider for r in result.records)]:
            if known is not None and name not in known:
                raise ValueError(f"providers: unknown provider {name!r:.40}")
        return result


def _object(value: object, name: str) -> Json:
    if not isinstance(value, dict):
        raise ValueError(f"{name}: a JSON object expected, got {type(value).__name__}")
    return cast(Json, value)


def _string(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{name}: a string expected, got {type(value).__name__}")
    return value
