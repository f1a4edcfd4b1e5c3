"""The call controls a request body carries under each provider's native names, read into
``CallParams`` (sampling, parallel tool calls, service tier, cache keys, server-side state and
the provider's own safety / routing settings).

The importer keeps its own table of names, apart from the adapters' profiles: import-check
renders what it read and compares, so an adapter that sends a control under another name than
the one accepted requests carry is caught there. Evidence: the recorded requests that carry
each name (import-check) and each provider's API reference, as cited in its profile.

An explicit ``null`` is the field's default, read as absence.
"""

from __future__ import annotations

from typing import Any, cast

from harness.contract.controls import SETTINGS, TABLE
from harness.importer.common import Json, Ledger, show

__all__ = ["SETTINGS", "TABLE", "consumed", "read_controls"]

_NUMBER = ("top_p", "presence_penalty", "frequency_penalty")
_INTEGER = ("top_k", "seed")
_BOOL = ("parallel_tool_calls", "store", "background")
_STRINGS = ("stop", "include")


def consumed(provider: str, under: str = "") -> set[str]:
    """The keys the control table reads directly under ``under`` ("" for the top level)."""
    prefix = f"{under}." if under else ""
    keys = {
        path[len(prefix) :].split(".")[0]
        for path in TABLE.get(provider, {}).values()
        if path.startswith(prefix)
    }
    return keys | (set(SETTINGS.get(provider, ())) if not under else set())


def _get(body: Json, path: str) -> tuple[bool, Any]:
    node: Any = body
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            return False, None
        node = cast(Json, node)[key]
    return True, node


def _typed(control: str, value: Any) -> Any:
    """``value`` as the canonical field holds it, or ``_BAD``."""
    if control in _NUMBER:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return float(value) if ok else _BAD
    if control in _INTEGER:
        if isinstance(value, float) and value.is_integer():
            return int(value)  # a JSON number written 40.0 (Gemini's topK is an integer)
        return value if isinstance(value, int) and not isinstance(value, bool) else _BAD
    if control in _BOOL:
        return value if isinstance(value, bool) else _BAD
    if control in _STRINGS:
        if control == "stop" and isinstance(value, str):
            return [value]  # Chat's one-string form of the list
        items: list[Any] = value if isinstance(value, list) else []  # pyright: ignore[reportUnknownVariableType]
        ok = isinstance(value, list) and all(isinstance(v, str) for v in items)
        return list(items) if ok else _BAD
    return value if isinstance(value, str) else _BAD


_BAD = object()


def read_controls(body: Json, provider: str, ledger: Ledger) -> dict[str, Any]:
    """The ``CallParams`` fields the body's controls give (keyword arguments); a value of the
    wrong type is named. The caller marks ``consumed(provider, ...)`` as read in its own
    ``ledger.rest`` calls."""
    out: dict[str, Any] = {}
    for control, path in TABLE.get(provider, {}).items():
        present, value = _get(body, path)
        if not present or value is None:
            continue
        typed = _typed(control, value)
        if typed is _BAD:
            ledger.note(path, f"{control} {show(value)} not representable")
            continue
        out[control] = typed
    settings = {k: body[k] for k in sorted(SETTINGS.get(provider, ())) if k in body and body[k] is not None}
    if settings:
        out["provider_settings"] = settings
    return out
