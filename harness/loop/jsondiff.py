"""Compare two JSON bodies by path, each difference marked with the allowance that accepts it.

Shared by the closed loop (``harness.loop.closed_loop``: our request N+1 against the recorded
one) and ``harness import-check`` (an imported request rendered back against the recorded
body). Neutral: it imports neither the reference side nor the judges. A difference is
accepted by an entry of the registry of accepted differences (``harness.accepted``) whose
``diff`` is the difference's kind, whose ``where`` glob matches its path and whose
predicates hold on the two values.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from harness.accepted.predicates import Check, first_match, same_json
from harness.contract.accepted import Accepted, Seen

__all__ = ["DiffContext", "DiffKind", "JsonDifference", "diff_json", "same_json"]

Json = dict[str, Any]
DiffKind = Literal["missing", "extra", "changed"]


@dataclass(frozen=True)
class JsonDifference:
    """One difference between the recorded request (``recorded``) and ours (``ours``).

    ``missing``: only the recorded request has the path; ``extra``: only ours has it;
    ``changed``: both have it with different values. ``allowed_by`` is the id of the
    allowance that accepts it, or None for a finding.
    """

    path: str
    kind: DiffKind
    recorded: Any = None
    ours: Any = None
    allowed_by: str | None = None

    def __str__(self) -> str:
        def show(value: Any) -> str:
            text = json.dumps(value, ensure_ascii=False, sort_keys=True)
            return text if len(text) <= 80 else text[:77] + "..."

        verdict = f"allowed: {self.allowed_by}" if self.allowed_by else "NOT ALLOWED"
        if self.kind == "missing":
            what = f"only recorded: {show(self.recorded)}"
        elif self.kind == "extra":
            what = f"only ours: {show(self.ours)}"
        else:
            what = f"recorded {show(self.recorded)} != ours {show(self.ours)}"
        return f"{self.path}: {self.kind}: {what} [{verdict}]"


@dataclass
class DiffContext:
    """What allowance predicates may consult besides the two values."""

    provider: str
    cassette: str
    # Tool call ids the recording client minted (absent from the response) -> the id our parser minted.
    minted_ids: dict[str, str] = field(default_factory=lambda: {})


def diff_json(
    recorded: Any,
    ours: Any,
    ctx: DiffContext,
    allowances: Sequence[Accepted] = (),
    extra: Mapping[str, Check] | None = None,
) -> list[JsonDifference]:
    """Every difference, by JSON path, each marked with the entry that accepts it (if any).

    ``allowances``: registry entries (``harness.accepted.registry.for_judge``), matched by
    ``harness.accepted.predicates.matches``; ``extra``: the judge's own predicates. A predicate
    on the parent (``role_is``) sees the object holding the path: the recorded one, or ours for
    an ``extra`` difference.

    Allowances are tried at every node before descending, so an equivalence (for
    example base64 vs base64url) can accept a whole value; otherwise objects are
    compared key by key and lists index by index, down to the leaves.
    """
    out: list[JsonDifference] = []

    def judge(difference: JsonDifference, parent: Any) -> JsonDifference | None:
        seen = Seen(
            ctx.provider, difference.path, difference.kind, difference.recorded, difference.ours,
            parent=parent, cassette=ctx.cassette, minted_ids=ctx.minted_ids,
        )  # fmt: skip
        entry = first_match(allowances, seen, extra)
        if entry is None:
            return None
        return JsonDifference(
            difference.path, difference.kind, difference.recorded, difference.ours, entry.id
        )

    def one_sided(value: Any, path: str, kind: DiffKind, descend: bool, parent: Any) -> None:
        candidate = JsonDifference(
            path, kind, value if kind == "missing" else None, value if kind == "extra" else None
        )
        allowed = judge(candidate, parent)
        if allowed is not None:
            out.append(allowed)
        elif descend and isinstance(value, dict) and value:
            for key, sub in sorted(cast(Json, value).items()):
                one_sided(sub, f"{path}.{key}", kind, True, value)
        else:
            out.append(candidate)

    def walk(a: Any, b: Any, path: str, parent: Any) -> None:
        if same_json(a, b):
            return
        candidate = JsonDifference(path or "$", "changed", a, b)
        allowed = judge(candidate, parent)
        if allowed is not None:
            out.append(allowed)
        elif isinstance(a, dict) and isinstance(b, dict):
            da, db = cast(Json, a), cast(Json, b)
            for key in sorted(da.keys() | db.keys()):
                sub = f"{path}.{key}" if path else key
                if key not in db:
                    one_sided(da[key], sub, "missing", True, da)
                elif key not in da:
                    one_sided(db[key], sub, "extra", True, db)
                else:
                    walk(da[key], db[key], sub, da)
        elif isinstance(a, list) and isinstance(b, list):
            la, lb = cast(list[Any], a), cast(list[Any], b)
            for i in range(max(len(la), len(lb))):
                sub = f"{path}[{i}]"
                if i >= len(lb):
                    one_sided(la[i], sub, "missing", False, la)
                elif i >= len(la):
                    one_sided(lb[i], sub, "extra", False, lb)
                else:
                    walk(la[i], lb[i], sub, la)
        else:
            out.append(candidate)

    walk(recorded, ours, "", None)
    return out
