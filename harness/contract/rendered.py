"""What an input adapter returns and the judges read: a request body plus warnings, and its byte form."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["RenderWarning", "Rendered", "canonical_json", "compact_json", "same_json"]


@dataclass(frozen=True, order=True)
class RenderWarning:
    """A part that was dropped or degraded, or a request-level adjustment.

    ``message_index`` / ``part_index`` point into the canonical history (None for
    request-level warnings); ``code`` is a stable machine-readable slug.
    """

    message_index: int | None
    part_index: int | None
    part_type: str | None
    code: str
    reason: str

    def __str__(self) -> str:
        where = "request" if self.message_index is None else f"message {self.message_index}"
        if self.part_index is not None:
            where += f" part {self.part_index}"
        if self.part_type:
            where += f" ({self.part_type})"
        return f"{where}: {self.code}: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message_index": self.message_index,
            "part_index": self.part_index,
            "part_type": self.part_type,
            "reason": self.reason,
        }


@dataclass
class Rendered:
    """A request as a target renders it: the JSON body the provider would receive, and a warning
    for every part dropped or changed on the way."""

    body: dict[str, Any]
    warnings: list[RenderWarning] = field(default_factory=lambda: [])


def canonical_json(body: object) -> str:
    """The byte form goldens, the CLI and determinism checks compare."""
    return json.dumps(body, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def same_json(a: object, b: object) -> bool:
    """Whether ``canonical_json(a) == canonical_json(b)``, without writing the indented forms.

    ``indent`` sends ``json.dumps`` to its pure-Python encoder (seconds on a body holding a
    50 MB text); the compact form comes from the C encoder and has the same tokens (the same
    keys, order, numbers and escapes), with fixed separators: one form is equal exactly when
    the other is."""
    return compact_json(a) == compact_json(b)


def compact_json(body: object) -> str:
    """The form ``same_json`` compares (to compare one body with many, write it once)."""
    return json.dumps(body, sort_keys=True, ensure_ascii=False)
