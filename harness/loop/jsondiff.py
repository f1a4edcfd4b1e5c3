"""Compare two JSON bodies by path, each difference marked with the allowance that accepts it.

Shared by the closed loop (``harness.loop.closed_loop``: our request N+1 against the recorded
one) and ``harness import-check`` (an imported request rendered back against the recorded
body). Neutral: it imports neither the reference side nor the judges. An allowance is a
``JsonAllowance``, the ``Accepted`` shape with a path glob, a kind and an optional
predicate on the two values.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from harness.contract.accepted import Accepted

__all__ = [
    "Accepts",
    "DiffContext",
    "DiffKind",
    "JsonAllowance",
    "JsonDifference",
    "diff_json",
    "is_null",
    "same_json",
    "string_is_one_block",
    "value_is",
]

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
    minted_ids: dict[str, str] = field(default_factory=dict[str, str])


Accepts = Callable[[Any, Any, DiffContext], bool]


@dataclass(frozen=True)
class JsonAllowance(Accepted):
    """One acceptable kind of difference between two JSON bodies, as narrow as it can be.

    ``where`` is a glob over JSON paths: ``[*]`` any list index, ``*`` one object key,
    ``{a,b}`` alternatives. ``kind`` must match, and ``accepts(recorded, ours, ctx)`` must
    also hold when given; ``cassettes`` (stems) restricts recorder-specific artifacts to
    their recording.
    """

    kind: DiffKind = field(kw_only=True)
    accepts: Accepts | None = field(default=None, kw_only=True)
    cassettes: frozenset[str] | None = field(default=None, kw_only=True)

    def matches(self, difference: JsonDifference, ctx: DiffContext) -> bool:
        if self.provider != ctx.provider or self.kind != difference.kind:
            return False
        if self.cassettes is not None and ctx.cassette not in self.cassettes:
            return False
        if _glob(self.where).fullmatch(difference.path) is None:
            return False
        return self.accepts is None or self.accepts(difference.recorded, difference.ours, ctx)


@functools.cache
def _glob(pattern: str) -> re.Pattern[str]:
    """A ``where`` glob as a regex; cached, since every difference is matched against every entry."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("[*]", i):
            out.append(r"\[\d+\]")
            i += 3
        elif pattern[i] == "*":
            out.append(r"[^.\[\]]+")
            i += 1
        elif pattern[i] == "{":
            end = pattern.index("}", i)
            out.append("(?:" + "|".join(re.escape(a) for a in pattern[i + 1 : end].split(",")) + ")")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))


def same_json(a: Any, b: Any) -> bool:
    """JSON equality: booleans are not numbers; 1 and 1.0 are the same number."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and bool(a == b)
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        da, db = cast(Json, a), cast(Json, b)
        return da.keys() == db.keys() and all(same_json(da[k], db[k]) for k in da)
    if isinstance(a, list) and isinstance(b, list):
        la, lb = cast(list[Any], a), cast(list[Any], b)
        return len(la) == len(lb) and all(same_json(x, y) for x, y in zip(la, lb, strict=True))
    left, right = cast(object, a), cast(object, b)
    return type(left) is type(right) and left == right


def value_is(expected: Any) -> Accepts:
    """The one-sided value must be exactly ``expected`` (a default the other side left implicit), in JSON equality."""

    def accepts(recorded: Any, ours: Any, ctx: DiffContext) -> bool:
        return same_json(recorded if recorded is not None else ours, expected)

    return accepts


def is_null(recorded: Any, ours: Any, ctx: DiffContext) -> bool:
    """The one-sided value is JSON null (the other side leaves the key out)."""
    return recorded is None and ours is None


def string_is_one_block(block_type: str) -> Accepts:
    """A string ``content`` where ours sends the same text as a one-element block list."""

    def accepts(recorded: Any, ours: Any, ctx: DiffContext) -> bool:
        return isinstance(recorded, str) and same_json(ours, [{"type": block_type, "text": recorded}])

    return accepts


def diff_json(
    recorded: Any, ours: Any, ctx: DiffContext, allowances: Sequence[JsonAllowance] = ()
) -> list[JsonDifference]:
    """Every difference, by JSON path, each marked with the allowance that accepts it (if any).

    Allowances are tried at every node before descending, so an equivalence (for
    example base64 vs base64url) can accept a whole value; otherwise objects are
    compared key by key and lists index by index, down to the leaves.
    """
    out: list[JsonDifference] = []

    def judge(difference: JsonDifference) -> JsonDifference | None:
        for allowance in allowances:
            if allowance.matches(difference, ctx):
                return JsonDifference(
                    difference.path, difference.kind, difference.recorded, difference.ours, allowance.id
                )
        return None

    def one_sided(value: Any, path: str, kind: DiffKind, descend: bool) -> None:
        candidate = JsonDifference(
            path, kind, value if kind == "missing" else None, value if kind == "extra" else None
        )
        allowed = judge(candidate)
        if allowed is not None:
            out.append(allowed)
        elif descend and isinstance(value, dict) and value:
            for key, sub in sorted(cast(Json, value).items()):
                one_sided(sub, f"{path}.{key}", kind, True)
        else:
            out.append(candidate)

    def walk(a: Any, b: Any, path: str) -> None:
        if same_json(a, b):
            return
        candidate = JsonDifference(path or "$", "changed", a, b)
        allowed = judge(candidate)
        if allowed is not None:
            out.append(allowed)
        elif isinstance(a, dict) and isinstance(b, dict):
            da, db = cast(Json, a), cast(Json, b)
            for key in sorted(da.keys() | db.keys()):
                sub = f"{path}.{key}" if path else key
                if key not in db:
                    one_sided(da[key], sub, "missing", True)
                elif key not in da:
                    one_sided(db[key], sub, "extra", True)
                else:
                    walk(da[key], db[key], sub)
        elif isinstance(a, list) and isinstance(b, list):
            la, lb = cast(list[Any], a), cast(list[Any], b)
            for i in range(max(len(la), len(lb))):
                sub = f"{path}[{i}]"
                if i >= len(lb):
                    one_sided(la[i], sub, "missing", False)
                elif i >= len(la):
                    one_sided(lb[i], sub, "extra", False)
                else:
                    walk(la[i], lb[i], sub)
        else:
            out.append(candidate)

    walk(recorded, ours, "")
    return out
