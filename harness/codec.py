"""JSON Lines history codec: one HistoryEvent per line, errors as ``FILE:LINE: field: reason``."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from harness.inputs import InputError, Limits, loads_json, read_text
from harness.model import PART_TYPES, HistoryEvent

__all__ = ["HistoryError", "decode_line", "dumps_history", "encode_event", "load_history", "loads_history"]

_EVENT: TypeAdapter[HistoryEvent] = TypeAdapter(HistoryEvent)


class HistoryError(InputError):
    """A malformed history line; ``str()`` is the one-line report ``FILE:LINE: field: reason``."""

    def __init__(self, source: str, line: int, field: str, reason: str) -> None:
        super().__init__(source, line, field, reason)
        self.args = (f"{source}:{line}: {field}: {reason}",)

    def __str__(self) -> str:
        return str(self.args[0])

    @classmethod
    def of(cls, exc: InputError) -> HistoryError:
        return cls(exc.source, exc.line, exc.field, exc.reason)


def _field_path(loc: Sequence[int | str]) -> str:
    # Drop pydantic's union tags ("user", "assistant", ...) that precede the real path.
    parts = [str(p) for p in loc]
    if parts and parts[0] in {"system", "developer", "user", "assistant", "tool", "error", "task_metadata"}:
        parts = parts[1:]
    out = ""
    after_index = False
    for part in parts:
        if part.isdigit():
            out += f"[{part}]"
            after_index = True
            continue
        if after_index and part in PART_TYPES:
            after_index = False
            continue  # discriminated-union tag inside a parts list
        after_index = False
        out += ("." if out else "") + part
    return out or "(line)"


def decode_line(
    text: str, *, source: str = "<history>", line: int = 1, limits: Limits | None = None
) -> HistoryEvent:
    """Parse one JSONL line into a HistoryEvent, raising HistoryError with a precise location."""
    try:
        data: Any = loads_json(text, source=source, line=line, limits=limits)
    except InputError as exc:
        raise HistoryError.of(exc) from None
    if not isinstance(data, dict):
        raise HistoryError(source, line, "(line)", f"expected a JSON object, got {type(data).__name__}")
    try:
        return _EVENT.validate_python(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        msg = str(err["msg"]).removeprefix("Value error, ")
        return_field = _field_path(err["loc"])
        raise HistoryError(source, line, return_field, msg) from None


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """(1-based number, line) without copying the whole text into a list first."""
    start, number = 0, 1
    while start <= len(text):
        end = text.find("\n", start)
        if end < 0:
            end = len(text)
        yield number, text[start:end]
        start, number = end + 1, number + 1


def loads_history(
    text: str, *, source: str = "<history>", limits: Limits | None = None
) -> list[HistoryEvent]:
    """Decode a whole JSONL document; blank lines are skipped."""
    lim = Limits.from_env() if limits is None else limits
    events: list[HistoryEvent] = []
    # Split on "\n" only: str.splitlines() also breaks on U+2028, U+0085 and friends,
    # which JSON strings may legally contain unescaped (found by the round-trip property).
    for number, raw in _lines(text):
        raw = raw.removesuffix("\r")
        if raw.strip():
            events.append(decode_line(raw, source=source, line=number, limits=lim))
    return events


def load_history(path: str | Path) -> list[HistoryEvent]:
    """Read a JSONL history file. Unreadable or non-UTF-8 files raise HistoryError too."""
    p = Path(path)
    limits = Limits.from_env()
    try:
        text = read_text(p, limits)
    except InputError as exc:
        raise HistoryError.of(exc) from None
    return loads_history(text, source=str(p), limits=limits)


def encode_event(event: HistoryEvent) -> str:
    """One canonical JSON line: None fields omitted, keys sorted, non-ASCII kept readable."""
    data = event.model_dump(mode="json", exclude_none=True)
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def dumps_history(events: Iterable[HistoryEvent]) -> str:
    """A history as JSON Lines: one event per line, each line ending in a newline."""
    return "".join(encode_event(e) + "\n" for e in events)
