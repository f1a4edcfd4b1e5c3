"""AWS Bedrock Converse output adapter (provider id ``bedrock``).

Streamed: ``POST /model/{modelId}/converse-stream`` answers in AWS event-stream binary
frames (``application/vnd.amazon.eventstream``), decoded by ``harness.stream.eventstream``
into one event per frame: the ``:event-type`` header (``messageStart``,
``contentBlockStart``, ``contentBlockDelta``, ``contentBlockStop``, ``messageStop``,
``metadata``) and the member's JSON payload (botocore bedrock-runtime service model,
shape ``ConverseStreamOutput``; https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html).
Exception frames (``throttlingException``, ``validationException``, ...) arrive as
``error`` events. Not streamed: the ``ConverseResponse`` JSON body of ``/converse``
(``output.message``, ``stopReason``, ``usage``).

A stream that ends without ``messageStop`` ends as ``error`` (the base's no-silent-endings
rule), and so does one cut between ``messageStop`` and the ``metadata`` event that always
follows it (usage lost): ``completed`` is set by ``metadata`` after ``messageStop``.
Decisions: DECISIONS.md beside this module.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, ClassVar, cast

import orjson

from harness.contract.results import text_deltas
from harness.contract.server_items import call_part, result_part
from harness.contract.sources import bedrock_citation
from harness.contract.wires import SNIFF_EVENTS
from harness.model import StopReason, Usage
from harness.stream.base import FAST_JSON_MAX, StreamParser, TextDelta, ThinkingDelta, ToolCallStart
from harness.stream.eventstream import Frames
from harness.stream.sse import SSEEvent

__all__ = ["PARSER", "BedrockParser", "map_stop_reason", "map_usage"]

_EMPTY: dict[str, Any] = {}
# StopReason enum of the service model; content_filtered / guardrail_intervened / malformed_* are
# the service refusing or failing to finish the turn, so they are errors, never a normal stop.
_STOP: dict[str, StopReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "tool_use": "tool_use",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "guardrail_intervened": "error",
    "content_filtered": "error",
    "malformed_model_output": "error",
    "malformed_tool_use": "error",
}
# Exceptions the ConverseStream docs list as retryable (throttling, service unavailable, internal).
_RETRYABLE = frozenset(
    {
        "throttlingException",
        "serviceUnavailableException",
        "internalServerException",
        "modelStreamErrorException",
    }
)


def map_stop_reason(reason: str | None) -> StopReason | None:
    if reason is None:
        return None
    return _STOP.get(reason, "stop")


def map_usage(raw: dict[str, Any]) -> Usage:
    """Bedrock ``TokenUsage`` -> canonical. ``inputTokens`` excludes cache reads and writes
    (``totalTokens`` = input + output + cacheRead + cacheWrite in every recording with a cache,
    e.g. traffic/pydantic-ai-more/models__test_bedrock__test_bedrock_cache_write_and_read.yaml)."""
    read = raw.get("cacheReadInputTokens")
    written = raw.get("cacheWriteInputTokens")
    return Usage(
        input_tokens=(raw.get("inputTokens") or 0) + (read or 0) + (written or 0),
        output_tokens=raw.get("outputTokens") or 0,
        cached_input_tokens=read,
        cache_creation_input_tokens=written,
    )


class BedrockParser(StreamParser):
    """Bedrock ConverseStream events / Converse body -> canonical assistant message."""

    provider = "bedrock"
    wire = "bedrock-converse"
    framing: ClassVar[str] = "aws-eventstream"

    def __init__(self) -> None:
        super().__init__()
        self._stopped = False  # messageStop seen; the metadata event after it completes the stream
        self._tools: dict[int, bool] = {}  # open toolUse block index -> whether input arrived
        # open system-tool blocks (``toolUse`` with ``type: server_tool_use``, an assistant-side
        # ``toolResult``) by index: the block as the Converse body holds it, filled by its deltas
        self._server: dict[int, dict[str, Any]] = {}
        self._server_input: dict[int, list[str]] = {}
        self._server_names: dict[str, str] = {}  # system tool call id -> its name, for its result
        self._handlers: dict[str, Callable[[dict[str, Any]], None]] = {
            "messageStart": _ignore,
            "contentBlockStart": self._block_start,
            "contentBlockDelta": self._block_delta,
            "contentBlockStop": self._block_stop,
            "messageStop": self._message_stop,
            "metadata": self._metadata,
        }

    def on_event(self, event: SSEEvent) -> None:
        data: Any = self.load(event)
        if data is None:
            return
        if type(data) is not dict:
            self.note(f"bedrock: non-object payload skipped: {event.data[:60]!r}")
            return
        payload: dict[str, Any] = data  # pyright: ignore[reportUnknownVariableType]
        name = event.event
        if name == "contentBlockDelta":  # nearly every event: no handler lookup
            self._block_delta(payload)
            return
        if name == "error":
            self._error(payload.get("error") or _EMPTY)
            return
        handler = self._handlers.get(name or "")
        if handler is None:
            self.note(f"bedrock: unknown event type {event.event!r} skipped")
            return
        handler(payload)

    def feed_frames(self, frames: Frames) -> None:
        """``feed_all`` of the frames' events, with the text and tool-input deltas (nearly every
        frame) taken in runs: no event, handler call or parts lookup each.

        A ``contentBlockDelta`` frame is taken here only when its payload is valid UTF-8 JSON
        that orjson reads (what ``load`` would give) and of the plain shape: an int
        ``contentBlockIndex`` and a ``delta`` with a string ``text``, or a ``toolUse`` whose
        ``input`` is a string or empty. Any other frame (and every frame among the first events,
        which are sampled, or after the terminal event) goes through ``feed_all`` as its event,
        in stream order, so messages, items, notes and errors are the same as event by event.
        """
        names, payloads = frames.names, frames.payloads
        start = len(names) if self._result is not None else max(0, SNIFF_EVENTS - len(self._sample))
        if start:
            super().feed_frames(Frames(names[:start], payloads[:start]))
            if start >= len(names):
                return
            names, payloads = names[start:], payloads[start:]
        loads, too_long, invalid = orjson.loads, FAST_JSON_MAX, orjson.JSONDecodeError
        terminal = self.terminal  # set by an event of feed_all only
        pending = Frames()  # frames for feed_all, in order
        run: list[str] = []  # deltas of one kind for one block
        add = run.append
        run_key: object = None  # None: no run open (``run`` is empty)
        run_text = True
        for name, payload in zip(names, payloads, strict=True):
            if name == "contentBlockDelta" and len(payload) < too_long:
                # The plain shapes, or an exception: a payload of any other shape (a non-object,
                # no index or delta, a delta that is no object, a toolUse that is none) goes to
                # feed_all, which reports or skips it as before.
                try:
                    data = loads(payload)
                    index = data["contentBlockIndex"]
                    delta = data["delta"]
                    if "text" in delta:
                        piece, text = delta["text"], True
                    else:
                        piece = delta["toolUse"].get("input") or "" if "toolUse" in delta else None
                        text = False
                except (invalid, LookupError, TypeError, AttributeError):
                    piece = index = None
                    text = False
                if type(index) is int and (type(piece) is str or (piece is not None and not piece)):
                    if pending.names:
                        super().feed_frames(pending)
                        pending, terminal = Frames(), self.terminal
                    if not terminal:
                        if piece:  # an empty delta: nothing, as _block_delta
                            if index != run_key or text is not run_text:
                                self._flush_run(run_key, run, run_text)
                                run, run_key, run_text = [piece], index, text
                                add = run.append
                            else:
                                add(piece)
                        continue
            if run_key is not None:
                self._flush_run(run_key, run, run_text)
                run, run_key = [], None
            pending.names.append(name)
            pending.payloads.append(payload)
        self._flush_run(run_key, run, run_text)
        if pending.names:
            super().feed_frames(pending)

    def _flush_run(self, index: object, run: list[str], text: bool) -> None:
        """A run of non-empty deltas of block ``index``: text (``_block_delta``'s text case) or
        tool input (its ``toolUse`` case)."""
        if not run:
            return
        if text:
            self.parts.text_run(index, run)
            self.items += text_deltas(run)
        elif index in self._server_input:
            self._server_input[cast(int, index)] += run
        else:
            self._tools[cast(int, index)] = True
            self.parts.tool_args_run(index, run)

    def _block_start(self, data: dict[str, Any]) -> None:
        index: int = data["contentBlockIndex"]
        start = data.get("start") or _EMPTY
        tool = start.get("toolUse")
        if tool is not None and tool.get("type") == "server_tool_use":
            # a system tool Bedrock runs (Nova's code interpreter): never a client tool call
            self._server[index] = {"toolUse": dict(tool)}
            self._server_input[index] = []
        elif tool is not None:
            call_id, name = tool.get("toolUseId") or "", tool.get("name") or ""
            self.parts.tool_call(index, call_id, name)
            self.emit(ToolCallStart(call_id, name))
            self._tools[index] = False
        elif isinstance(start.get("toolResult"), dict):  # that system tool's result, in the same turn
            self._server[index] = {"toolResult": {**start["toolResult"], "content": []}}
        else:
            self.note(f"bedrock: contentBlockStart {sorted(start)} skipped (no canonical part)")

    def _block_delta(self, data: dict[str, Any]) -> None:
        index: int = data["contentBlockIndex"]
        delta = data["delta"]
        if "text" in delta:
            text = delta["text"]
            if text:
                self.parts.text(index, text)
                self.items.append(TextDelta(text))  # emit, inlined: the most frequent event
        elif "toolUse" in delta:
            fragment = delta["toolUse"].get("input") or ""
            if fragment and index in self._server_input:
                self._server_input[index].append(fragment)
            elif fragment:
                self._tools[index] = True
                self.parts.tool_args(index, fragment)
        elif "reasoningContent" in delta:
            self._reasoning(index, delta["reasoningContent"])
        elif "citation" in delta:  # a citation of the text streamed at this index
            self.parts.source(index, bedrock_citation(delta["citation"] or _EMPTY))
        elif "toolResult" in delta and "toolResult" in self._server.get(index, _EMPTY):
            self._server[index]["toolResult"]["content"] += delta["toolResult"] or []
        else:
            self.note(f"bedrock: delta {sorted(delta)} skipped")

    def _reasoning(self, index: int, reasoning: dict[str, Any]) -> None:
        if "text" in reasoning:
            self.parts.thinking(index, reasoning["text"])
            if reasoning["text"]:
                self.emit(ThinkingDelta(reasoning["text"]))
        if "signature" in reasoning:
            self.parts.signature(index, reasoning["signature"], format="bedrock")
        if "redactedContent" in reasoning:
            self.parts.signature(("redacted", index), reasoning["redactedContent"], format="bedrock-redacted")

    def _block_stop(self, data: dict[str, Any]) -> None:
        index: int = data["contentBlockIndex"]
        server = self._server.pop(index, None)
        if server is not None:
            self._server_block(server, self._server_input.pop(index, None))
        if self._tools.pop(index, True) is False:  # a toolUse block without input: no arguments
            self.parts.tool_args(index, "{}")
        self.parts.close(index)
        self.parts.close(("redacted", index))

    def _server_block(self, block: dict[str, Any], fragments: list[str] | None) -> None:
        """A system tool's call or result, whole: ``raw`` is the block as the Converse body holds it
        (the streamed input parsed into ``input``), as the importer reads it from a request."""
        if "toolUse" in block:
            use = block["toolUse"]
            if fragments is not None:
                text = "".join(fragments) or "{}"
                try:
                    use["input"] = json.loads(text)
                except json.JSONDecodeError:
                    use["input"] = text
            call_id, name = str(use.get("toolUseId") or ""), str(use.get("name") or "")
            self._server_names[call_id] = name
            self.parts.fixed(call_part(call_id, name, "bedrock", use.get("input", {}), block))
            return
        result = block["toolResult"]
        call_id = str(result.get("toolUseId") or "")
        name = self._server_names.get(call_id) or str(result.get("type") or "").removesuffix("_result")
        status = "error" if result.get("status") == "error" else "success"
        self.parts.fixed(result_part(call_id, name, "bedrock", status, block))

    def _message_stop(self, data: dict[str, Any]) -> None:
        reason = data.get("stopReason")
        self.provider_stop = map_stop_reason(reason)
        if self.provider_stop == "error":
            self.error(f"bedrock: the turn ended with stopReason {reason}")
        elif reason not in _STOP:
            self.note(f"bedrock: unknown stopReason {reason!r} mapped to stop")
        self._stopped = True

    def _metadata(self, data: dict[str, Any]) -> None:
        usage = data.get("usage")
        if usage:
            self.usage = map_usage(usage)
        if self._stopped:
            self.completed = True
            self.terminal = True

    def _error(self, error: dict[str, Any]) -> None:
        kind = str(error.get("type") or "error")
        self.error(f"bedrock: {kind}: {error.get('message') or 'no message'}", can_retry=kind in _RETRYABLE)

    # ------------------------------------------------------------ not streamed

    def on_response(self, body: dict[str, Any]) -> None:
        """A ``ConverseResponse`` body, or an error body ``{"message": ...}`` (AWS JSON errors)."""
        output = body.get("output")
        if output is None and "message" in body:
            self._error({"type": body.get("__type") or "error", "message": body["message"]})
            return
        message = (output or _EMPTY).get("message") or _EMPTY
        for index, block in enumerate(message.get("content") or []):
            self._response_block(index, block)
        self._message_stop({"stopReason": body.get("stopReason")})
        self._metadata({"usage": body.get("usage")})

    def _response_block(self, index: int, block: dict[str, Any]) -> None:
        if "text" in block:
            self._block_delta({"contentBlockIndex": index, "delta": {"text": block["text"]}})
        elif "toolResult" in block or (
            "toolUse" in block and block["toolUse"].get("type") == "server_tool_use"
        ):
            # a system tool's call, or its result in the assistant turn: copied, kept whole
            self._server_block(json.loads(json.dumps(block)), None)
        elif "citationsContent" in block:  # cited text: its text, then a source per citation
            cited: dict[str, Any] = block["citationsContent"] or _EMPTY
            pieces: list[Any] = cited.get("content") or []
            for piece in pieces:
                text = piece.get("text") if isinstance(piece, dict) else None  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
                if text:
                    self._block_delta({"contentBlockIndex": index, "delta": {"text": text}})
            citations: list[Any] = cited.get("citations") or []
            for citation in citations:
                entry = cast(dict[str, Any], citation) if isinstance(citation, dict) else {}
                self.parts.source(index, bedrock_citation(entry))
        elif "toolUse" in block:
            tool = block["toolUse"]
            self._block_start({"contentBlockIndex": index, "start": {"toolUse": tool}})
            arguments = json.dumps(tool.get("input", {}), ensure_ascii=False)
            self._block_delta({"contentBlockIndex": index, "delta": {"toolUse": {"input": arguments}}})
        elif "reasoningContent" in block:
            content = block["reasoningContent"]
            text = content.get("reasoningText")
            if text is not None:
                self._reasoning(index, {"text": text.get("text") or "", **_only(text, "signature")})
            if "redactedContent" in content:
                self._reasoning(index, {"redactedContent": content["redactedContent"]})
        else:
            self.note(f"bedrock: content block {sorted(block)} skipped")
        self._block_stop({"contentBlockIndex": index})


def _only(data: dict[str, Any], key: str) -> dict[str, Any]:
    return {key: data[key]} if key in data else {}


def _ignore(data: dict[str, Any]) -> None:
    """``messageStart``: the role only (always ``assistant``)."""


PARSER = BedrockParser
