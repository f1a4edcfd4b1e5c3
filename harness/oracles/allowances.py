"""How the request oracles apply the registry of accepted differences (``harness.accepted.registry``).

An oracle error at a "/"-joined body path is looked up as ``Seen(diff="spec-error"|"sdk-error")``
at the same place spelled as a JSON path (``messages/0/content`` -> ``messages[0].content``,
the body itself ``$``); the first matching entry names it "allowed (<id>)". Before judging,
``apply_defaults`` fills in every ``absent`` entry's field the API fills in.
"""

from __future__ import annotations

from typing import Any, cast

from harness.accepted.predicates import first_match, matches
from harness.accepted.registry import for_judge
from harness.contract.accepted import Accepted, Seen

__all__ = ["apply_defaults", "find_allowance", "json_path"]


def json_path(path: str) -> str:
    """An oracle's "/"-joined path as a JSON path: list indices in brackets, ``$`` for the body."""
    out = ""
    for part in [p for p in path.split("/") if p]:
        out += f"[{part}]" if part.isdigit() else (f".{part}" if out else part)
    return out or "$"


def find_allowance(
    provider: str, oracle: str, path: str, message: str, body: Any = None, host: str | None = None
) -> Accepted | None:
    """The first entry accepting this oracle error, if any (``body``: the request; ``host``: where it goes)."""
    seen = Seen(
        provider, json_path(path), "spec-error" if oracle == "spec" else "sdk-error",
        message=message, document=body, host=host,
    )  # fmt: skip
    return first_match(for_judge("oracle"), seen)


def _key(entry: Accepted) -> str:
    """The field an ``absent`` entry fills in: the last name of its ``where``."""
    return entry.where.rsplit(".", 1)[-1]


def apply_defaults(provider: str, body: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """``body`` with every field the API would fill in (``absent`` entries), and ``(path, id)`` per fill.

    The body given is not modified; only the objects that change are copied.
    """
    filled: list[tuple[str, str]] = []
    mine = [e for e in for_judge("oracle") if e.provider == provider and e.diff == "absent"]
    if not mine:
        return body, filled

    def walk(node: Any, path: str) -> Any:
        if isinstance(node, list):
            items = cast(list[Any], node)
            new = [walk(v, f"{path}/{i}" if path else str(i)) for i, v in enumerate(items)]
            return items if all(a is b for a, b in zip(new, items, strict=True)) else new
        if not isinstance(node, dict):
            return node
        obj = cast(dict[str, Any], node)
        out = {k: walk(v, f"{path}/{k}" if path else k) for k, v in obj.items()}
        for entry in mine:
            key = _key(entry)
            if key in out:  # present: nothing to fill (checked before the entry is matched)
                continue
            seen = Seen(provider, json_path(f"{path}/{key}"), "absent", parent=out, document=body)
            if matches(entry, seen):
                out[key] = entry.default
                filled.append((path, entry.id))
        changed = len(out) != len(obj) or any(out[k] is not v for k, v in obj.items())
        return out if changed else obj

    return cast(dict[str, Any], walk(body, "")), filled
