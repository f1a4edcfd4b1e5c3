"""What ``harness replay`` prints: ``[result_to_json(r), ...]`` as JSON, keys sorted, indented by two.

A long stream's output is nearly all runs of text deltas, each one item and one event. Built
as two dicts per delta and then serialised, they cost more than the parse that found them.
Here each run of deltas is one ``orjson.Fragment`` per list instead: one orjson call gives
the run's text literals, one per line, and one ``bytes.replace`` frames each as the element
orjson would write at that place. A JSON string literal never holds a raw newline, so the
separator ``",\\n  "`` occurs only between literals. The text is the same as orjson's
(``replay_json(results) == orjson.dumps([result_to_json(r) ...], option=OPTIONS)``), which is
``json.dumps(..., sort_keys=True, indent=2, ensure_ascii=False)`` plus a newline
(tests/test_replay_json.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import attrgetter
from typing import Any

import orjson

from harness.contract.events import derive_events_by_run
from harness.contract.results import (
    CallResult,
    TextDelta,
    ThinkingDelta,
    item_to_json,
    items_to_json_by_run,
)

__all__ = ["OPTIONS", "replay_json", "result_json"]

OPTIONS = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE
# Where the fragments go: [ {result}, ... ] -> "items"/"events": [ {element} ]: an element at
# depth 3, its fields at depth 4.
_ELEMENT = b"\n" + b"  " * 3
_FIELD = b"\n" + b"  " * 4
_TEXT, _TYPE = attrgetter("text"), attrgetter("type")


def _run(texts: list[str], head: bytes, tail: bytes) -> list[Any]:
    """One element ``head + literal + tail`` per text, as orjson writes them in a list at depth 3."""
    if not texts:
        return []
    literals = orjson.dumps(texts, option=orjson.OPT_INDENT_2)[4:-2]  # inside "[\n  " and "\n]"
    return [orjson.Fragment(head + literals.replace(b",\n  ", tail + b"," + _ELEMENT + head) + tail)]


def _field(name: str, value: object, last: bool = False) -> bytes:
    return _FIELD + orjson.dumps(name) + b": " + orjson.dumps(value) + (b"" if last else b",")


def _item_run(deltas: list[TextDelta | ThinkingDelta]) -> list[Any]:
    """``items_to_json``'s elements of one run of deltas, as one fragment when they share a type."""
    kind = deltas[0].type
    if set(map(_TYPE, deltas)) != {kind}:
        return [item_to_json(i) for i in deltas]
    tail = b"," + _field("type", kind, last=True) + _ELEMENT + b"}"
    return _run(list(map(_TEXT, deltas)), b"{" + _FIELD + b'"text": ', tail)


def _event_run(delta: str, rid: str | None, deltas: Iterator[TextDelta | ThinkingDelta]) -> list[Any]:
    """``derive_events``' events of one run of deltas, as one fragment."""
    tail = b"," + _field("response_id", rid) + _field("type", delta, last=True) + _ELEMENT + b"}"
    return _run(list(map(_TEXT, deltas)), b"{" + _FIELD + b'"content": ', tail)


def result_json(result: CallResult, items: list[Any], events: list[Any]) -> dict[str, Any]:
    """One result of the replay output, given its items and events as JSON."""
    return {
        "errors": [e.model_dump(mode="json", exclude_none=True) for e in result.errors],
        "events": events,
        "items": items,
        "message": result.message.model_dump(mode="json", exclude_none=True),
    }


def replay_json(results: list[CallResult]) -> bytes:
    """The replay output of ``results``, UTF-8, ending in a newline."""
    payload = [
        result_json(r, items_to_json_by_run(r.items, _item_run), derive_events_by_run(r, _event_run))
        for r in results
    ]
    return orjson.dumps(payload, option=OPTIONS)
