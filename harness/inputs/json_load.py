"""JSON with bounded depth, bounded integers and well-formed Unicode.

``json.loads`` recurses once per nesting level (a 100k-deep array is a RecursionError)
and yields lone surrogates for ``"\\ud83d"`` escapes, which later crash any UTF-8 write.
Both are caught here, with the path of the offending field.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any, cast

from harness.inputs.errors import InputError
from harness.inputs.limits import ENV, Limits, current

__all__ = ["check_json_text", "check_tree", "loads_json"]

_SURROGATE = re.compile("[\ud800-\udfff]")
# Depth is measured before parsing: brackets outside strings. Strings are skipped by a regex
# (C speed); the bracket runs that remain are few.
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"|[\[{]|[\]}]', re.DOTALL)


def _too_deep(text: str, limit: int) -> bool:
    """Whether brackets (outside JSON strings) nest deeper than ``limit``; cheap when shallow."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for m in _STRING_OR_BRACKET.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > limit:
                return True
        elif c in "]}":
            depth -= 1
    return False


def _path(parts: list[str | int]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out or "(document)"


def check_tree(
    value: object, *, source: str, line: int | None = None, limits: Limits | None = None, depth0: int = 0
) -> None:
    """Depth and Unicode checks on a parsed value (iterative: no recursion on hostile depth)."""
    lim = current(limits)
    stack: list[tuple[object, int, list[str | int]]] = [(value, depth0, [])]
    while stack:
        node, depth, path = stack.pop()
        if isinstance(node, str):
            if not node.isascii() and _SURROGATE.search(node):
                raise InputError(source, line, _path(path), "lone UTF-16 surrogate (not valid Unicode)")
            continue
        if depth >= lim.max_depth and isinstance(node, dict | list):
            raise InputError(
                source, line, _path(path), f"nested deeper than {lim.max_depth} (raise {ENV['max_depth']})"
            )
        if isinstance(node, dict):
            for k, v in cast(dict[Any, Any], node).items():
                key = str(k)
                if not key.isascii() and _SURROGATE.search(key):
                    raise InputError(source, line, _path(path), "lone UTF-16 surrogate in a key")
                if isinstance(v, str | dict | list):
                    stack.append((cast(object, v), depth + 1, [*path, key]))
        elif isinstance(node, list):
            for i, v in enumerate(cast(list[Any], node)):
                if isinstance(v, str | dict | list):
                    stack.append((cast(object, v), depth + 1, [*path, i]))


def loads_json(
    text: str | bytes, *, source: str, line: int | None = None, limits: Limits | None = None
) -> Any:
    """``json.loads`` that never raises anything but ``InputError`` for bad input."""
    lim = current(limits)
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(source, line, "(json)", f"not UTF-8 (byte {exc.start})") from None
    if _too_deep(text, lim.max_depth):
        raise InputError(
            source, line, "(json)", f"nested deeper than {lim.max_depth} (raise {ENV['max_depth']})"
        )
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        at = line if line is not None else exc.lineno
        raise InputError(source, at, "(json)", f"invalid JSON: {exc.msg} at column {exc.colno}") from None
    except ValueError as exc:  # Python's integer string limit
        reason = f"integer longer than {lim.max_int_digits} digits (raise {ENV['max_int_digits']})"
        raise InputError(source, line, "(json)", reason if "digits" in str(exc) else str(exc)) from None
    except RecursionError:
        raise InputError(source, line, "(json)", "nested too deep to parse") from None
    check_tree(value, source=source, line=line, limits=lim)
    return value


_SURROGATE_ESCAPE = re.compile(r"(\\+)u([dD][89a-fA-F][0-9a-fA-F]{2})")


def _lone_surrogate_escape(text: str) -> int | None:
    """Offset of a ``\\uD8xx``-style escape that is not half of a valid pair, if any."""
    if "\\u" not in text:
        return None
    escapes = [
        (m.start(2) - 2, m.end(), int(m.group(2), 16))
        for m in _SURROGATE_ESCAPE.finditer(text)
        if len(m.group(1)) % 2 == 1  # an even run of backslashes is literal text, not an escape
    ]
    paired: set[int] = set()
    for (start, end, value), (after, _, next_value) in itertools.pairwise(escapes):
        if value < 0xDC00 and after == end and next_value >= 0xDC00:
            paired.update((start, after))
    return next((start for start, _, _ in escapes if start not in paired), None)


def check_json_text(
    text: str, *, source: str, field: str, line: int | None = None, limits: Limits | None = None
) -> None:
    """Depth and lone-surrogate checks on JSON-bearing text (a body, an SSE stream) without parsing it."""
    lim = current(limits)
    if _too_deep(text, lim.max_depth):
        raise InputError(
            source, line, field, f"nested deeper than {lim.max_depth} (raise {ENV['max_depth']})"
        )
    at = _lone_surrogate_escape(text)
    if at is not None:
        raise InputError(
            source, line, field, f"lone UTF-16 surrogate escape at character {at} (not valid Unicode)"
        )
    if not text.isascii() and _SURROGATE.search(text):
        raise InputError(source, line, field, "lone UTF-16 surrogate (not valid Unicode)")
