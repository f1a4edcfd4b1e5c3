"""Cohere v2 Chat output adapter (provider id ``cohere``).

Streamed (``"stream": true``): SSE events whose JSON ``type`` is one of ``message-start`` (the
response ``id``), ``content-start`` / ``content-delta`` / ``content-end`` (a ``text`` or
``thinking`` content item at ``index``), ``tool-plan-delta`` (the text written before tool
calls), ``tool-call-start`` (id, name, first arguments) / ``tool-call-delta`` (argument
fragments) / ``tool-call-end``, ``citation-start`` / ``citation-end``, ``message-end``
(``finish_reason``, ``usage``, ``error``) and ``debug`` (the SDK's ``V2ChatStreamResponse``
union; https://docs.cohere.com/v2/docs/streaming). Not streamed: the ``V2ChatResponse`` JSON
body (``id``, ``finish_reason``, ``message`` with ``content``, ``tool_plan``, ``tool_calls``,
``citations``; ``usage``). An error body is ``{"message": ...}``.

``message-end`` is the terminal event: a stream without it ends as ``error`` (the base's
no-silent-endings rule). ``tool_plan`` becomes a text part before the tool calls (what the
model said before calling them; the request adapter sends it back as ``tool_plan``).
Citations (``citation-start`` events, ``message.citations``) are source parts after the text
they cite (``content_index``; a ``PLAN`` citation cites the tool plan). Decisions: DECISIONS.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from harness.contract.sources import cohere_citation
from harness.model import StopReason, Usage
from harness.stream.base import StreamParser, TextDelta, ThinkingDelta, ToolCallStart
from harness.stream.sse import SSEEvent

__all__ = ["PARSER", "CohereParser", "map_stop_reason", "map_usage"]

_EMPTY: dict[str, Any] = {}
# ChatFinishReason: COMPLETE | STOP_SEQUENCE | MAX_TOKENS | TOOL_CALL | ERROR | TIMEOUT.
_STOP: dict[str, StopReason] = {
    "COMPLETE": "stop",
    "STOP_SEQUENCE": "stop",
    "MAX_TOKENS": "length",
    "TOOL_CALL": "tool_use",
    "ERROR": "error",
    "TIMEOUT": "error",
}
_PLAN = "tool_plan"


def map_stop_reason(reason: str | None) -> StopReason | None:
    if reason is None:
        return None
    return _STOP.get(reason, "stop")


def _count(value: Any) -> int | None:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def map_usage(raw: dict[str, Any]) -> Usage:
    """``Usage`` -> canonical: ``tokens`` are what the model read and wrote (``input_tokens``
    includes the cached prompt: 2935 input, 2928 cached in
    traffic/pydantic-ai-more/models__test_cohere__test_request_usage_with_cached_tokens.yaml#0);
    ``billed_units`` are billing only."""
    tokens = raw.get("tokens") or _EMPTY
    return Usage(
        input_tokens=_count(tokens.get("input_tokens")) or 0,
        output_tokens=_count(tokens.get("output_tokens")) or 0,
        cached_input_tokens=_count(raw.get("cached_tokens")),
    )


def _message(data: dict[str, Any]) -> dict[str, Any]:
    return (data.get("delta") or _EMPTY).get("message") or _EMPTY


class CohereParser(StreamParser):
    """Cohere v2 Chat stream events / response body -> canonical assistant message."""

    provider = "cohere"
    wire = "cohere-v2"

    def __init__(self) -> None:
        super().__init__()
        self._tools: dict[int, bool] = {}  # open tool call index -> whether arguments arrived
        self._last_text: object = 0  # the key of the latest text content (what an unplaced citation cites)
        self._handlers: dict[str, Callable[[dict[str, Any]], None]] = {
            "message-start": self._message_start,
            "content-start": self._content_start,
            "content-delta": self._content_delta,
            "content-end": self._content_end,
            "tool-plan-delta": self._tool_plan,
            "tool-call-start": self._tool_call_start,
            "tool-call-delta": self._tool_call_delta,
            "tool-call-end": self._tool_call_end,
            "citation-start": self._citation,
            "citation-end": _ignore,
            "message-end": self._message_end,
            "debug": _ignore,
        }

    def on_event(self, event: SSEEvent) -> None:
        data: Any = self.load(event)
        if data is None:
            return
        if type(data) is not dict:
            self.note(f"cohere: non-object payload skipped: {event.data[:60]!r}")
            return
        payload: dict[str, Any] = data  # pyright: ignore[reportUnknownVariableType]
        kind = payload.get("type") or event.event
        handler = self._handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            if "message" in payload and not payload.get("type"):  # an error object mid-stream
                self.error(f"cohere: {payload['message']}")
                return
            self.note(f"cohere: unknown event type {kind!r} skipped")
            return
        handler(payload)

    def _message_start(self, data: dict[str, Any]) -> None:
        if data.get("id") is not None:
            self.response_id = data["id"]

    def _content_start(self, data: dict[str, Any]) -> None:
        index: int = data["index"]
        content = _message(data).get("content") or _EMPTY
        self.parts.close(index)
        self._content(index, content, start=content.get("type"))

    def _content_delta(self, data: dict[str, Any]) -> None:
        self._content(data["index"], _message(data).get("content") or _EMPTY, start=None)

    def _content(self, index: int, content: dict[str, Any], *, start: str | None) -> None:
        thinking, text = content.get("thinking"), content.get("text")
        if start == "thinking" or (start is None and thinking is not None):
            self.parts.thinking(index, thinking or "")
            if thinking:
                self.emit(ThinkingDelta(thinking))
        elif start in ("text", None):
            self._last_text = index
            if text or start == "text":
                self.parts.text(index, text or "")
            if text:
                self.emit(TextDelta(text))
        else:
            self.note(f"cohere: content type {start!r} skipped")

    def _content_end(self, data: dict[str, Any]) -> None:
        self.parts.close(data["index"])

    def _tool_plan(self, data: dict[str, Any]) -> None:
        plan = _message(data).get("tool_plan")
        if plan:
            self.parts.text(_PLAN, plan)
            self.emit(TextDelta(plan))

    def _tool_call_start(self, data: dict[str, Any]) -> None:
        index: int = data["index"]
        self.parts.close(_PLAN)
        call = _message(data).get("tool_calls") or _EMPTY
        function = call.get("function") or _EMPTY
        call_id, name = call.get("id") or "", function.get("name") or ""
        self.parts.tool_call(("call", index), call_id, name)
        self.emit(ToolCallStart(call_id, name))
        self._tools[index] = False
        self._arguments(index, function.get("arguments"))

    def _tool_call_delta(self, data: dict[str, Any]) -> None:
        call = _message(data).get("tool_calls") or _EMPTY
        self._arguments(data["index"], (call.get("function") or _EMPTY).get("arguments"))

    def _arguments(self, index: int, fragment: Any) -> None:
        if fragment:
            self._tools[index] = True
            self.parts.tool_args(("call", index), fragment)

    def _tool_call_end(self, data: dict[str, Any]) -> None:
        index: int = data["index"]
        if self._tools.pop(index, True) is False:  # a call without arguments: none
            self.parts.tool_args(("call", index), "{}")
        self.parts.close(("call", index))

    def _citation(self, data: dict[str, Any]) -> None:
        """``citation-start``: ``delta.message.citations`` is one citation (the SDK's
        ``CitationStartEventDeltaMessage.citations``), of the content item at ``content_index``."""
        citation = _message(data).get("citations")
        if isinstance(citation, list):  # tolerate a list of them
            for one in citation:  # pyright: ignore[reportUnknownVariableType]
                self._cite(one if isinstance(one, dict) else {})  # pyright: ignore[reportUnknownArgumentType]
        elif isinstance(citation, dict):
            self._cite(citation)  # pyright: ignore[reportUnknownArgumentType]
        else:
            self.note("cohere: citation-start without a citation skipped")

    def _cite(self, citation: dict[str, Any], key: object = None) -> None:
        """A source after the text it cites (``key``, when the caller placed it): the tool plan for a
        ``PLAN`` citation, else the content item at ``content_index`` (the latest text without one)."""
        index = citation.get("content_index")
        if key is None and citation.get("type") == "PLAN":
            key = _PLAN
        elif key is None:
            key = index if isinstance(index, int) and not isinstance(index, bool) else self._last_text
        self.parts.source(key, cohere_citation(citation))

    def _message_end(self, data: dict[str, Any]) -> None:
        delta = data.get("delta") or _EMPTY
        if data.get("id") is not None and self.response_id is None:
            self.response_id = data["id"]
        reason = delta.get("finish_reason")
        self.provider_stop = map_stop_reason(reason)
        if delta.get("error"):
            self.error(f"cohere: {delta['error']}")
        elif self.provider_stop == "error":
            self.error(f"cohere: the turn ended with finish_reason {reason}")
        elif reason is not None and reason not in _STOP:
            self.note(f"cohere: unknown finish_reason {reason!r} mapped to stop")
        usage = delta.get("usage")
        if usage:
            self.usage = map_usage(usage)
        self.completed = True
        self.terminal = True

    # ------------------------------------------------------------ not streamed

    def on_response(self, body: dict[str, Any]) -> None:
        """A ``V2ChatResponse`` body, or an error body ``{"message": ...}``."""
        message = body.get("message")
        if not isinstance(message, dict):
            self.error(f"cohere: {message or 'error body without a message'}")
            return
        if body.get("id") is not None:
            self.response_id = body["id"]
        reply: dict[str, Any] = message  # pyright: ignore[reportUnknownVariableType]
        items: list[dict[str, Any]] = list(reply.get("content") or [])
        thinking = [i for i in items if i.get("type") == "thinking"]
        rest = [i for i in items if i.get("type") != "thinking"]
        index = 0
        for item in thinking:
            self._content(index, item, start="thinking")
            self._content_end({"index": index})
            index += 1
        if reply.get("tool_plan"):
            self._tool_plan({"delta": {"message": {"tool_plan": reply["tool_plan"]}}})
        listed: list[Any] = reply.get("citations") or []
        citations = [cast(dict[str, Any], c) for c in listed if isinstance(c, dict)]
        for citation in citations:
            if citation.get("type") == "PLAN":
                self._cite(citation, _PLAN)
        first_text = next((n for n, i in enumerate(items) if i.get("type") == "text"), None)
        placed = {id(c) for c in citations if c.get("type") == "PLAN"}
        for item in rest:
            self._content(index, item, start=item.get("type"))
            position = next(n for n, i in enumerate(items) if i is item)
            for citation in citations:  # each cites the content item it names (the first text when none)
                named = citation.get("content_index", first_text)
                if id(citation) not in placed and named == position:
                    self._cite(citation, index)
                    placed.add(id(citation))
            self._content_end({"index": index})
            index += 1
        for citation in citations:  # naming no content item there is: a source of the whole answer
            if id(citation) not in placed:
                self.parts.fixed(cohere_citation(citation))
        for n, call in enumerate(reply.get("tool_calls") or []):
            self._tool_call_start({"index": n, "delta": {"message": {"tool_calls": call}}})
            self._tool_call_end({"index": n})
        self._message_end({"delta": {"finish_reason": body.get("finish_reason"), "usage": body.get("usage")}})


def _ignore(data: dict[str, Any]) -> None:
    """``citation-end`` and ``debug``: nothing for the message."""


PARSER = CohereParser
