"""I9 prefix-stability: appending a turn only appends to the request, so the prompt cache keeps working.

The request for ``history`` and the request for ``history`` plus a well-formed next turn
must agree byte for byte on every conversation entry (``messages`` / ``input`` /
``contents``) except the previous request's last one, which a provider may legitimately
merge the new turn into (Anthropic and Gemini merge consecutive user content), and on
the system prompt. The next turn is an assistant answer and a user question, or just a
user question when the history already ends with an assistant message
(``continuation.next_turn``; a context may bring its own, e.g. a generated turn).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

from harness.contract.rendered import same_json
from harness.invariants.base import CheckContext, Violation, as_dict
from harness.invariants.continuation import next_turn
from harness.invariants.wire import wire_messages

__all__ = ["check_prefix_stability", "differences", "first_difference", "next_turn"]

ID = "I9"
_SYSTEM_KEYS = ("system", "instructions", "systemInstruction")  # bodies as read: camelCase


def _list(value: object) -> list[Any] | None:
    return cast(list[Any], value) if isinstance(value, list) else None


def first_difference(a: Any, b: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first path where two JSON values differ, with both values there."""
    da, db = as_dict(a), as_dict(b)
    if da is not None and db is not None:
        for key in sorted(set(da) | set(db)):
            if key not in da or key not in db:
                return (f"{path}.{key}", da.get(key, "<absent>"), db.get(key, "<absent>"))
            found = first_difference(da[key], db[key], f"{path}.{key}")
            if found:
                return found
        return None
    la, lb = _list(a), _list(b)
    if la is not None and lb is not None:
        for n in range(min(len(la), len(lb))):
            found = first_difference(la[n], lb[n], f"{path}[{n}]")
            if found:
                return found
        if len(la) != len(lb):
            return (f"{path}.length", len(la), len(lb))
        return None
    same: bool = a == b and type(a) is type(b)
    return None if same else (path or "<root>", a, b)


def differences(a: Any, b: Any, path: str = "") -> Iterator[tuple[str, Any, Any]]:
    """Every path where two JSON values differ (document order), with both values there."""
    da, db = as_dict(a), as_dict(b)
    if da is not None and db is not None:
        for key in sorted(set(da) | set(db)):
            if key not in da or key not in db:
                yield (f"{path}.{key}", da.get(key, "<absent>"), db.get(key, "<absent>"))
            else:
                yield from differences(da[key], db[key], f"{path}.{key}")
        return
    la, lb = _list(a), _list(b)
    if la is not None and lb is not None:
        for n in range(min(len(la), len(lb))):
            yield from differences(la[n], lb[n], f"{path}[{n}]")
        if len(la) != len(lb):
            yield (f"{path}.length", len(la), len(lb))
        return
    if not (a == b and type(a) is type(b)):
        yield (path or "<root>", a, b)


def check_prefix_stability(ctx: CheckContext) -> list[Violation]:
    before_body = ctx.body
    after_body = ctx.read(ctx.render([*ctx.history, *ctx.next_turn(ctx.history)]).body)
    before = wire_messages(ctx.provider, before_body)
    after = wire_messages(ctx.provider, after_body)
    out: list[Violation] = []
    stable = max(0, len(before) - 1)
    if len(after) < stable:
        out.append(
            ctx.violation(
                ID,
                None,
                f"appending a turn shrank the conversation from {len(before)} to {len(after)}",
                None,
                kind="degrade",
            )
        )
    for pos in range(min(stable, len(after))):
        if not same_json(before[pos], after[pos]):
            diff = first_difference(before[pos], after[pos], f"[{pos}]")
            path, was, became = diff or (f"[{pos}]", before[pos], after[pos])
            out.append(
                ctx.violation(
                    ID,
                    None,
                    f"appending a turn rewrote conversation entry {pos} (at {path})",
                    {"before": was, "after": became},
                    kind="degrade",
                )
            )
            break
    for key in _SYSTEM_KEYS:
        if before_body.get(key) != after_body.get(key):
            out.append(
                ctx.violation(
                    ID,
                    None,
                    f"appending a turn changed the system prompt ({key})",
                    {"before": before_body.get(key), "after": after_body.get(key)},
                    kind="degrade",
                )
            )
    return out
