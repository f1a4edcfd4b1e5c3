"""The audit's data: one record per (provider, case) with each check's outcome, and the matrix over them.

``AuditResult.to_json()`` is the baseline format: sorted keys, records in a fixed order,
no clock and no paths that differ between machines, so two audits of the same target
version are byte-identical and two versions differ exactly where their behaviour does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, cast

__all__ = ["DEFAULT_EXAMPLES", "FORMAT", "AuditResult", "Cell", "Failure", "Outcome", "Record", "Status"]

FORMAT = "harness-audit/1"
#: Generated histories per audit (fixed seed; see ``harness.audit.generated``).
DEFAULT_EXAMPLES = 20
Status = Literal["pass", "fail", "skip"]
Json = dict[str, Any]


@dataclass(frozen=True)
class Outcome:
    """A check's verdict on one case; ``details`` are failure messages or the reason for a skip."""

    status: Status
    details: tuple[str, ...] = ()

    @classmethod
    def ok(cls) -> Outcome:
        return cls("pass")

    @classmethod
    def fail(cls, *details: str) -> Outcome:
        return cls("fail", tuple(details))

    @classmethod
    def skip(cls, reason: str) -> Outcome:
        return cls("skip", (reason,))

    def to_json(self) -> Json:
        return {"details": list(self.details), "status": self.status}

    @classmethod
    def from_json(cls, data: Json) -> Outcome:
        return cls(cast(Status, data["status"]), tuple(str(d) for d in data.get("details", [])))


@dataclass(frozen=True, order=True)
class Failure:
    """A failure's identity for baselines: a known failure is accepted whatever its details say."""

    provider: str
    check: str
    case: str

    def __str__(self) -> str:
        return f"{self.provider} {self.check} {self.case}"


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
    checks: dict[str, Outcome] = field(default_factory=dict[str, Outcome])
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
    def from_json(cls, data: Json) -> Record:
        checks = cast(dict[str, Json], data.get("checks", {}))
        return cls(
            provider=str(data["provider"]),
            case=str(data["case"]),
            kind=str(data.get("kind", "")),
            size=int(data.get("size", 0)),
            checks={name: Outcome.from_json(o) for name, o in checks.items()},
            request=cast(Json | None, data.get("request")),
            replay=cast(Json | None, data.get("replay")),
            example=cast(str | None, data.get("example")),
        )


@dataclass
class Cell:
    """One (provider, check) square of the matrix."""

    passed: int = 0
    failed: int = 0
    skipped: int = 0
    smallest: Record | None = None
    skip_reasons: list[str] = field(default_factory=list[str])

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
    notes: list[str] = field(default_factory=list[str])
    #: How the cases were made (``examples``, ``model`` override): a baseline compares like with like.
    options: dict[str, Any] = field(default_factory=dict[str, Any])

    def failures(self) -> list[Failure]:
        return sorted(
            Failure(r.provider, name, r.case)
            for r in self.records
            for name, outcome in r.checks.items()
            if outcome.status == "fail"
        )

    def matrix(self) -> dict[str, dict[str, Cell]]:
        cells = {p: {c: Cell() for c in self.checks} for p in self.providers}
        for record in self.records:
            for name, outcome in record.checks.items():
                cell = cells.setdefault(record.provider, {}).setdefault(name, Cell())
                if outcome.status == "pass":
                    cell.passed += 1
                elif outcome.status == "skip":
                    cell.skipped += 1
                    for reason in outcome.details:
                        if reason not in cell.skip_reasons:
                            cell.skip_reasons.append(reason)
                else:
                    cell.failed += 1
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
            "failures": [{"case": f.case, "check": f.check, "provider": f.provider} for f in self.failures()],
            "format": FORMAT,
            "matrix": self.matrix_json(),
            "notes": list(self.notes),
            "options": dict(sorted(self.options.items())),
            "providers": list(self.providers),
            "records": [r.to_json() for r in self.records],
            "target": {"name": self.target, "version": self.version},
        }

    @classmethod
    def from_json(cls, data: Json) -> AuditResult:
        if data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} document (format: {data.get('format')!r})")
        target = cast(Json, data["target"])
        return cls(
            target=str(target["name"]),
            version=cast(str | None, target.get("version")),
            providers=[str(p) for p in data["providers"]],
            checks=[str(c) for c in data["checks"]],
            records=[Record.from_json(r) for r in data["records"]],
            notes=[str(n) for n in data.get("notes", [])],
            options=cast(dict[str, Any], data.get("options", {})),
        )
