"""Several targets side by side: one matrix per provider, one row per check, one column per target.

Built from the targets' own audit JSON reports (``harness audit --out``), never by running
anything again: each cell is exactly the (provider, check) square of that target's audit,
so the side-by-side view cannot disagree with the audits it shows. ``CrossTarget.to_json()``
(format ``harness-compare/1``) has sorted keys and no paths, like the audit's own JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.audit.baseline import BaselineError, read_audit
from harness.audit.model import AuditResult, Cell

__all__ = ["FORMAT", "CrossTarget", "CrossTargetError", "cross_target", "load_audit"]

FORMAT = "harness-compare/1"
Json = dict[str, Any]


class CrossTargetError(ValueError):
    """An audit report that cannot be read; ``str()`` is one line naming the file."""


def load_audit(path: Path) -> AuditResult:
    """An audit JSON file, or a directory holding ``audit.json`` (what ``harness audit --out`` wrote)."""
    file = path / "audit.json" if path.is_dir() else path
    try:
        return read_audit(file)
    except BaselineError as exc:
        raise CrossTargetError(str(exc)) from None


@dataclass(frozen=True)
class Column:
    """One target: its label (``name version``, made unique), and the audit behind it."""

    label: str
    audit: AuditResult
    matrix: dict[str, dict[str, Cell]]
    #: The same squares as the audit's own JSON ``matrix`` has them.
    squares: Json


@dataclass
class CrossTarget:
    """The side-by-side view: providers and checks in first-seen order, one column per audit given."""

    columns: list[Column]
    providers: list[str]
    checks: list[str]
    notes: list[str] = field(default_factory=lambda: [])

    @property
    def labels(self) -> list[str]:
        return [c.label for c in self.columns]

    def cell(self, provider: str, check: str, label: str) -> Cell | None:
        """The target's own square, or None when its audit did not run that provider or check."""
        column = next(c for c in self.columns if c.label == label)
        return column.matrix.get(provider, {}).get(check)

    def checks_of(self, provider: str) -> list[str]:
        """The checks some target ran for ``provider`` (a provider no target audited has none)."""
        return [c for c in self.checks if any(self.cell(provider, c, t) for t in self.labels)]

    def to_json(self) -> Json:
        return {
            "checks": list(self.checks),
            "format": FORMAT,
            "matrix": {
                provider: {
                    check: {c.label: c.squares.get(provider, {}).get(check) for c in self.columns}
                    for check in self.checks_of(provider)
                }
                for provider in self.providers
            },
            "notes": list(self.notes),
            "providers": list(self.providers),
            "targets": [
                {
                    "label": c.label,
                    "name": c.audit.target,
                    "options": dict(sorted(c.audit.options.items())),
                    "version": c.audit.version,
                }
                for c in self.columns
            ],
        }


def _union(lists: list[list[str]]) -> list[str]:
    seen: list[str] = []
    for items in lists:
        seen += [item for item in items if item not in seen]
    return seen


def _unique_labels(audits: list[AuditResult]) -> list[str]:
    """``name version``; the same label twice gets ``#2``, ``#3`` (two runs of one target, other options)."""
    labels: list[str] = []
    for audit in audits:
        base, n = audit.label, 1
        label = base
        while label in labels:
            n += 1
            label = f"{base} #{n}"
        labels.append(label)
    return labels


def _option_notes(columns: list[Column]) -> list[str]:
    keys = sorted({k for c in columns for k in c.audit.options})
    notes: list[str] = []
    for key in keys:
        values = [c.audit.options.get(key) for c in columns]
        if any(v != values[0] for v in values):
            each = ", ".join(f"{c.label}: {v!r}" for c, v in zip(columns, values, strict=True))
            notes.append(f"the audits were made with different {key} ({each}): cells may count other cases")
    return notes


def cross_target(audits: list[AuditResult]) -> CrossTarget:
    """Side by side, in the order given; notes say where the audits are not like for like."""
    columns = [
        Column(label, audit, audit.matrix(), audit.matrix_json())
        for label, audit in zip(_unique_labels(audits), audits, strict=True)
    ]
    notes = _option_notes(columns)
    for column in columns:
        notes += [f"{column.label}: {note}" for note in column.audit.notes]
    return CrossTarget(
        columns=columns,
        providers=_union([a.providers for a in audits]),
        checks=_union([a.checks for a in audits]),
        notes=notes,
    )
