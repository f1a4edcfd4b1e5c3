"""JSON with bounded depth, bounded integers and well-formed Unicode.

``json.loads`` recurses once per nesting level (a 100k-deep array is a RecursionError)
and yields lone surrogates for ``"\\ud83d"`` escapes, which later crash any UTF-8 write.
Both are caught here, with the path of the offending field.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Sequence
from typing import Any, cast

from harness.inputs.errors import InputError
from harness.inputs.limits import ENV, Limits, current

__all__ = [
    "check_json_bytes",
    "check_json_documents",
    "check_json_text",
    "check_line_length",
    "check_tree",
    "loads_json",
]

_SURROGATE = re.compile("[\ud800-\udfff]")
# Depth is measured before parsing, in native code only (a Python loop over a 7.8 MB body
# cost 1.2 s; a regex with a repeated group over a 10 MiB string cost 1.3 GB of backtracking
# state). Escaped backslashes and quotes are deleted, then everything but quotes and brackets;
# adjacent quote pairs go next (an empty string, or two strings with no bracket between them:
# the brackets outside strings are unchanged either way), then the few strings left that hold
# brackets. What remains are the brackets outside strings, as "(" and ")": each pass of
# ``replace(b"()", b"")`` removes every innermost pair, so balanced text of depth d is empty
# after d passes (a few for any real body). Text that is not empty after a few passes (deep,
# or unbalanced) is measured exactly: its brackets as +1/-1 bytes summed by itertools.accumulate.
_STRING = re.compile(rb'"[^"]*"')
# An escaped backslash or quote, left to right: the same deletions as replacing every ``\\\\``
# and then every ``\\"`` (a run of backslashes loses its pairs, then an odd one with its quote),
# in one native pass where two two-byte ``bytes.replace`` searches cost about ten times as much.
_ESCAPED = re.compile(rb'\\[\\"]')
# The only escapes ``_lone_surrogate_escape`` can report start like this: a body without one
# skips its Latin-1 decode and its per-escape Python work.
_SURROGATE_START = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_NOT_QUOTE_OR_BRACKET = bytes(b for b in range(256) if b not in b'"[]{}')
_PARENS = bytes.maketrans(b"[{]}", b"(())")
_STEP = bytes.maketrans(b"()", b"\x01\xff")
_PASSES = 8
_COUNT_MAX = 1 << 20


def _too_deep(text: str | bytes, limit: int) -> bool:
    """Whether brackets (outside JSON strings) nest deeper than ``limit``; cheap when shallow."""
    if isinstance(text, str):
        if text.count("[") + text.count("{") <= limit:
            return False
        data = text.encode("utf-8", "surrogatepass")
    else:
        # The count is the early answer for a small body; a big one (a stream) holds more brackets
        # than any limit, and the passes below are exact on their own.
        if len(text) <= _COUNT_MAX and text.count(b"[") + text.count(b"{") <= limit:
            return False
        data = text
    if b"\\" in data:  # a one-byte search (memchr); the deletion copies the body only when needed
        # Over a view: the pieces between escapes are joined without a copy each first (one
        # copy of the body, not two).
        data = _ESCAPED.sub(b"", memoryview(data))
    data = data.translate(None, _NOT_QUOTE_OR_BRACKET).replace(b'""', b"")
    if b'"' in data:
        data = _STRING.sub(b"", data)
    data = data.translate(_PARENS)
    rest = data
    for _ in range(min(limit, _PASSES)):
        rest = rest.replace(b"()", b"")
        if not rest:
            return False
    if len(data) <= limit:
        return False
    return max(itertools.accumulate(memoryview(data.translate(_STEP)).cast("b"))) > limit


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


def check_line_length(data: bytes, *, source: str, field: str, limits: Limits | None = None) -> None:
    """Refuse a line longer than ``max_line_bytes`` without splitting ``data`` into lines.

    A line of at least ``cap`` bytes holds a whole window of ``cap // 2`` bytes with no
    newline, so only the windows are searched (``bytes.find``, native); a window without
    one is measured exactly from the newlines around it.
    """
    cap = current(limits).max_line_bytes
    if len(data) <= cap:
        return
    step = max(1, cap // 2)
    for start in range(0, len(data), step):
        if data.find(b"\n", start, start + step) >= 0:
            continue
        begin = data.rfind(b"\n", 0, start) + 1
        end = data.find(b"\n", start)
        length = (len(data) if end < 0 else end) - begin
        if length > cap:
            line = data.count(b"\n", 0, begin) + 1
            raise InputError(
                source, line, field, f"a line longer than {cap} bytes (raise {ENV['max_line_bytes']})"
            )


def check_json_bytes(data: bytes, *, source: str, field: str, limits: Limits | None = None) -> None:
    """Line length, depth and lone-surrogate-escape checks on a JSON-bearing body (a stream), unparsed.

    Bytes, not text: decoding a 200 MB body only to measure it costs more than the parse
    it guards. (Strict UTF-8 holds no surrogate; a replacing decode yields none either.)
    """
    lim = current(limits)
    check_line_length(data, source=source, field=field, limits=lim)
    if _too_deep(data, lim.max_depth):
        raise InputError(
            source, None, field, f"nested deeper than {lim.max_depth} (raise {ENV['max_depth']})"
        )
    if b"\\" in data and _SURROGATE_START.search(data):
        _check_surrogate_escapes(data, source, field)


def _check_surrogate_escapes(data: bytes, source: str, field: str) -> None:
    at = _lone_surrogate_escape(data.decode("latin-1"))
    if at is not None:
        raise InputError(
            source, None, field, f"lone UTF-16 surrogate escape at byte {at} (not valid Unicode)"
        )


def check_json_documents(
    documents: Sequence[bytes], *, source: str, field: str, limits: Limits | None = None
) -> None:
    """``check_json_bytes`` of separate JSON documents, each parsed on its own (an AWS event
    stream's frame payloads), as if joined one per line, without joining them unless one fails.

    Depth is each document's own: a document no longer than the depth limit cannot nest deeper
    (each level costs a byte), so only the longer ones are measured. A line over the line limit
    lies in a document over it, and a surrogate escape in one holding a backslash (one
    ``memchr`` per document). A failure is reported as for the joined text: its line, its byte.
    """
    if not documents:
        return
    lim = current(limits)
    longest = max(map(len, documents))
    if longest > lim.max_line_bytes:
        check_line_length(b"\n".join(documents), source=source, field=field, limits=lim)
    if longest > lim.max_depth:
        limit = lim.max_depth
        for document in [d for d in documents if len(d) > limit]:
            if _too_deep(document, limit):
                raise InputError(
                    source, None, field, f"nested deeper than {limit} (raise {ENV['max_depth']})"
                )
    # ``92 in d`` (a backslash), not ``b"\\" in d``: an int is a memchr, a bytes needle a buffer each.
    escaped = b"\n".join([d for d in documents if 92 in d])
    if escaped and _SURROGATE_START.search(escaped):
        _check_surrogate_escapes(b"\n".join(documents), source, field)


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
