"""Anthropic Messages output adapter (provider id ``anthropic``).

Streamed: the SSE events of ``POST /v1/messages`` with ``stream: true``
(https://docs.claude.com/en/docs/build-with-claude/streaming). Not streamed: the
``Message`` JSON body (https://docs.claude.com/en/api/messages). Events are dispatched
on the data's ``type`` (the ``event:`` line repeats it; bodies without ``event:`` lines,
such as AI SDK ``.chunks.txt`` fixtures, therefore parse as well). Runs of spaces that
Anthropic pads its JSON with are plain JSON whitespace.

Decisions (where DESIGN.md left room): the Stream section of DECISIONS.md beside this module.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast

from harness.contract.server_items import ANTHROPIC_SERVER_CALLS, anthropic_result, is_anthropic_result
from harness.contract.sources import anthropic_citation
from harness.model import StopReason, Usage
from harness.stream.base import StreamParser, TextDelta, ThinkingDelta, ToolCallStart
from harness.stream.sse import SSEEvent

__all__ = ["PARSER", "AnthropicParser", "map_stop_reason", "map_usage"]

_EMPTY: dict[str, Any] = {}  # read-only default for absent objects
_STOP: dict[str, StopReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "pause_turn": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "tool_use",
    "refusal": "error",
}
_RETRYABLE = frozenset({"overloaded_error", "api_error", "rate_limit_error", "timeout_error"})
_USAGE_KEYS = ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")


def map_stop_reason(reason: str | None) -> StopReason | None:
    """Anthropic ``stop_reason`` -> canonical (https://docs.claude.com/en/api/handling-stop-reasons)."""
    if reason is None:
        return None
    return _STOP.get(reason, "stop")


def map_usage(raw: dict[str, Any], thinking_tokens: int | None = None) -> Usage:
    """Anthropic ``usage`` -> canonical; ``input_tokens`` there excludes cache reads and writes."""
    read = raw.get("cache_read_input_tokens")
    created = raw.get("cache_creation_input_tokens")
    inputs = (raw.get("input_tokens") or 0) + (read or 0) + (created or 0)
    output = raw.get("output_tokens") or 0
    return Usage(
        input_tokens=inputs,
        output_tokens=output,
        cached_input_tokens=read,
        cache_creation_input_tokens=created,
        reasoning_tokens=thinking_tokens,
    )


class AnthropicParser(StreamParser):
    """Anthropic Messages stream/body -> canonical assistant message."""

    provider = "anthropic"
    wire = "anthropic"

    def __init__(self) -> None:
        super().__init__()
        self._usage: dict[str, Any] = {}
        self._thinking_tokens: int | None = None
        self._tools: dict[int, str] = {}  # open tool_use index -> initial input JSON
        self._skipped: set[int] = set()
        self._server: set[int] = set()  # open server tool call blocks
        self._server_names: dict[str, str] = {}  # server call id -> tool name, for its result
        self._handlers: dict[str, Callable[[dict[str, Any]], None]] = {
            "content_block_delta": self._block_delta,
            "content_block_start": self._block_start,
            "content_block_stop": self._block_stop,
            "message_start": self._message_start,
            "message_delta": self._message_delta,
            "message_stop": self._message_stop,
            "ping": _ignore,
            "error": self._error,
        }

    # ------------------------------------------------------------ streamed

    def on_event(self, event: SSEEvent) -> None:
        data: Any = self.load(event)
        if data is None:
            return
        if type(data) is not dict:  # JSON objects decode to exactly dict
            self.note(f"anthropic: non-object data skipped: {event.data[:60]!r}")
            return
        payload: dict[str, Any] = data  # pyright: ignore[reportUnknownVariableType]
        kind: Any = "error" if event.event == "error" else payload.get("type") or event.event
        if kind == "content_block_delta":  # nearly every event: no handler lookup
            self._block_delta(payload)
            return
        handler = self._handlers.get(kind) if type(kind) is str else None
        if handler is None:
            self.note(f"anthropic: unknown event type {str(kind)!r} skipped")
            return
        handler(payload)

    def _message_start(self, data: dict[str, Any]) -> None:
        message = data["message"]
        self.response_id = message.get("id")
        self.model = message.get("model")
        self._update_usage(message.get("usage"))

    def _block_start(self, data: dict[str, Any]) -> None:
        index: int = data["index"]
        block = data["content_block"]
        kind = block.get("type")
        if kind == "text":
            self._text(index, block.get("text") or "")
            for citation in block.get("citations") or ():  # a non-streamed body's citations
                self.parts.source(index, anthropic_citation(citation))
        elif kind == "thinking":
            self.parts.thinking(index, "")
            self._thinking(index, block.get("thinking") or "")
            if block.get("signature"):
                self.parts.signature(index, block["signature"], format="anthropic")
        elif kind == "redacted_thinking":
            self.parts.signature(index, block.get("data") or "", format="anthropic-redacted")
        elif kind == "tool_use":
            self._tool_start(index, block)
        elif kind in ANTHROPIC_SERVER_CALLS:  # a tool Anthropic runs: never a client tool call
            call_id, name = block.get("id") or "", block.get("name") or ""
            self._server_names[call_id] = name
            self.parts.server_call(index, call_id, name, "anthropic", dict(block))
            self._server.add(index)
        elif is_anthropic_result(kind):  # arrives whole in its start event
            call = self._server_names.get(block.get("tool_use_id") or "", "")
            self.parts.fixed(anthropic_result(block, call))
            self._skipped.add(index)
        else:
            self._skipped.add(index)
            self.note(f"anthropic: {kind} block skipped (unsupported block type)")

    def _tool_start(self, index: int, block: dict[str, Any]) -> None:
        call_id, name = block.get("id") or "", block.get("name") or ""
        # programmatic tool calling: who made the call, when not the model itself (``direct``, the
        # meaning of a call without it, is left out: a replayed turn reads as it always did)
        raw = block.get("caller")
        caller = cast(dict[str, Any], raw) if isinstance(raw, dict) else None
        if caller is not None and caller.get("type") == "direct":
            caller = None
        self.parts.tool_call(index, call_id, name, caller=caller)
        self.emit(ToolCallStart(call_id, name))
        self._tools[index] = json.dumps(block.get("input") or {}, ensure_ascii=False)

    def _block_delta(self, data: dict[str, Any]) -> None:
        index: int = data["index"]
        delta = data["delta"]
        kind = delta.get("type")
        if kind == "text_delta":  # _text, inlined: the most frequent event
            text = delta["text"]
            if text:
                self.parts.text(index, text)
                self.items.append(TextDelta(text))
        elif kind == "thinking_delta":
            self._thinking(index, delta["thinking"])
        elif kind == "citations_delta":  # a citation of the text block being streamed
            self.parts.source(index, anthropic_citation(delta.get("citation") or {}))
        elif kind == "input_json_delta" and index in self._server:
            if delta["partial_json"]:
                self.parts.server_args(index, delta["partial_json"])
        elif kind == "input_json_delta":  # argument fragments
            fragment = delta["partial_json"]
            if fragment and index not in self._skipped:
                self._tools.pop(index, None)  # real arguments replace the block's initial input
                self.parts.tool_args(index, fragment)
        elif kind == "signature_delta":
            self.parts.signature(index, delta["signature"], format="anthropic")
        elif index not in self._skipped:
            self.note(f"anthropic: {kind} skipped")

    def _text(self, index: int, text: str) -> None:
        if text:
            self.parts.text(index, text)
            self.emit(TextDelta(text))

    def _thinking(self, index: int, text: str) -> None:
        if text:
            self.parts.thinking(index, text)
            self.emit(ThinkingDelta(text))

    def _block_stop(self, data: dict[str, Any]) -> None:
        index: int = data["index"]
        initial = self._tools.pop(index, None)
        if initial is not None:  # no argument fragments arrived: the block's initial input
            self.parts.tool_args(index, initial)
        self.parts.close(index)

    def _message_delta(self, data: dict[str, Any]) -> None:
        reason = (data.get("delta") or _EMPTY).get("stop_reason")
        self.provider_stop = map_stop_reason(reason)
        if reason == "refusal":
            self.error("anthropic: the model refused to answer (stop_reason refusal)")
        elif reason not in _STOP and reason is not None:
            self.note(f"anthropic: unknown stop_reason {reason!r} mapped to stop")
        elif reason == "pause_turn":
            self.note("anthropic: pause_turn (a paused server-tool turn; resend to continue)")
        self._update_usage(data.get("usage"))

    def _message_stop(self, data: dict[str, Any]) -> None:
        self.completed = True
        self.terminal = True

    def after_terminal(self, event: SSEEvent) -> bool:
        """Keep-alive ``ping`` events may trail ``message_stop``; anything else is skipped."""
        return event.event == "ping"

    def _error(self, data: dict[str, Any]) -> None:
        error = data.get("error") or _EMPTY
        kind = error.get("type") or "error"
        self.error(f"anthropic: {kind}: {error.get('message') or 'no message'}", can_retry=kind in _RETRYABLE)

    def _update_usage(self, raw: dict[str, Any] | None) -> None:
        if not raw:
            return
        for key in _USAGE_KEYS:
            value = raw.get(key)
            if value is not None:
                self._usage[key] = value
        details = raw.get("output_tokens_details")
        if details and details.get("thinking_tokens") is not None:
            self._thinking_tokens = details["thinking_tokens"]
        self.usage = map_usage(self._usage, self._thinking_tokens)

    # ------------------------------------------------------------ not streamed

    def on_response(self, body: dict[str, Any]) -> None:
        """A ``Message`` body (or an error body ``{"type": "error", ...}``)."""
        if body.get("type") == "error":
            self._error(body)
            return
        self._message_start({"message": body})
        for index, block in enumerate(body.get("content") or []):
            self._block_start({"index": index, "content_block": block})
            self._block_stop({"index": index})
        self._message_delta({"delta": {"stop_reason": body.get("stop_reason")}})
        self.completed = True


def _ignore(data: dict[str, Any]) -> None:
    """``ping``: keep-alive, nothing to record."""


PARSER = AnthropicParser
