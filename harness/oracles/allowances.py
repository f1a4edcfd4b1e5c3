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
from harness.contract.accepted import Accepted, Seen, glob

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
    mine = [
        (e, _key(e), glob(e.where))
        for e in for_judge("oracle")
        if e.provider == provider and e.diff == "absent"
    ]
    if not mine:
        return body, filled

    def walk(node: Any, path: str) -> Any:
        """``node`` (a list or an object) with its fills; the same object when nothing changes."""
        if isinstance(node, list):
            items = cast(list[Any], node)
            new: list[Any] | None = None
            for i, v in enumerate(items):
                if isinstance(v, dict | list):
                    w = walk(v, f"{path}/{i}" if path else str(i))
                    if w is not v:
                        new = list(items) if new is None else new
                        new[i] = w
            return items if new is None else new
        obj = cast(dict[str, Any], node)
        out: dict[str, Any] | None = None
        for k, v in obj.items():
            if isinstance(v, dict | list):
                w = walk(v, f"{path}/{k}" if path else k)
                if w is not v:
                    out = dict(obj) if out is None else out
                    out[k] = w
        for entry, key, where in mine:
            here = obj if out is None else out
            if key in here:  # present: nothing to fill (checked before the entry is matched)
                continue
            at = json_path(f"{path}/{key}")
            if where.fullmatch(at) is None:  # ``matches`` checks this too; cheaper before a Seen
                continue
            if matches(entry, Seen(provider, at, "absent", parent=here, document=body)):
                out = dict(obj) if out is None else out
                out[key] = entry.default
                filled.append((path, entry.id))
        return obj if out is None else out

    return cast(dict[str, Any], walk(body, "")), filled
