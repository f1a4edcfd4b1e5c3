"""Semantic diff of two recordings of the same calls, so provider contract drift shows in review.

A line diff of a re-recorded cassette is mostly noise (ids, token counts, wording).
This says what changed in terms that matter: which request fields changed (as JSON
paths), and per response the status, final text, tool calls, stop reason, usage, the
provider's SSE event types (a new ``citations_delta`` is contract drift) and the
harness events the reference parser derives.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from harness.model import TextPart, ToolCallPart
from harness.providers import get_parser
from harness.providers.replay import Exchange, ReplayInputError, load_exchanges, replay_exchange
from harness.stream.events import derive_events
from harness.stream.sse import SSEDecoder

__all__ = ["DriftReport", "diff_exchanges", "diff_files", "json_changes", "stream_summary"]

MAX_REQUEST_LINES = 40
SYNTHETIC_URI = "(replayed body)"  # what harness.providers.replay names a bare body's request
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass(frozen=True)
class Change:
    path: str
    kind: str  # "added" | "removed" | "changed"
    old: Any = None
    new: Any = None

    def __str__(self) -> str:
        if self.kind == "added":
            return f"added   {self.path} = {_short(self.new)}"
        if self.kind == "removed":
            return f"removed {self.path} (was {_short(self.old)})"
        if isinstance(self.old, str) and isinstance(self.new, str):
            return f"changed {self.path}: {_string_change(self.old, self.new)}"
        return f"changed {self.path}: {_short(self.old)} -> {_short(self.new)}"


@dataclass
class DriftReport:
    lines: list[str] = field(default_factory=lambda: [])

    @property
    def drift(self) -> bool:
        return bool(self.lines)

    def render(self, title: str) -> str:
        body = self.lines or ["no semantic drift"]
        return "\n".join([title, *(f"  {line}" for line in body)]) + "\n"


def _short(value: Any, width: int = 80) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= width else text[: width - 3] + "..."


def _string_change(old: str, new: str, context: int = 30) -> str:
    """Long texts often differ late (a trailing space): show the first difference, not just the start."""
    if len(old) <= context * 2 and len(new) <= context * 2:
        return f"{_short(old)} -> {_short(new)}"
    at = next((i for i, (x, y) in enumerate(zip(old, new, strict=False)) if x != y), min(len(old), len(new)))
    start = max(0, at - context)
    mark = "..." if start else ""
    return (
        f"{len(old)} -> {len(new)} chars, first difference at char {at}: "
        f"{mark}{_short(old[start : at + context])} -> {mark}{_short(new[start : at + context])}"
    )


def _key(path: str, key: str) -> str:
    return f"{path}.{key}" if _IDENT.match(key) else f"{path}[{json.dumps(key)}]"


def json_changes(old: Any, new: Any, path: str = "$") -> list[Change]:
    """Leaf-level differences between two JSON values, in document order, as JSON paths."""
    if isinstance(old, dict) and isinstance(new, dict):
        a, b = cast(dict[str, Any], old), cast(dict[str, Any], new)
        out: list[Change] = []
        for key in [*a, *(k for k in b if k not in a)]:
            sub = _key(path, str(key))
            if key not in b:
                out.append(Change(sub, "removed", old=a[key]))
            elif key not in a:
                out.append(Change(sub, "added", new=b[key]))
            else:
                out += json_changes(a[key], b[key], sub)
        return out
    if isinstance(old, list) and isinstance(new, list):
        a_list, b_list = cast(list[Any], old), cast(list[Any], new)
        out = list[Change]()
        for i in range(max(len(a_list), len(b_list))):
            sub = f"{path}[{i}]"
            if i >= len(b_list):
                out.append(Change(sub, "removed", old=a_list[i]))
            elif i >= len(a_list):
                out.append(Change(sub, "added", new=b_list[i]))
            else:
                out += json_changes(a_list[i], b_list[i], sub)
        return out
    a_leaf, b_leaf = cast(object, old), cast(object, new)
    if a_leaf != b_leaf or type(a_leaf) is not type(b_leaf):
        return [Change(path, "changed", a_leaf, b_leaf)]
    return []


def _event_kind(name: str | None, data: str) -> list[str]:
    """The event's type plus a sub-type where providers nest one (delta, content_block, item, part)."""
    try:
        payload: Any = json.loads(data)
    except ValueError:  # not JSON, or an integer past Python's limit (refused when the file is read)
        return [name or ("[DONE]" if data.strip() == "[DONE]" else "data")]
    if not isinstance(payload, dict):
        return [name or "data"]
    obj = cast(dict[str, Any], payload)
    kind = name or str(obj.get("type") or obj.get("object") or "data")
    kinds = [kind]
    for nested in ("delta", "content_block", "item", "part"):
        sub: Any = obj.get(nested)
        if isinstance(sub, dict) and "type" in sub:
            kinds.append(f"{kind}:{cast(dict[str, Any], sub)['type']}")
    for choice in cast(list[Any], obj.get("choices") or []):  # chat completions: which delta fields
        if isinstance(choice, dict):
            delta: Any = cast(dict[str, Any], choice).get("delta") or {}
            kinds += [f"{kind}:delta.{k}" for k in cast(dict[str, Any], delta) if k != "role"]
    for candidate in cast(list[Any], obj.get("candidates") or []):  # gemini: which part fields
        if isinstance(candidate, dict):
            content: Any = cast(dict[str, Any], candidate).get("content") or {}
            for part in cast(list[Any], cast(dict[str, Any], content).get("parts") or []):
                kinds += [f"{kind}:part.{k}" for k in cast(dict[str, Any], part)]
    return kinds


def event_types(body: bytes) -> set[str]:
    decoder = SSEDecoder()
    events = [*decoder.feed(body), *decoder.close()]
    if not events:  # a JSON (non-streamed) body
        return set(_event_kind(None, body.decode("utf-8", errors="replace")))
    return {kind for event in events for kind in _event_kind(event.event, event.data)}


def stream_summary(provider: str, exchange: Exchange) -> dict[str, Any]:
    """What a response means to a client, per the reference parser."""
    result = replay_exchange(get_parser(provider), exchange)
    message = result.message
    return {
        "status": exchange.status,
        "final text": "".join(p.text for p in message.parts if isinstance(p, TextPart)),
        "tool calls": [
            f"{p.tool_name}({p.arguments_json})" for p in message.parts if isinstance(p, ToolCallPart)
        ],
        "stop reason": message.stop_reason,
        "usage": message.usage.model_dump(exclude_none=True) if message.usage else {},
        "event types": event_types(exchange.body),
        "harness events": sorted({e["type"] for e in derive_events(result)}),
        "errors": [e.error_message for e in result.errors],
    }


def _response_lines(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    for name in old:
        a, b = old[name], new[name]
        if a == b:
            continue
        if name == "final text":
            lines.append(f"final text: {_string_change(a, b)}")
        elif name == "usage":
            keys = sorted(set(a) | set(b))
            lines.append(
                "usage: " + "; ".join(f"{k} {a.get(k)} -> {b.get(k)}" for k in keys if a.get(k) != b.get(k))
            )
        elif name == "event types":
            added, removed = sorted(b - a), sorted(a - b)
            parts = ([f"added {added}"] if added else []) + ([f"removed {removed}"] if removed else [])
            lines.append(f"event types: {'; '.join(parts)}")
        else:
            lines.append(f"{name}: {_short(a)} -> {_short(b)}")
    return lines


def _request_lines(old: Exchange, new: Exchange) -> list[str]:
    lines = [f"url: {old.uri} -> {new.uri}"] if _path(old.uri) != _path(new.uri) else []
    changes = [str(c) for c in json_changes(old.request_body, new.request_body)]
    if len(changes) > MAX_REQUEST_LINES:
        changes = [*changes[:MAX_REQUEST_LINES], f"... and {len(changes) - MAX_REQUEST_LINES} more changes"]
    return lines + changes


def _path(uri: str) -> str:
    """Host and port differ between a live API and a loopback recording; the path and query are the contract."""
    return re.sub(r"^[a-z]+://[^/]+", "", uri)


def diff_exchanges(old: list[Exchange], new: list[Exchange], provider: str) -> DriftReport:
    """Compare model calls pairwise, in order."""
    old_calls = [e for e in old if _model_call(e)]
    new_calls = [e for e in new if _model_call(e)]
    report = DriftReport()
    if len(old_calls) != len(new_calls):
        report.lines.append(f"model calls: {len(old_calls)} -> {len(new_calls)}")
    for i in range(max(len(old_calls), len(new_calls))):
        label = f"call {i + 1}"
        if i >= len(new_calls) or i >= len(old_calls):
            side, exchange = ("OLD", old_calls[i]) if i >= len(new_calls) else ("NEW", new_calls[i])
            summary = stream_summary(provider, exchange)
            report.lines.append(f"{label}: only in {side} (stop reason {summary['stop reason']})")
            continue
        request = _request_lines(old_calls[i], new_calls[i])
        response = _response_lines(
            stream_summary(provider, old_calls[i]), stream_summary(provider, new_calls[i])
        )
        if request:
            report.lines += [f"{label} request:", *(f"  {line}" for line in request)]
        if response:
            report.lines += [f"{label} response:", *(f"  {line}" for line in response)]
    return report


def _model_call(exchange: Exchange) -> bool:
    """A recorded model call, or a bare response body (raw SSE or JSON): one model call by definition."""
    return exchange.is_model_call or exchange.uri == SYNTHETIC_URI


def diff_files(old: str | Path, new: str | Path, provider: str) -> DriftReport:
    """Diff two recordings; a pair with no model call on either side is refused, never "no drift"."""
    old_exchanges, new_exchanges = load_exchanges(old, provider), load_exchanges(new, provider)
    if not any(map(_model_call, old_exchanges)) and not any(map(_model_call, new_exchanges)):
        raise ReplayInputError(f"{old}: interactions: no model call in either file, nothing to compare")
    return diff_exchanges(old_exchanges, new_exchanges, provider)
